import { createPrivateKey, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { p256, p384 } from '@noble/curves/nist.js';
import { AppError } from '../../errors';
import { didKeyFingerprint } from '../../domain/dids/did-key';
import { generateEd25519Keypair, nativeEd25519PublicKey, nativeEd25519Sign } from '../../domain/keys/ed25519';
import type { ProofSigner } from '../../domain/keys/signer.port';
import type { SigningKeyType } from '../ports';

/** Raw key material: Ed25519 32-byte seed; P-256/P-384 the big-endian scalar (32 / 48 bytes). */
export interface SigningKeyPair {
  readonly keyType: SigningKeyType;
  readonly privateKey: Uint8Array;
  /** Ed25519 32 bytes; EC keys compressed SEC1 (33 / 49 bytes), as did:key and Multikey carry them. */
  readonly publicKey: Uint8Array;
}

const CURVES = { 'P-256': p256, 'P-384': p384 } as const;
const SCALAR_LENGTH = { 'P-256': 32, 'P-384': 48 } as const;

/** A fresh key pair from the OS CSPRNG (node:crypto / OpenSSL). */
export function generateSigningKeyPair(keyType: SigningKeyType): SigningKeyPair {
  if (keyType === 'Ed25519') {
    const { privateKey, publicKey } = generateEd25519Keypair();
    return { keyType, privateKey, publicKey };
  }
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: keyType === 'P-256' ? 'prime256v1' : 'secp384r1' });
  const scalar = new Uint8Array(Buffer.from(privateKey.export({ format: 'jwk' }).d ?? '', 'base64url'));
  return { keyType, privateKey: scalar, publicKey: publicKeyOf(keyType, scalar) };
}

/** The public key (compressed for EC) of raw private key bytes. */
export function publicKeyOf(keyType: SigningKeyType, privateKey: Uint8Array): Uint8Array {
  if (keyType === 'Ed25519') return nativeEd25519PublicKey(privateKey);
  return CURVES[keyType].getPublicKey(privateKey, true);
}

/** DER prefixes of a PKCS#8 EC private key without its optional public point (RFC 5915 in RFC 5208). */
const EC_PKCS8_PREFIX = {
  'P-256': Buffer.from('3041020100301306072a8648ce3d020106082a8648ce3d030107042730250201010420', 'hex'),
  'P-384': Buffer.from('304e020100301006072a8648ce3d020106052b81040022043730350201010430', 'hex'),
} as const;

/**
 * The private key as OpenSSL's own object. The public point is left out of the DER so OpenSSL derives
 * it natively: recomputing it in JavaScript cost more than the signature itself.
 */
function ecPrivateKeyObject(keyType: 'P-256' | 'P-384', scalar: Uint8Array): KeyObject {
  if (scalar.length !== SCALAR_LENGTH[keyType]) throw new AppError('INVALID_PRIVATE_KEY', `a ${keyType} private key is ${SCALAR_LENGTH[keyType]} bytes`);
  return createPrivateKey({ key: Buffer.concat([EC_PKCS8_PREFIX[keyType], scalar]), format: 'der', type: 'pkcs8' });
}

/**
 * Raw signature of `data` by `privateKey`: Ed25519 (RFC 8032, 64 bytes), or ECDSA with SHA-256 (P-256) /
 * SHA-384 (P-384) over `data` in IEEE P1363 form `r || s`, as Data Integrity and JOSE carry it.
 */
export function signRaw(keyType: SigningKeyType, privateKey: Uint8Array, data: Uint8Array): Uint8Array {
  if (keyType === 'Ed25519') return nativeEd25519Sign(data, privateKey);
  const hash = keyType === 'P-256' ? 'sha256' : 'sha384';
  return new Uint8Array(sign(hash, data, { key: ecPrivateKeyObject(keyType, privateKey), dsaEncoding: 'ieee-p1363' }));
}

/** The did:key of a public key and its one verification method (`did:key:z…#z…`). */
export function didKeyIdentity(keyType: SigningKeyType, publicKey: Uint8Array): { did: string; verificationMethod: string } {
  const fingerprint = didKeyFingerprint(keyType, publicKey);
  return { did: `did:key:${fingerprint}`, verificationMethod: `did:key:${fingerprint}#${fingerprint}` };
}

/**
 * A signer over raw key bytes. The bytes are copied so the caller may wipe its buffer; callers that
 * hold keys sealed (KeyCustody) should build a signer per use rather than keep one around.
 */
export function createKeySigner(pair: Pick<SigningKeyPair, 'keyType' | 'privateKey'>, verificationMethod: string): ProofSigner {
  const key = Uint8Array.from(pair.privateKey);
  return {
    keyType: pair.keyType,
    verificationMethod,
    sign: async (data) => signRaw(pair.keyType, key, data),
  };
}
