import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';

/**
 * API key text: `cgk_<uuid without dashes>_<43 chars base64url secret>`. The id half finds the
 * row; only SHA-256 of the whole text is stored. A hash (not a KDF) is right here because the
 * secret is 256 random bits, not a human password.
 */
const KEY_RE = /^cgk_([0-9a-f]{32})_([A-Za-z0-9_-]{43})$/;

export interface ParsedApiKey {
  readonly id: string;
  readonly text: string;
}

export function newApiKey(): { id: string; text: string } {
  const id = randomUUID();
  const text = `cgk_${id.replace(/-/g, '')}_${randomBytes(32).toString('base64url')}`;
  return { id, text };
}

export function parseApiKey(text: string): ParsedApiKey | undefined {
  const m = KEY_RE.exec(text);
  if (!m) return undefined;
  const h = m[1]!;
  const id = `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  return { id, text };
}

export function hashApiKey(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export function apiKeyHashMatches(text: string, storedHashHex: string): boolean {
  const a = Buffer.from(hashApiKey(text), 'hex');
  const b = Buffer.from(storedHashHex, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
