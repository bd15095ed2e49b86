import { hash } from 'node:crypto';

/*
 * SHA-256 of the verification hot path (Merkle leaves and nodes, the Family B credential hash,
 * selective-disclosure digests) on node:crypto's one-shot `hash` (OpenSSL). For these inputs it
 * is faster than @noble/hashes' JavaScript: about 1.5x for a 65-byte Merkle node and 4-5x for a
 * credential's ~1 KiB canonical form (micro-bench in the commit that introduced this module).
 * Same function, same digests: only the implementation moves.
 */

/** Digest length in bytes. */
export const SHA256_BYTES = 32;

/**
 * A plain Uint8Array view of the digest. A Buffer would change behaviour for callers: its
 * `slice` is a view where Uint8Array's is a copy, and strict equality in tests compares classes.
 */
function plain(digest: Buffer): Uint8Array {
  return new Uint8Array(digest.buffer, digest.byteOffset, digest.byteLength);
}

/** SHA-256(data). */
export function sha256(data: Uint8Array): Uint8Array {
  return plain(hash('sha256', data, 'buffer'));
}

/** SHA-256(parts[0] || parts[1] || …): one hash over the concatenation, without a streaming context. */
export function sha256Of(parts: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const p of parts) length += p.length;
  const joined = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    joined.set(p, at);
    at += p.length;
  }
  return sha256(joined);
}
