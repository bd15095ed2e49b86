import { createPrivateKey, createPublicKey, randomBytes as nodeRandomBytes, sign, verify, type KeyObject } from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519.js';
import { AppError } from '../../errors';
import { base64ToBytes } from '../encoding/base64';
import { LruCache } from './key-object-cache';

/**
 * The one Ed25519 implementation of the service (issue 20): RFC 8032 pure Ed25519 on node:crypto
 * (OpenSSL), 3-13x faster than @noble/curves (bench/crypto.bench.js, docs/BENCHMARKS.md). Every
 * Ed25519 signature, verification and key derivation (Family A proofs, VC-API keys, cryptographs,
 * log checkpoints, witness cosignatures) comes here.
 *
 * @noble/curves stays for one thing OpenSSL does not do: decoding a public key as a curve point to
 * refuse non-canonical encodings and small-order points (see {@link ed25519PointCheck}). Without it
 * a key such as the identity, for which R = identity, S = 0 verifies every message, would be
 * accepted. The tests also keep noble as the independent implementation they cross-check against
 * (test/unit/signature-backends.test.ts).
 */

/** Source of cryptographically secure random bytes; injectable so tests can be deterministic. */
export type RandomBytes = (n: number) => Uint8Array;

export interface Ed25519Keypair {
  /** The 32-byte RFC 8032 seed (the "secret key" proper; the signing scalar is derived from it). */
  privateKey: Uint8Array;
  publicKey: Uint8Array;
}

export const ED25519_PUBLIC_KEY_LENGTH = 32;
export const ED25519_SEED_LENGTH = 32;
export const ED25519_SIGNATURE_LENGTH = 64;

function badPublic(field: string, message: string): AppError {
  return new AppError('INVALID_PUBLIC_KEY', message, [{ field, message }]);
}

function badPrivate(field: string, message: string): AppError {
  return new AppError('INVALID_PRIVATE_KEY', message, [{ field, message }]);
}

/** Draws `n` bytes from `randomBytes` and insists on the length, so a broken source cannot shorten keys. */
export function drawRandom(randomBytes: RandomBytes, n: number): Uint8Array {
  const bytes = randomBytes(n);
  if (!(bytes instanceof Uint8Array) || bytes.length !== n) {
    throw new AppError('INVALID_INPUT', `random source must return ${n} bytes`);
  }
  return Uint8Array.from(bytes);
}

/** Generates an Ed25519 key pair; the default randomness is the platform CSPRNG (node:crypto). */
export function generateEd25519Keypair(randomBytes?: RandomBytes): Ed25519Keypair {
  const seed = drawRandom(randomBytes ?? ((n) => new Uint8Array(nodeRandomBytes(n))), ED25519_SEED_LENGTH);
  return { privateKey: seed, publicKey: nativeEd25519PublicKey(seed) };
}

/** Derives the public key of a 32-byte seed. */
export function ed25519PublicKeyFromSeed(seed: Uint8Array): Uint8Array {
  assertSeed(seed, 'privateKey');
  return nativeEd25519PublicKey(seed);
}

function assertSeed(seed: Uint8Array, field: string): void {
  if (!(seed instanceof Uint8Array) || seed.length !== ED25519_SEED_LENGTH) {
    throw badPrivate(field, `${field} must be a 32-byte Ed25519 seed`);
  }
}

/**
 * Validates an Ed25519 public key given as bytes or padded standard base64: 32 bytes that decode
 * (RFC 8032 strict, canonical encoding) to a curve point. Small-order points are rejected as
 * well: a key of small order verifies forged signatures for many messages, so it is never a
 * legitimate issuer key.
 */
export function parseEd25519PublicKey(input: Uint8Array | string, field = 'publicKey'): Uint8Array {
  let bytes: Uint8Array;
  if (typeof input === 'string') {
    try {
      bytes = base64ToBytes(input, field);
    } catch {
      throw badPublic(field, `${field} must be base64`);
    }
  } else if (input instanceof Uint8Array) {
    bytes = Uint8Array.from(input);
  } else {
    throw badPublic(field, `${field} must be bytes or a base64 string`);
  }
  if (bytes.length !== ED25519_PUBLIC_KEY_LENGTH) {
    throw badPublic(field, `${field} must be a 32-byte Ed25519 public key`);
  }
  const check = ed25519PointCheck(bytes);
  if (check === 'not-a-point') throw badPublic(field, `${field} is not a valid Ed25519 curve point`);
  if (check === 'small-order') throw badPublic(field, `${field} is a small-order Ed25519 point`);
  return bytes;
}

/**
 * Parses a base64 Ed25519 private key and returns the 32-byte seed. Accepts the bare seed or the
 * 64-byte `seed || publicKey` form (libsodium, tweetnacl, Node's raw export); in the latter case
 * the embedded public half must be the one the seed derives, so a spliced key is caught here.
 */
