import { ed25519 } from '@noble/curves/ed25519.js';
import { AppError } from '../../errors';
import { base64ToBytes } from '../encoding/base64';
import { nativeEd25519PublicKey, nativeEd25519Sign, nativeEd25519Verify } from './native';

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

/** Generates an Ed25519 key pair; the default randomness is the platform CSPRNG (via noble). */
export function generateEd25519Keypair(randomBytes?: RandomBytes): Ed25519Keypair {
  const seed = randomBytes
    ? drawRandom(randomBytes, ED25519_SEED_LENGTH)
    : ed25519.utils.randomSecretKey();
  return { privateKey: seed, publicKey: ed25519.getPublicKey(seed) };
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
  let smallOrder: boolean;
  try {
    smallOrder = ed25519.Point.fromBytes(bytes).isSmallOrder();
  } catch {
    throw badPublic(field, `${field} is not a valid Ed25519 curve point`);
  }
  if (smallOrder) throw badPublic(field, `${field} is a small-order Ed25519 point`);
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
