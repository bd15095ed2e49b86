import { secp256k1 } from '@noble/curves/secp256k1.js';
import { AppError } from '../../errors';
import { hexToBytes } from '../encoding/hex';
import { drawRandom, type RandomBytes } from './ed25519';
import { libsecp256k1Sign, libsecp256k1Verify } from './libsecp256k1';

export interface Secp256k1Keypair {
  /** 32-byte big-endian scalar in [1, n-1]. */
  privateKey: Uint8Array;
  /** 33-byte SEC1 compressed point. */
  publicKey: Uint8Array;
}

export const SECP256K1_PRIVATE_KEY_LENGTH = 32;
export const SECP256K1_COMPRESSED_LENGTH = 33;
export const SECP256K1_UNCOMPRESSED_LENGTH = 65;
export const SECP256K1_SIGNATURE_LENGTH = 64;

/** Retries only matter for an injected source; a CSPRNG hits an out-of-range scalar with p ~ 2^-128. */
const MAX_KEYGEN_ATTEMPTS = 16;

function badPublic(field: string, message: string): AppError {
  return new AppError('INVALID_PUBLIC_KEY', message, [{ field, message }]);
}

function badPrivate(field: string, message: string): AppError {
  return new AppError('INVALID_PRIVATE_KEY', message, [{ field, message }]);
}

/** Generates a secp256k1 key pair; the public key is compressed. */
export function generateSecp256k1Keypair(randomBytes?: RandomBytes): Secp256k1Keypair {
  if (!randomBytes) {
    const privateKey = secp256k1.utils.randomSecretKey();
    return { privateKey, publicKey: secp256k1.getPublicKey(privateKey, true) };
  }
  for (let i = 0; i < MAX_KEYGEN_ATTEMPTS; i++) {
    const candidate = drawRandom(randomBytes, SECP256K1_PRIVATE_KEY_LENGTH);
    if (secp256k1.utils.isValidSecretKey(candidate)) {
      return { privateKey: candidate, publicKey: secp256k1.getPublicKey(candidate, true) };
    }
  }
  throw new AppError('INVALID_INPUT', 'random source keeps producing out-of-range secp256k1 keys');
}

function toBytes(input: string | Uint8Array, field: string, onError: (m: string) => AppError): Uint8Array {
  if (input instanceof Uint8Array) return Uint8Array.from(input);
  try {
    return hexToBytes(input, field);
  } catch {
    throw onError(`${field} must be hex`);
  }
}

/**
 * Validates a secp256k1 public key (hex or bytes, 33-byte compressed or 65-byte uncompressed SEC1)
 * and returns it compressed, the canonical form stored and put into did:key.
 */
export function parseSecp256k1PublicKey(input: string | Uint8Array, field = 'publicKey'): Uint8Array {
  const bytes = toBytes(input, field, (m) => badPublic(field, m));
  if (bytes.length !== SECP256K1_COMPRESSED_LENGTH && bytes.length !== SECP256K1_UNCOMPRESSED_LENGTH) {
    throw badPublic(field, `${field} must be a 33-byte compressed or 65-byte uncompressed secp256k1 key`);
  }
  try {
    const point = secp256k1.Point.fromBytes(bytes);
    point.assertValidity();
    return point.toBytes(true);
  } catch {
    throw badPublic(field, `${field} is not a valid secp256k1 curve point`);
  }
}

/** Validates a 32-byte secp256k1 private key (hex or bytes) in the range [1, n-1]. */
export function parseSecp256k1PrivateKey(input: string | Uint8Array, field = 'privateKey'): Uint8Array {
  const bytes = toBytes(input, field, (m) => badPrivate(field, m));
  if (bytes.length !== SECP256K1_PRIVATE_KEY_LENGTH) {
    throw badPrivate(field, `${field} must be 32 bytes`);
  }
  if (!secp256k1.utils.isValidSecretKey(bytes)) {
    throw badPrivate(field, `${field} is out of range for secp256k1`);
  }
  return bytes;
}

/** Derives the compressed public key of a private key. */
export function secp256k1PublicKeyFromPrivate(privateKey: Uint8Array): Uint8Array {
  const sk = parseSecp256k1PrivateKey(privateKey);
  return secp256k1.getPublicKey(sk, true);
}

/**
 * ECDSA-signs SHA-256(message): deterministic k (RFC 6979), low-S normalised (BIP 62 / BIP 146),
 * returned as the 64-byte compact r||s used by JOSE (RFC 8812) and VC proof suites. libsecp256k1
 * does the arithmetic (src/domain/keys/libsecp256k1.ts): the same signature noble gave, ~6x faster.
 */
export function secp256k1SignMessage(message: Uint8Array, privateKey: Uint8Array): Uint8Array {
  return libsecp256k1Sign(message, parseSecp256k1PrivateKey(privateKey));
}

/**
 * Verifies a compact r||s signature over SHA-256(message). High-S signatures are rejected
 * (they are the malleated twin of a valid one). Returns false, never throws, on any malformed input.
 * libsecp256k1 does the arithmetic.
 */
export function secp256k1VerifyMessage(
  signature: Uint8Array,
  message: Uint8Array,
  publicKey: Uint8Array,
): boolean {
  try {
    if (signature.length !== SECP256K1_SIGNATURE_LENGTH) return false;
    return libsecp256k1Verify(signature, message, publicKey, true);
  } catch {
    return false;
  }
}
