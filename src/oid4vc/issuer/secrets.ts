import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A wallet-held secret (code, token, nonce): 32 random bytes, base64url. */
export const newSecret = (): string => randomBytes(32).toString('base64url');

/** What is stored of a secret: its SHA-256 in hex, so a copy of the database cannot be replayed. */
export const secretHash = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');

/** A numeric transaction code (tx_code) of `length` digits, drawn without modulo bias. */
export function newTxCode(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < 250 && out.length < length) out += String(b % 10);
    }
  }
  return out;
}

/** Constant-time comparison of two hex hashes of equal length. */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}
