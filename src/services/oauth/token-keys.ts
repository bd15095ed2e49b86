import { type KeyObject, createHash, createPrivateKey, createPublicKey } from 'node:crypto';
import { deriveOAuthTokenSeed } from '../../kms/key-derivation';

/** An Ed25519 public key as a JWK (RFC 8037), with the fields a JWKS consumer needs. */
export interface PublicJwk {
  readonly kty: 'OKP';
  readonly crv: 'Ed25519';
  readonly x: string;
  readonly kid: string;
  readonly alg: 'EdDSA';
  readonly use: 'sig';
}

export interface TokenKey {
  readonly kid: string;
  readonly privateKey: KeyObject;
  readonly publicJwk: PublicJwk;
}

/** The keys access tokens are signed with (`signing`) and accepted under (`verifying`, signing first). */
export interface TokenKeys {
  readonly signing: TokenKey;
  readonly verifying: readonly TokenKey[];
}

/** PKCS#8 DER of an Ed25519 private key is this fixed prefix followed by the 32-byte seed (RFC 8410). */
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** The key whose Ed25519 seed is `seed`; its kid is the RFC 7638 JWK thumbprint, so it names the key and nothing else. */
export function tokenKeyFromSeed(seed: Uint8Array): TokenKey {
  if (seed.length !== 32) throw new Error('an Ed25519 seed is 32 bytes');
  const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]), format: 'der', type: 'pkcs8' });
  const { x } = createPublicKey(privateKey).export({ format: 'jwk' }) as { x: string };
  // RFC 7638: the required members in lexicographic order, no whitespace.
  const kid = createHash('sha256').update(JSON.stringify({ crv: 'Ed25519', kty: 'OKP', x })).digest('base64url');
  return { kid, privateKey, publicJwk: Object.freeze({ kty: 'OKP', crv: 'Ed25519', x, kid, alg: 'EdDSA', use: 'sig' }) };
}

/**
 * Derived from the master key, and during a master-key rotation also from the previous key: a
 * token signed by an instance still on the old key stays valid on the new ones (and the JWKS
 * publishes both) until it expires.
 */
export function tokenKeysFor(masterKey: Uint8Array, previous?: Uint8Array): TokenKeys {
  const signing = tokenKeyFromSeed(deriveOAuthTokenSeed(masterKey));
  const old = previous ? tokenKeyFromSeed(deriveOAuthTokenSeed(previous)) : undefined;
  return { signing, verifying: old && old.kid !== signing.kid ? [signing, old] : [signing] };
}
