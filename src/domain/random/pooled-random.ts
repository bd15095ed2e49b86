import { randomBytes, randomFillSync } from 'node:crypto';

/*
 * CSPRNG bytes for the small, frequent draws of the hot paths (a 128-bit disclosure salt per
 * attribute of every Family B credential). node:crypto's randomBytes costs about 5.6 µs a call
 * whatever the size (OpenSSL's RAND_bytes behind a lock and a buffer allocation), and the issuance
 * profile spent 5 % of its CPU there; one 4 KiB refill serves 256 salts at about 0.2 µs each.
 *
 * The pool holds bytes from the same generator, so a draw is exactly as unpredictable as a direct
 * call. Each byte is handed out once: a draw copies its bytes out and zeroes them in the pool, so a
 * later read of the pool (a heap dump) shows no salt already used. Large draws bypass the pool.
 */

const POOL_BYTES = 4096;
const LARGEST_POOLED_DRAW = 256;

let pool: Buffer = Buffer.alloc(0);
let offset = 0;

/** `n` bytes from the platform CSPRNG, through the pool for small `n`. */
export function pooledRandomBytes(n: number): Uint8Array {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`cannot draw ${n} random bytes`);
  if (n > LARGEST_POOLED_DRAW) return new Uint8Array(randomBytes(n));
  if (offset + n > pool.length) {
    pool = randomFillSync(Buffer.allocUnsafeSlow(POOL_BYTES));
    offset = 0;
  }
  const out = new Uint8Array(n);
  out.set(pool.subarray(offset, offset + n));
  pool.fill(0, offset, offset + n);
  offset += n;
  return out;
}
