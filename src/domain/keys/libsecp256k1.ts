import { createHash } from 'node:crypto';
import * as wasm from 'tiny-secp256k1';

/**
 * secp256k1 ECDSA through libsecp256k1 (Bitcoin Core's library): the hot signing and verification
 * paths. Two builds of the same library, first that loads wins:
 *
 * - native: the N-API addon of the `secp256k1` package (cryptocoinjs), loaded from the prebuilt
 *   binary the package ships (`prebuilds/<platform>`), so no install script has to run. Measured
 *   on this 2-core EPYC: sign ~62 µs, verify ~59 µs.
 * - wasm: bitcoinjs' `tiny-secp256k1` (libsecp256k1 compiled to WebAssembly), everywhere the addon
 *   does not load (another platform, a missing prebuild): sign ~115 µs, verify ~240 µs.
 *
 * Against node:crypto (OpenSSL has no fast secp256k1 code: sign 414 µs, verify 343 µs) and
 * @noble/curves (~700 µs / ~1,400 µs). The `secp256k1` package's own fallback (the pure-JS
 * `elliptic`) is never used: `secp256k1/bindings` is loaded directly.
 *
 * Signing is RFC 6979 deterministic with low S (libsecp256k1's default nonce function with no extra
 * data), bit for bit what @noble/curves produced before (test/unit/libsecp256k1-sign.test.ts
 * compares them, for both builds), so one signer serves both the formats documented as
 * deterministic and credential issuance; no private key is kept between calls.
 *
 * Only the arithmetic moves: the accept/reject rules are the ones noble applied (each function says
 * which), and test/unit/signature-backends.test.ts cross-checks both builds against noble.
 */

/** One build of libsecp256k1: digests are 32 bytes, signatures 64-byte compact r||s. */
export interface Libsecp256k1 {
  readonly name: 'native' | 'wasm';
  /** RFC 6979, low S. Throws on a scalar outside [1, n-1]. */
  sign(digest: Uint8Array, privateKey: Uint8Array): Uint8Array;
  /** libsecp256k1's verify: false for high S; throws (or false) on r or s >= n or an unparsable key. */
  verify(digest: Uint8Array, publicKey: Uint8Array, signature: Uint8Array): boolean;
}

interface NativeAddon {
  ecdsaSign(msg32: Uint8Array, seckey: Uint8Array): { signature: Uint8Array };
  ecdsaVerify(sig: Uint8Array, msg32: Uint8Array, pubkey: Uint8Array): boolean;
}

export const WASM_LIBSECP256K1: Libsecp256k1 = {
  name: 'wasm',
  sign: (digest, privateKey) => wasm.sign(digest, privateKey),
  // strict: high S is refused, as by the native build (callers normalise where they accept it).
  verify: (digest, publicKey, signature) => wasm.verify(digest, publicKey, signature, true),
};

/** The addon, or null where it does not load (then the WebAssembly build serves). */
export function loadNativeLibsecp256k1(): Libsecp256k1 | null {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- an untyped CommonJS addon, loaded only if present
    const addon = require('secp256k1/bindings') as NativeAddon;
    return {
      name: 'native',
      sign: (digest, privateKey) => addon.ecdsaSign(digest, privateKey).signature,
      verify: (digest, publicKey, signature) => addon.ecdsaVerify(signature, digest, publicKey),
    };
  } catch {
    return null;
  }
}

/** The build this process uses (startup logs and the bench name it). */
export const LIBSECP256K1: Libsecp256k1 = loadNativeLibsecp256k1() ?? WASM_LIBSECP256K1;

/** The order n of secp256k1, and floor(n / 2): an s above it is "high" (BIP 62), big-endian. */
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const SECP256K1_HALF_N = Buffer.from('7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0', 'hex');

function sha256(message: Uint8Array): Uint8Array {
  return createHash('sha256').update(message).digest();
}

/** True when the s half of a 64-byte r||s exceeds n/2. */
export function secp256k1HasHighS(signature: Uint8Array): boolean {
  return Buffer.compare(Buffer.from(signature.buffer, signature.byteOffset + 32, 32), SECP256K1_HALF_N) > 0;
}

/** The low-S twin (r, n - s) of a high-S signature; s < n is checked by the caller's parse. */
function lowSTwin(signature: Uint8Array): Uint8Array {
  const s = BigInt(`0x${Buffer.from(signature.subarray(32)).toString('hex')}`);
  if (s >= SECP256K1_N) return signature; // the library refuses it as it stands
  const out = Uint8Array.from(signature);
  out.set(Buffer.from((SECP256K1_N - s).toString(16).padStart(64, '0'), 'hex'), 32);
  return out;
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
 * [1, n-1] (libsecp256k1 refuses r or s >= n when parsing and zero when verifying, as noble). With
 * `lowS` a high-S signature is refused, exactly as noble's `lowS: true`; without it a high-S
 * signature verifies as its low-S twin (JOSE ES256K does not require low S).
 */
export function libsecp256k1Verify(
  signature: Uint8Array,
  message: Uint8Array,
  publicKey: Uint8Array,
  lowS: boolean,
  lib: Libsecp256k1 = LIBSECP256K1,
): boolean {
  try {
    if (signature.length !== 64 || !isSec1Point(publicKey)) return false;
    const high = secp256k1HasHighS(signature);
    if (high && lowS) return false;
    return lib.verify(sha256(message), publicKey, high ? lowSTwin(signature) : signature);
  } catch {
    return false;
  }
}

/**
 * ECDSA secp256k1 over SHA-256(message): RFC 6979 deterministic k, low S, 64-byte compact r||s.
 * The caller has checked the scalar is in [1, n-1] (the library throws otherwise).
 */
export function libsecp256k1Sign(message: Uint8Array, privateKey: Uint8Array, lib: Libsecp256k1 = LIBSECP256K1): Uint8Array {
  return Uint8Array.from(lib.sign(sha256(message), privateKey));
}
