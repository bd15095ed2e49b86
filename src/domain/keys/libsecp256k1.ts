import { createHash } from 'node:crypto';
import * as libsecp256k1 from 'tiny-secp256k1';

/**
 * secp256k1 ECDSA through libsecp256k1 (Bitcoin Core's library, compiled to WebAssembly by the
 * bitcoinjs `tiny-secp256k1` package): the hot signing and verification paths. Measured on this
 * 2-core EPYC (bench/crypto.bench.js): sign ~115 µs against 414 µs for node:crypto (OpenSSL has no
 * fast secp256k1 code) and ~700 µs for @noble/curves; verify ~240 µs against 343 µs for node:crypto.
 *
 * Signing is RFC 6979 deterministic with low S (libsecp256k1's default nonce function with no extra
 * data), bit for bit what @noble/curves produced before (test/unit/libsecp256k1-sign.test.ts
 * compares them), so one signer serves both the formats documented as deterministic and credential
 * issuance; no private key is kept between calls (the library zeroes its input buffer after use).
 *
 * Only the arithmetic moves: the accept/reject rules are the ones noble applied (each function says
 * which), and test/unit/signature-backends.test.ts cross-checks both ways on random keys and edge cases.
 */

/** floor(n / 2): an s above it is "high" (BIP 62), big-endian. */
const SECP256K1_HALF_N = Buffer.from('7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0', 'hex');

function sha256(message: Uint8Array): Uint8Array {
  return createHash('sha256').update(message).digest();
}

/** True when the s half of a 64-byte r||s exceeds n/2. */
export function secp256k1HasHighS(signature: Uint8Array): boolean {
  return Buffer.compare(Buffer.from(signature.buffer, signature.byteOffset + 32, 32), SECP256K1_HALF_N) > 0;
}

/**
 * Only the SEC1 prefixes noble accepts (02/03 with 33 bytes, 04 with 65): libsecp256k1's parser
 * also takes the "hybrid" 06/07 form, which must not start verifying now. libsecp256k1 checks the
 * point lies on the curve.
 */
function isSec1Point(publicKey: Uint8Array): boolean {
  if (publicKey.length === 33) return publicKey[0] === 0x02 || publicKey[0] === 0x03;
  return publicKey.length === 65 && publicKey[0] === 0x04;
}

/**
 * Verifies a 64-byte r||s ECDSA signature over SHA-256(message); never throws. r and s must lie in
 * [1, n-1] (the library refuses r or s >= n before any arithmetic and zero in it, as noble). With
 * `lowS` a high-S signature is refused, exactly as noble's `lowS: true`; without it a high-S
 * signature verifies as its low-S twin (JOSE ES256K does not require low S).
 */
export function libsecp256k1Verify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array, lowS: boolean): boolean {
  try {
    if (signature.length !== 64 || !isSec1Point(publicKey)) return false;
    if (lowS && secp256k1HasHighS(signature)) return false;
    return libsecp256k1.verify(sha256(message), publicKey, signature, lowS);
  } catch {
    return false;
  }
}

/**
 * ECDSA secp256k1 over SHA-256(message): RFC 6979 deterministic k, low S, 64-byte compact r||s.
 * The caller has checked the scalar is in [1, n-1] (the library throws otherwise).
 */
export function libsecp256k1Sign(message: Uint8Array, privateKey: Uint8Array): Uint8Array {
  return libsecp256k1.sign(sha256(message), privateKey);
}
