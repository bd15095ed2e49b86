import { createHash } from 'node:crypto';
import { base58btcDecode } from '../../domain/encoding/multibase';
import { base64UrlToBytes } from '../../domain/encoding/base64';

/**
 * The digests VCDM 2.0 §5.3 (Integrity of Related Resources) lets a relatedResource carry:
 * `digestSRI` (W3C Subresource Integrity: `sha384-<base64>`, several space-separated allowed)
 * and `digestMultibase` (a multibase-encoded multihash, e.g. `u` + base64url of 0x12 0x20 +
 * sha2-256). Parsed before anything is fetched, so a malformed digest costs no request.
 */
export type HashName = 'sha256' | 'sha384' | 'sha512';

export interface ExpectedDigest {
  /** Where it came from, for messages. */
  readonly member: 'digestSRI' | 'digestMultibase';
  readonly hash: HashName;
  /** Any of these matches (SRI lists alternatives of its strongest algorithm). */
  readonly values: readonly Buffer[];
}

const LENGTH: Readonly<Record<HashName, number>> = { sha256: 32, sha384: 48, sha512: 64 };
const STRENGTH: readonly HashName[] = ['sha256', 'sha384', 'sha512'];
/** Multihash codes (multicodec table) of the SHA-2 functions. */
const MULTIHASH: ReadonlyMap<number, HashName> = new Map([
  [0x12, 'sha256'],
  [0x20, 'sha384'],
  [0x13, 'sha512'],
]);

export class DigestSyntaxError extends Error {
  override readonly name = 'DigestSyntaxError';
}

/**
 * SRI metadata (SRI §3.3.3): tokens `<alg>-<base64>[?options]`; unknown algorithms are ignored;
 * only the strongest algorithm present counts, and any of its values may match.
 */
export function parseDigestSri(text: string): ExpectedDigest {
  const known: { hash: HashName; value: Buffer }[] = [];
  for (const token of text.trim().split(/\s+/)) {
    const m = /^(sha256|sha384|sha512)-([A-Za-z0-9+/]+={0,2})(?:\?.*)?$/.exec(token);
    if (!m) continue;
    const hash = m[1] as HashName;
    const value = Buffer.from(m[2]!, 'base64');
    if (value.length !== LENGTH[hash] || value.toString('base64') !== m[2]!.padEnd(Math.ceil(m[2]!.length / 4) * 4, '=')) throw new DigestSyntaxError(`digestSRI: ${hash} value is not ${LENGTH[hash]} bytes of base64`);
    known.push({ hash, value });
  }
  if (known.length === 0) throw new DigestSyntaxError('digestSRI names no sha256, sha384 or sha512 digest');
  const strongest = STRENGTH.filter((h) => known.some((k) => k.hash === h)).pop()!;
  return { member: 'digestSRI', hash: strongest, values: known.filter((k) => k.hash === strongest).map((k) => k.value) };
}

function readVarint(bytes: Uint8Array, at: number): [value: number, next: number] {
  let value = 0;
  for (let i = 0; i < 4; i += 1) {
    const b = bytes[at + i];
    if (b === undefined) break;
    value += (b & 0x7f) * 2 ** (7 * i);
    if ((b & 0x80) === 0) return [value, at + i + 1];
  }
  throw new DigestSyntaxError('digestMultibase is not a multihash');
}

/** A multibase (`u` base64url or `z` base58btc) multihash of SHA-2 256, 384 or 512. */
export function parseDigestMultibase(text: string): ExpectedDigest {
  let bytes: Uint8Array;
  try {
    if (text.startsWith('u')) bytes = base64UrlToBytes(text.slice(1), 'digestMultibase');
    else if (text.startsWith('z')) bytes = base58btcDecode(text.slice(1), 'digestMultibase');
    else throw new DigestSyntaxError('digestMultibase must be multibase base64url (u) or base58btc (z)');
  } catch (e) {
    if (e instanceof DigestSyntaxError) throw e;
    throw new DigestSyntaxError('digestMultibase does not decode');
  }
  const [code, afterCode] = readVarint(bytes, 0);
  const [length, start] = readVarint(bytes, afterCode);
  const hash = MULTIHASH.get(code);
  if (!hash) throw new DigestSyntaxError(`digestMultibase uses multihash 0x${code.toString(16)}; only sha2-256, sha2-384 and sha2-512 are checked`);
  if (length !== LENGTH[hash] || bytes.length !== start + length) throw new DigestSyntaxError(`digestMultibase: a ${hash} digest is ${LENGTH[hash]} bytes`);
  return { member: 'digestMultibase', hash, values: [Buffer.from(bytes.subarray(start))] };
}

/** True when `body` hashes to one of the expected values. */
export function digestMatches(body: Uint8Array, expected: ExpectedDigest): boolean {
  const actual = createHash(expected.hash).update(body).digest();
  return expected.values.some((v) => v.equals(actual));
}
