import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519.js';
import { LruCache } from './key-object-cache';

/**
 * node:crypto (OpenSSL) back end for the hot signature paths: Ed25519 sign/verify and secp256k1
 * ECDSA verify, 3-13x faster than @noble/curves (bench/crypto.bench.js). Only the arithmetic
 * moves; the accept/reject rules stay those of the noble code this replaces (see each function),
 * and the cross-check test (test/unit/native-crypto.test.ts) signs with one implementation and
 * verifies with the other.
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
const ed25519PublicKeys = new LruCache<string, KeyObject | false>(PUBLIC_KEY_CACHE_SIZE);
const secp256k1PublicKeys = new LruCache<string, KeyObject | false>(PUBLIC_KEY_CACHE_SIZE);

/** Drops the cached KeyObjects (tests; nothing in them is secret or changes). */
export function clearNativeKeyCaches(): void {
  ed25519PublicKeys.clear();
  secp256k1PublicKeys.clear();
}

function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

function b64url(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64url');
}

// ---------------------------------------------------------------------------------------------
// Ed25519
// ---------------------------------------------------------------------------------------------

/** PKCS#8 prefix of an Ed25519 private key (RFC 8410): the 32-byte seed follows. */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const ZERO_X = Buffer.alloc(32).toString('base64url');

/**
 * Node's JWK import of an OKP private key derives the public half from `d` (x only has to be a
 * string), which is 4x cheaper than its PKCS#8 decoder. Because that is node's behaviour rather
 * than a documented promise, the fast path is proven once against RFC 8032 §7.1 TEST 1 and
 * abandoned for PKCS#8 if it ever signs differently.
 */
let jwkImportDerivesPublicKey: boolean | undefined;

function ed25519PrivateKeyViaJwk(seed: Uint8Array): KeyObject {
  return createPrivateKey({ key: { kty: 'OKP', crv: 'Ed25519', d: b64url(seed), x: ZERO_X }, format: 'jwk' });
}

function ed25519PrivateKeyViaPkcs8(seed: Uint8Array): KeyObject {
  return createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
}

function jwkFastPathWorks(): boolean {
  const seed = Buffer.from('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60', 'hex');
  const expected =
    'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b';
  try {
    return sign(null, new Uint8Array(0), ed25519PrivateKeyViaJwk(seed)).toString('hex') === expected;
  } catch {
    return false;
  }
}

function ed25519PrivateKey(seed: Uint8Array): KeyObject {
  jwkImportDerivesPublicKey ??= jwkFastPathWorks();
  return jwkImportDerivesPublicKey ? ed25519PrivateKeyViaJwk(seed) : ed25519PrivateKeyViaPkcs8(seed);
}

/**
 * RFC 8032 Ed25519 (pure) signature of `message` by the 32-byte `seed`; byte-identical to noble's
 * (Ed25519 is deterministic). The caller has checked the seed length. Private keys are not
 * cached: a secret should not outlive the request that decrypted it.
 */
export function nativeEd25519Sign(message: Uint8Array, seed: Uint8Array): Uint8Array {
  return new Uint8Array(sign(null, message, ed25519PrivateKey(seed)));
}

/** The public key of a 32-byte seed, derived by OpenSSL (noble's derivation costs ~10x more). */
export function nativeEd25519PublicKey(seed: Uint8Array): Uint8Array {
  const jwk = createPublicKey(ed25519PrivateKey(seed)).export({ format: 'jwk' });
  return new Uint8Array(Buffer.from(jwk.x ?? '', 'base64url'));
}

/**
 * KeyObject of a 32-byte Ed25519 public key, or false. The key must first pass noble's strict
 * checks, exactly those of `ed25519.verify(…, {zip215: false})`: a canonical encoding (y < p, no
 * "negative zero" x) and not of small order. OpenSSL checks neither (it accepts y = p + 1, a
 * second spelling of the identity, and the identity itself, for which R = identity, S = 0 verifies
 * every message), so without this the switch would widen what verifies.
 */
function ed25519PublicKey(publicKey: Uint8Array): KeyObject | false {
  const id = hex(publicKey);
  const cached = ed25519PublicKeys.get(id);
  if (cached !== undefined) return cached;
  let keyObject: KeyObject | false;
  try {
    if (ed25519.Point.fromBytes(Uint8Array.from(publicKey), false).isSmallOrder()) throw new Error('small order');
    keyObject = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: b64url(publicKey) }, format: 'jwk' });
  } catch {
    keyObject = false;
  }
  ed25519PublicKeys.set(id, keyObject);
  return keyObject;
}

/**
 * Strict RFC 8032 verification; never throws. Relative to noble's `zip215: false` verify (which
 * the cross-check test compares against) it accepts nothing more: S >= L and non-canonical R are
 * rejected by both, A is pre-validated as above, and OpenSSL's cofactorless equation
 * [S]B = R + [k]A implies noble's cofactored one. It can only be stricter, for keys or R with a
 * small-order component, which honest signers never produce.
 */
export function nativeEd25519Verify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  try {
    const key = ed25519PublicKey(publicKey);
    return key !== false && verify(null, message, key, signature);
  } catch {
    return false;
  }
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
