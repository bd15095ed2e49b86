import { createPublicKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import { base58btcDecode, MULTICODEC, multibaseDecode, splitMulticodecPrefix } from '../../domain/encoding/multibase';
import { bytesToBase64Url } from '../../domain/encoding/base64';
import { nistPublicKeyToJwk } from '../../domain/keys/nist';
import type { VerificationMethod } from '../../domain/dids/did-document.types';
import type { SigningKeyType } from '../ports';

/** Thrown when a verification method carries no key a JWT can be checked with; the message is for the client. */
export class UnusableMethodError extends Error {}

export interface MethodKey {
  readonly keyType: SigningKeyType;
  readonly key: KeyObject;
}

const CODEC_TYPES: Readonly<Record<number, SigningKeyType>> = {
  [MULTICODEC['ed25519-pub']]: 'Ed25519',
  [MULTICODEC['p256-pub']]: 'P-256',
  [MULTICODEC['p384-pub']]: 'P-384',
};

const LENGTHS: Readonly<Record<SigningKeyType, readonly number[]>> = { Ed25519: [32], 'P-256': [33, 65], 'P-384': [49, 97] };

function fromBytes(keyType: SigningKeyType, bytes: Uint8Array): KeyObject {
  if (!LENGTHS[keyType].includes(bytes.length)) throw new UnusableMethodError(`the ${keyType} key of the verification method has the wrong length`);
  const jwk: JsonWebKey = keyType === 'Ed25519' ? { kty: 'OKP', crv: 'Ed25519', x: bytesToBase64Url(bytes) } : { ...nistPublicKeyToJwk(keyType, bytes) };
  return createPublicKey({ key: jwk, format: 'jwk' });
}

function fromJwk(jwk: Record<string, unknown>): MethodKey {
  // A private member in a DID document is a publisher's mistake; refusing it keeps us from treating it as public.
  if ('d' in jwk) throw new UnusableMethodError('the verification method publishes a private key');
  let keyType: SigningKeyType;
  if (jwk.kty === 'OKP' && jwk.crv === 'Ed25519') keyType = 'Ed25519';
  else if (jwk.kty === 'EC' && (jwk.crv === 'P-256' || jwk.crv === 'P-384')) keyType = jwk.crv;
  else throw new UnusableMethodError('the verification method key is not Ed25519, P-256 or P-384');
  try {
    const key = createPublicKey({ key: { kty: jwk.kty, crv: jwk.crv, x: jwk.x, ...(keyType === 'Ed25519' ? {} : { y: jwk.y }) } as JsonWebKey, format: 'jwk' });
    return { keyType, key };
  } catch {
    throw new UnusableMethodError('the verification method publicKeyJwk is not a valid key');
  }
}

/** publicKeyBase58 carries raw bytes; the method type says which curve (did:key's suite-specific types). */
function base58Type(type: string): SigningKeyType | undefined {
  if (type.startsWith('Ed25519')) return 'Ed25519';
  if (type === 'P256Key2021' || type === 'EcdsaSecp256r1VerificationKey2019') return 'P-256';
  if (type === 'P384Key2021') return 'P-384';
  return undefined;
}

/** The public key a verification method publishes (publicKeyJwk, publicKeyMultibase or publicKeyBase58). */
export function methodKey(method: VerificationMethod): MethodKey {
  try {
    if (method.publicKeyJwk !== undefined) return fromJwk(method.publicKeyJwk as unknown as Record<string, unknown>);
    if (typeof method.publicKeyMultibase === 'string') {
      const { code, data } = splitMulticodecPrefix(multibaseDecode(method.publicKeyMultibase, 'publicKeyMultibase'), 'publicKeyMultibase');
      const keyType = CODEC_TYPES[code];
      if (keyType === undefined) throw new UnusableMethodError('the verification method key is not Ed25519, P-256 or P-384');
      return { keyType, key: fromBytes(keyType, data) };
    }
    if (typeof method.publicKeyBase58 === 'string') {
      const keyType = base58Type(method.type);
      if (keyType === undefined) throw new UnusableMethodError(`verification method type ${method.type} is not supported for JWTs`);
      return { keyType, key: fromBytes(keyType, base58btcDecode(method.publicKeyBase58, 'publicKeyBase58')) };
    }
  } catch (e) {
    if (e instanceof UnusableMethodError) throw e;
    throw new UnusableMethodError('the verification method key cannot be read');
  }
  throw new UnusableMethodError('the verification method publishes no public key');
}
