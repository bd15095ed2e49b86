import type { JsonWebKey } from 'node:crypto';
import { createHash, createPublicKey, generateKeyPairSync, randomBytes, verify as nodeVerify } from 'node:crypto';
import { compactDecrypt, importJWK } from 'jose';
import type { CallbackContext, Jwk, JwtSigner } from '@openid4vc/oauth2';
import type { Signer } from './ports';

/** JOSE for the verifier, as oid4vc-ts callbacks: node:crypto and jose, no key material outside its owner. */

export const b64url = (b: Uint8Array | string): string => Buffer.from(b).toString('base64url');
export const randomToken = (bytes = 32): string => b64url(randomBytes(bytes));
export const sha256 = (data: Uint8Array | string): Buffer => createHash('sha256').update(data).digest();

/** The response-encryption content encryptions we accept (HAIP: A128GCM and A256GCM). */
export const RESPONSE_ENC_VALUES = ['A128GCM', 'A256GCM'] as const;

/** An ephemeral ECDH-ES P-256 key for one request's encrypted response. */
export function ephemeralEncryptionKey(kid: string): { publicJwk: JsonWebKey; privateJwk: JsonWebKey } {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const pub = publicKey.export({ format: 'jwk' });
  const priv = privateKey.export({ format: 'jwk' });
  return { publicJwk: { ...pub, kid, use: 'enc', alg: 'ECDH-ES' } as JsonWebKey, privateJwk: { ...priv, kid } as JsonWebKey };
}

/** A signJwt callback over one Signer (ES256; the library builds the header from the JwtSigner). */
export function signJwtWith(signer: Signer): CallbackContext['signJwt'] {
  return async (_jwtSigner: JwtSigner, jwt) => {
    const input = `${b64url(JSON.stringify(jwt.header))}.${b64url(JSON.stringify(jwt.payload))}`;
    const signature = await signer.sign(new TextEncoder().encode(input));
    return { jwt: `${input}.${b64url(signature)}`, signerJwk: signer.publicJwk as Jwk };
  };
}

/** The verifier never asks for signed responses or verifies other JWTs through the library. */
export const refuseVerifyJwt: CallbackContext['verifyJwt'] = () => ({ verified: false });

/** ES256 check of a compact JWS with a public JWK (used for nothing but P-256). */
export function verifyEs256(compact: string, jwk: JsonWebKey): boolean {
  const parts = compact.split('.');
  if (parts.length !== 3) return false;
  try {
    const key = createPublicKey({ key: jwk, format: 'jwk' });
    return nodeVerify('sha256', Buffer.from(`${parts[0]}.${parts[1]}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(parts[2]!, 'base64url'));
  } catch {
    return false;
  }
}

/**
 * A decryptJwe callback for one request's key: ECDH-ES (direct key agreement) with A128GCM or
 * A256GCM only, so a wallet cannot pick a weaker or key-wrapping algorithm.
 */
export function decryptWith(privateJwk: JsonWebKey, publicJwk: JsonWebKey): CallbackContext['decryptJwe'] {
  return async (jwe: string) => {
    try {
      const key = await importJWK({ ...privateJwk, alg: 'ECDH-ES' } as import('jose').JWK, 'ECDH-ES');
      const { plaintext } = await compactDecrypt(jwe, key, { keyManagementAlgorithms: ['ECDH-ES'], contentEncryptionAlgorithms: [...RESPONSE_ENC_VALUES] });
      return { decrypted: true, decryptionJwk: publicJwk as Jwk, payload: new TextDecoder().decode(plaintext) };
    } catch {
      return { decrypted: false };
    }
  };
}

export const hashCallback: CallbackContext['hash'] = (data, alg) => createHash(String(alg).replace('-', '')).update(data).digest();
