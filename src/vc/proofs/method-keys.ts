import { createPublicKey, verify } from 'node:crypto';
import type { VerificationMethod } from '../../domain/dids/did-document.types';
import { base58btcDecode, multibaseDecode, MULTICODEC, splitMulticodecPrefix } from '../../domain/encoding/multibase';
import { parseEd25519PublicKey } from '../../domain/keys/ed25519';
import { jwkToSecp256k1PublicKey } from '../../domain/keys/es256k';
import { nativeEd25519Verify } from '../../domain/keys/ed25519';
import { nistJwkToPublicKey, nistPublicKeyToJwk, parseNistPublicKey } from '../../domain/keys/nist';
import { parseSecp256k1PublicKey } from '../../domain/keys/secp256k1';

/** Key families a proof suite may be bound to. */
export type KeyFamily = 'Ed25519' | 'P-256' | 'P-384' | 'secp256k1';

export interface MethodKey {
  readonly family: KeyFamily;
  /** Ed25519 32 bytes; EC keys compressed SEC1. */
  readonly publicKey: Uint8Array;
}

/** The verification method types each suite accepts, per key family (see SUITES in suites.ts). */
export type MethodType = 'Multikey' | 'Ed25519VerificationKey2020' | 'Ed25519VerificationKey2018' | 'JsonWebKey2020' | 'JsonWebKey' | 'EcdsaSecp256k1VerificationKey2019';

const MULTIKEY_CODECS: Record<number, KeyFamily> = {
  [MULTICODEC['ed25519-pub']]: 'Ed25519',
  [MULTICODEC['p256-pub']]: 'P-256',
  [MULTICODEC['p384-pub']]: 'P-384',
  [MULTICODEC['secp256k1-pub']]: 'secp256k1',
};

function validated(family: KeyFamily, bytes: Uint8Array): Uint8Array {
  switch (family) {
    case 'Ed25519':
      return parseEd25519PublicKey(bytes);
    case 'P-256':
    case 'P-384':
      // Multikey carries EC keys compressed (vc-data-integrity §2.2.2).
      return parseNistPublicKey(family, bytes, 'publicKeyMultibase', true);
    case 'secp256k1':
      return parseSecp256k1PublicKey(bytes);
  }
}

/** publicKeyMultibase: base58btc `z`, multicodec header (ed25519-pub 0xed01, p256-pub 0x1200, p384-pub 0x1201, ...). */
function fromMultikey(value: unknown): MethodKey | undefined {
  if (typeof value !== 'string' || !value.startsWith('z')) return undefined;
  const { code, data } = splitMulticodecPrefix(multibaseDecode(value, 'publicKeyMultibase'), 'publicKeyMultibase');
  const family = MULTIKEY_CODECS[code];
  return family === undefined ? undefined : { family, publicKey: validated(family, data) };
}

function fromJwk(jwk: unknown): MethodKey | undefined {
  if (jwk === null || typeof jwk !== 'object') return undefined;
  const j = jwk as Record<string, unknown>;
  if ('d' in j) return undefined;
  if (j.kty === 'EC' && (j.crv === 'P-256' || j.crv === 'P-384')) return { family: j.crv, publicKey: nistJwkToPublicKey(j.crv, j) };
  if (j.kty === 'EC' && j.crv === 'secp256k1') return { family: 'secp256k1', publicKey: jwkToSecp256k1PublicKey(j) };
  if (j.kty === 'OKP' && j.crv === 'Ed25519' && typeof j.x === 'string') {
    return { family: 'Ed25519', publicKey: parseEd25519PublicKey(new Uint8Array(Buffer.from(j.x, 'base64url'))) };
  }
  return undefined;
}

/**
 * The public key a verification method expresses, read the way its `type` says, or undefined when
 * the type is unknown, the members do not fit the type, or the key is invalid (off-curve, wrong
 * length, private). A method may not smuggle a second spelling: exactly the member its type uses
 * is read.
 */
export function methodKey(method: VerificationMethod): MethodKey | undefined {
  try {
    switch (method.type) {
      case 'Multikey':
        return fromMultikey(method.publicKeyMultibase);
      case 'Ed25519VerificationKey2020': {
        const key = fromMultikey(method.publicKeyMultibase);
        return key?.family === 'Ed25519' ? key : undefined;
      }
      case 'Ed25519VerificationKey2018':
        return typeof method.publicKeyBase58 === 'string'
          ? { family: 'Ed25519', publicKey: parseEd25519PublicKey(base58btcDecode(method.publicKeyBase58, 'publicKeyBase58')) }
          : undefined;
      case 'JsonWebKey2020':
      case 'JsonWebKey':
        return fromJwk(method.publicKeyJwk);
      case 'EcdsaSecp256k1VerificationKey2019':
        if (method.publicKeyJwk !== undefined) {
          const key = fromJwk(method.publicKeyJwk);
          return key?.family === 'secp256k1' ? key : undefined;
        }
        return typeof method.publicKeyBase58 === 'string'
          ? { family: 'secp256k1', publicKey: parseSecp256k1PublicKey(base58btcDecode(method.publicKeyBase58, 'publicKeyBase58')) }
          : undefined;
      default:
        return undefined;
    }
  } catch {
    return undefined;
  }
}

/**
 * Verifies a raw signature; never throws. Ed25519: strict RFC 8032 (src/domain/keys/ed25519.ts).
 * ECDSA: P-256 with SHA-256, P-384 with SHA-384, IEEE P1363 `r || s` of exactly the curve's size.
 */
export function verifyRawSignature(key: MethodKey, data: Uint8Array, signature: Uint8Array): boolean {
  try {
    if (key.family === 'Ed25519') return signature.length === 64 && nativeEd25519Verify(signature, data, key.publicKey);
    if (key.family === 'P-256' || key.family === 'P-384') {
      const size = key.family === 'P-256' ? 64 : 96;
      if (signature.length !== size) return false;
      const publicKey = createPublicKey({ key: { ...nistPublicKeyToJwk(key.family, key.publicKey) }, format: 'jwk' });
      const hash = key.family === 'P-256' ? 'sha256' : 'sha384';
      return verify(hash, data, { key: publicKey, dsaEncoding: 'ieee-p1363' }, signature);
    }
    return false;
  } catch {
    return false;
  }
}
