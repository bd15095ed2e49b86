import { ed25519, x25519 } from '@noble/curves/ed25519.js';
import { AppError } from '../../errors';
import { parseEd25519PublicKey } from './ed25519';

export const X25519_KEY_LENGTH = 32;

function badPublic(field: string, message: string): AppError {
  return new AppError('INVALID_PUBLIC_KEY', message, [{ field, message }]);
}

/**
 * Maps an Ed25519 public key to its X25519 (Montgomery u) public key via the birational map
 * u = (1 + y) / (1 - y) (RFC 7748 §4.1). did:key derives the Ed25519 DID's keyAgreement key this way.
 */
export function x25519PublicKeyFromEd25519(edPublicKey: Uint8Array): Uint8Array {
  const valid = parseEd25519PublicKey(edPublicKey, 'publicKey');
  return ed25519.utils.toMontgomery(valid);
}

/**
 * Derives the X25519 secret key of an Ed25519 seed: the clamped first half of SHA-512(seed),
 * i.e. the same scalar Ed25519 signs with, so both public keys describe one secret.
 */
export function x25519SecretKeyFromEd25519Seed(seed: Uint8Array): Uint8Array {
  if (!(seed instanceof Uint8Array) || seed.length !== 32) {
    const message = 'privateKey must be a 32-byte Ed25519 seed';
    throw new AppError('INVALID_PRIVATE_KEY', message, [{ field: 'privateKey', message }]);
  }
  return ed25519.utils.toMontgomerySecret(seed);
}

/** Derives the X25519 public key of a 32-byte X25519 secret key. */
export function x25519PublicKeyFromSecret(secretKey: Uint8Array): Uint8Array {
  if (!(secretKey instanceof Uint8Array) || secretKey.length !== X25519_KEY_LENGTH) {
    const message = 'privateKey must be a 32-byte X25519 secret key';
    throw new AppError('INVALID_PRIVATE_KEY', message, [{ field: 'privateKey', message }]);
  }
  return x25519.getPublicKey(secretKey);
}

/**
 * Validates an X25519 public key. RFC 7748 makes every 32-byte string a usable u-coordinate, so
 * only the length is checked here; low-order inputs are caught by {@link x25519SharedSecret}.
 */
export function parseX25519PublicKey(publicKey: Uint8Array, field = 'publicKey'): Uint8Array {
  if (!(publicKey instanceof Uint8Array) || publicKey.length !== X25519_KEY_LENGTH) {
    throw badPublic(field, `${field} must be a 32-byte X25519 public key`);
  }
  return Uint8Array.from(publicKey);
}

/**
 * X25519 Diffie-Hellman. Throws INVALID_PUBLIC_KEY when the peer key is of low order (the shared
 * secret would be all zeros, RFC 7748 §6.1), so a peer cannot force a known secret.
 */
export function x25519SharedSecret(secretKey: Uint8Array, peerPublicKey: Uint8Array): Uint8Array {
  if (!(secretKey instanceof Uint8Array) || secretKey.length !== X25519_KEY_LENGTH) {
    const message = 'privateKey must be a 32-byte X25519 secret key';
    throw new AppError('INVALID_PRIVATE_KEY', message, [{ field: 'privateKey', message }]);
  }
  const peer = parseX25519PublicKey(peerPublicKey, 'peerPublicKey');
  try {
    return x25519.getSharedSecret(secretKey, peer);
  } catch {
    throw badPublic('peerPublicKey', 'peerPublicKey is a low-order X25519 point');
  }
}