export function parseEd25519PrivateKey(base64: string, field = 'privateKey'): Uint8Array {
  let bytes: Uint8Array;
  try {
    bytes = base64ToBytes(base64, field);
  } catch {
    throw badPrivate(field, `${field} must be base64`);
  }
  if (bytes.length === ED25519_SEED_LENGTH) return bytes;
  if (bytes.length === ED25519_SEED_LENGTH + ED25519_PUBLIC_KEY_LENGTH) {
    const seed = bytes.slice(0, ED25519_SEED_LENGTH);
    const embedded = bytes.slice(ED25519_SEED_LENGTH);
    const derived = nativeEd25519PublicKey(seed);
    if (!bytesEqual(embedded, derived)) {
      throw badPrivate(field, `${field} public half does not match its seed`);
    }
    return seed;
  }
  throw badPrivate(field, `${field} must be a 32-byte seed or 64-byte seed||publicKey`);
}

/** Signs `message` with RFC 8032 Ed25519 (pure, no context); deterministic. node:crypto does the work. */
export function ed25519Sign(message: Uint8Array, seed: Uint8Array): Uint8Array {
  assertSeed(seed, 'privateKey');
  return nativeEd25519Sign(message, seed);
}

/**
 * Verifies an Ed25519 signature (RFC 8032 strict, not ZIP-215). Returns false, never throws, for
 * malformed signatures, keys or lengths: callers treat any failure as "not verified". node:crypto
 * does the arithmetic; see {@link nativeEd25519Verify} for why it accepts nothing noble rejected.
 */
export function ed25519Verify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  try {
    if (signature.length !== ED25519_SIGNATURE_LENGTH) return false;
    if (publicKey.length !== ED25519_PUBLIC_KEY_LENGTH) return false;
    return nativeEd25519Verify(signature, message, publicKey);
  } catch {
    return false;
  }
}

/** Non-secret comparison helper (used on public data only). */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * What strict RFC 8032 decoding (noble's `Point.fromBytes(…, zip215 = false)`, the rules of
 * `ed25519.verify(…, {zip215: false})`) says of a 32-byte public key: a canonical encoding (y < p,
 * no "negative zero" x) of a curve point, and not of small order. OpenSSL checks neither (it
 * accepts y = p + 1, a second spelling of the identity, and the identity itself), so every key
 * that reaches node:crypto passes this first.
 */
export function ed25519PointCheck(publicKey: Uint8Array): 'ok' | 'not-a-point' | 'small-order' {
  let smallOrder: boolean;
  try {
    smallOrder = ed25519.Point.fromBytes(Uint8Array.from(publicKey), false).isSmallOrder();
  } catch {
    return 'not-a-point';
  }
  return smallOrder ? 'small-order' : 'ok';
}

// ---------------------------------------------------------------------------------------------
// node:crypto primitives. The `native…` functions do not check lengths (their callers have);
// the checked forms above are for input that comes from outside.
// ---------------------------------------------------------------------------------------------

/** Distinct public keys kept as KeyObjects; a few hundred bytes each. */
export const ED25519_PUBLIC_KEY_CACHE_SIZE = 1024;

/** `false` records a key that failed validation, so a repeated bad key is not re-parsed. */
const ed25519PublicKeys = new LruCache<string, KeyObject | false>(ED25519_PUBLIC_KEY_CACHE_SIZE);

/** Drops the cached public KeyObjects (tests; nothing in them is secret or changes). */
export function clearEd25519KeyCache(): void {
  ed25519PublicKeys.clear();
}

function b64url(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64url');
}

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

/**
 * A signer holding one seed's KeyObject, for a key the process holds for its whole life anyway
 * (the ledger's log key signs every new head: importing it per head cost as much as the signature,
 * paid once per log in every tick). Same signatures as {@link nativeEd25519Sign}.
 */
export interface Ed25519KeySigner {
  readonly publicKey: Uint8Array;
  sign(message: Uint8Array): Uint8Array;
}

export function ed25519KeySigner(seed: Uint8Array): Ed25519KeySigner {
  const key = ed25519PrivateKey(seed);
  const jwk = createPublicKey(key).export({ format: 'jwk' });
  return { publicKey: new Uint8Array(Buffer.from(jwk.x ?? '', 'base64url')), sign: (message) => new Uint8Array(sign(null, message, key)) };
}

/** The public key of a 32-byte seed, derived by OpenSSL (noble's derivation costs ~10x more). */
export function nativeEd25519PublicKey(seed: Uint8Array): Uint8Array {
  const jwk = createPublicKey(ed25519PrivateKey(seed)).export({ format: 'jwk' });
  return new Uint8Array(Buffer.from(jwk.x ?? '', 'base64url'));
}

/** KeyObject of a 32-byte Ed25519 public key that passed {@link ed25519PointCheck}, or false. */
function ed25519PublicKey(publicKey: Uint8Array): KeyObject | false {
  const id = Buffer.from(publicKey.buffer, publicKey.byteOffset, publicKey.byteLength).toString('hex');
  const cached = ed25519PublicKeys.get(id);
  if (cached !== undefined) return cached;
  let keyObject: KeyObject | false;
  try {
    if (ed25519PointCheck(publicKey) !== 'ok') throw new Error('not a strict RFC 8032 public key');
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
