import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { clearEd25519KeyCache } from './ed25519';
import { LruCache } from './key-object-cache';

/**
 * node:crypto (OpenSSL) back end for the hot secp256k1 paths: ECDSA verify and credential signing,
 * several times faster than @noble/curves (bench/crypto.bench.js). Only the arithmetic moves; the
 * accept/reject rules stay those of the noble code this replaces (see each function), and the
 * cross-check test (test/unit/native-crypto.test.ts) signs with one implementation and verifies
 * with the other. Ed25519 has one implementation, on node:crypto as well: src/domain/keys/ed25519.ts.
 *
 * secp256k1 signing: node's ECDSA draws a random k, so signatures documented as deterministic
 * RFC 6979 (equal inputs give equal signatures: signData, ZKP tokens, ES256K JWS, VP proofs) stay
 * on noble. Credential issuance (the Family B detached JWS of credentials and status lists, whose
 * format asks only for a valid low-S signature) uses `nativeSecp256k1Sign`. Importing a raw
 * secp256k1 scalar into OpenSSL costs about as much as a noble signature, so that path keeps the
 * imported key for a short while (see PRIVATE_KEY_TTL_MS).
 */

/** Distinct public keys kept as KeyObjects; a few hundred bytes each. */
export const PUBLIC_KEY_CACHE_SIZE = 1024;

/** `false` records a key that failed validation, so a repeated bad key is not re-parsed. */
const secp256k1PublicKeys = new LruCache<string, KeyObject | false>(PUBLIC_KEY_CACHE_SIZE);

/** Drops the cached KeyObjects (tests; nothing in them is secret or changes). */
export function clearNativeKeyCaches(): void {
  clearEd25519KeyCache();
  secp256k1PublicKeys.clear();
}

function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

// ---------------------------------------------------------------------------------------------
// secp256k1 (ECDSA over SHA-256, IEEE P1363 r||s)
// ---------------------------------------------------------------------------------------------

/** SubjectPublicKeyInfo prefixes (id-ecPublicKey, secp256k1) for compressed and uncompressed points. */
const SECP256K1_SPKI_COMPRESSED = Buffer.from('3036301006072a8648ce3d020106052b8104000a032200', 'hex');
const SECP256K1_SPKI_UNCOMPRESSED = Buffer.from('3056301006072a8648ce3d020106052b8104000a034200', 'hex');
/** floor(n / 2): an s above it is "high" (BIP 62), big-endian. */
const SECP256K1_HALF_N = Buffer.from('7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0', 'hex');

/**
 * KeyObject of a SEC1 secp256k1 public key, or false. Only the prefixes noble accepts (02/03 with
 * 33 bytes, 04 with 65): OpenSSL would also take the "hybrid" 06/07 form, which must not start
 * verifying now. OpenSSL checks that the point is on the curve and not the identity.
 */
function secp256k1PublicKey(publicKey: Uint8Array): KeyObject | false {
  const id = hex(publicKey);
  const cached = secp256k1PublicKeys.get(id);
  if (cached !== undefined) return cached;
  let prefix: Buffer | undefined;
  if (publicKey.length === 33 && (publicKey[0] === 0x02 || publicKey[0] === 0x03)) prefix = SECP256K1_SPKI_COMPRESSED;
  if (publicKey.length === 65 && publicKey[0] === 0x04) prefix = SECP256K1_SPKI_UNCOMPRESSED;
  let keyObject: KeyObject | false = false;
  if (prefix) {
    try {
      keyObject = createPublicKey({ key: Buffer.concat([prefix, publicKey]), format: 'der', type: 'spki' });
    } catch {
      keyObject = false;
    }
  }
  secp256k1PublicKeys.set(id, keyObject);
  return keyObject;
}

/** True when the s half of a 64-byte r||s exceeds n/2. */
export function secp256k1HasHighS(signature: Uint8Array): boolean {
  return Buffer.compare(Buffer.from(signature.buffer, signature.byteOffset + 32, 32), SECP256K1_HALF_N) > 0;
}

/**
 * Verifies a 64-byte r||s ECDSA signature over SHA-256(message); never throws. r and s must lie in
 * [1, n-1] (OpenSSL, as noble). With `lowS` a high-S signature is refused before any arithmetic,
 * exactly as noble's `lowS: true`.
 */
export function nativeSecp256k1Verify(
  signature: Uint8Array,
  message: Uint8Array,
  publicKey: Uint8Array,
  lowS: boolean,
): boolean {
  try {
    if (signature.length !== 64) return false;
    if (lowS && secp256k1HasHighS(signature)) return false;
    const key = secp256k1PublicKey(publicKey);
    return key !== false && verify('sha256', message, { key, dsaEncoding: 'ieee-p1363' }, signature);
  } catch {
    return false;
  }
}

/** The order n of secp256k1. */
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
/** SEC1 ECPrivateKey (RFC 5915) around a 32-byte scalar, curve secp256k1, no public key (OpenSSL derives it). */
const SECP256K1_SEC1_PREFIX = Buffer.from('302e0201010420', 'hex');
const SECP256K1_SEC1_SUFFIX = Buffer.from('a00706052b8104000a', 'hex');

/**
 * Issuers' keys imported into OpenSSL, kept this long after import and at most PRIVATE_KEY_CACHE_SIZE
 * of them. An issuer signs every credential of every batch with one key, and the import (the DER
 * decoder plus deriving the public point) costs as much as a signature, so a per-signature import
 * would make node:crypto no faster than noble. Keyed by SHA-256 of the scalar (nothing secret in the
 * key of the map). Holding the imported key a minute does not widen what a memory read could take:
 * the master key that unseals every managed key is resident for the life of the process anyway.
 */
export const PRIVATE_KEY_TTL_MS = 60_000;
export const PRIVATE_KEY_CACHE_SIZE = 256;
const secp256k1PrivateKeys = new LruCache<string, { readonly key: KeyObject; readonly until: number }>(PRIVATE_KEY_CACHE_SIZE);

/** Drops the imported private keys (tests; a deployment lets them expire). */
export function clearNativePrivateKeys(): void {
  secp256k1PrivateKeys.clear();
}

function secp256k1PrivateKey(privateKey: Uint8Array): KeyObject {
  const id = createHash('sha256').update(privateKey).digest('base64');
  const now = performance.now();
  const cached = secp256k1PrivateKeys.get(id);
  if (cached && cached.until > now) return cached.key;
  const der = Buffer.concat([SECP256K1_SEC1_PREFIX, privateKey, SECP256K1_SEC1_SUFFIX]);
  try {
    const key = createPrivateKey({ key: der, format: 'der', type: 'sec1' });
    secp256k1PrivateKeys.set(id, { key, until: now + PRIVATE_KEY_TTL_MS });
    return key;
  } finally {
    der.fill(0);
  }
}

/**
 * ECDSA secp256k1 over SHA-256(message) by OpenSSL (random k), as 64-byte r||s, normalised to low
 * S (BIP 62 / BIP 146: verifiers of Bitcoin lineage, and ours, refuse high S). The caller has
 * checked the scalar is in [1, n-1].
 */
export function nativeSecp256k1Sign(message: Uint8Array, privateKey: Uint8Array): Uint8Array {
  const sig = new Uint8Array(sign('sha256', message, { key: secp256k1PrivateKey(privateKey), dsaEncoding: 'ieee-p1363' }));
  if (secp256k1HasHighS(sig)) {
    const s = SECP256K1_N - BigInt(`0x${hex(sig.subarray(32))}`);
    sig.set(Buffer.from(s.toString(16).padStart(64, '0'), 'hex'), 32);
  }
  return sig;
}
