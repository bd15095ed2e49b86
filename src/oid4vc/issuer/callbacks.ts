import { X509Certificate, createHash, createPublicKey, randomBytes, verify as verifySignature } from 'node:crypto';
import type { CallbackContext, Jwk, JwtSigner } from '@openid4vc/oauth2';

/**
 * The crypto oid4vc-ts delegates to us (it does none itself): hashing, randomness and JWS
 * verification with node:crypto. Only the algorithms HAIP names for wallets (ES256) and EdDSA are
 * accepted; anything else verifies as false rather than throwing, so the library answers with its
 * own protocol error (invalid_proof, invalid_dpop_proof).
 */
const ALGS: Readonly<Record<string, { hash: string | null; p1363: boolean }>> = {
  ES256: { hash: 'sha256', p1363: true },
  ES384: { hash: 'sha384', p1363: true },
  EdDSA: { hash: null, p1363: false },
  Ed25519: { hash: null, p1363: false },
};

function publicJwkOf(signer: JwtSigner): Jwk | undefined {
  if (signer.method === 'jwk') return signer.publicJwk;
  if (signer.method === 'x5c') {
    const leaf = signer.x5c[0];
    if (!leaf) return undefined;
    try {
      return new X509Certificate(Buffer.from(leaf, 'base64')).publicKey.export({ format: 'jwk' }) as Jwk;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** Verifies a compact JWS against a public JWK; false on any malformed part. */
export function verifyCompactJws(compact: string, jwk: Jwk, alg: string): boolean {
  const spec = ALGS[alg];
  if (!spec) return false;
  const parts = compact.split('.');
  if (parts.length !== 3) return false;
  try {
    if ('d' in jwk && jwk.d !== undefined) return false;
    const key = createPublicKey({ key: jwk as unknown as import('node:crypto').JsonWebKey, format: 'jwk' });
    const data = Buffer.from(`${parts[0]}.${parts[1]}`, 'ascii');
    const sig = Buffer.from(parts[2]!, 'base64url');
    return verifySignature(spec.hash, data, spec.p1363 ? { key, dsaEncoding: 'ieee-p1363' } : key, sig);
  } catch {
    return false;
  }
}

export function hashCallback(data: Uint8Array, alg: string): Uint8Array {
  const name = alg === 'sha-256' ? 'sha256' : alg === 'sha-384' ? 'sha384' : alg === 'sha-512' ? 'sha512' : null;
  if (!name) throw new Error(`unsupported hash ${alg}`);
  return new Uint8Array(createHash(name).update(data).digest());
}

/**
 * Callbacks for the server classes. `signJwt` is never needed by the issuer endpoints (access
 * tokens are opaque and credentials are signed by the format modules), so it refuses.
 */
export function issuerCallbacks(): Omit<CallbackContext, 'decryptJwe' | 'encryptJwe'> {
  return {
    hash: hashCallback,
    generateRandom: (n: number) => new Uint8Array(randomBytes(n)),
    verifyJwt: (signer, jwt) => {
      const jwk = publicJwkOf(signer);
      if (!jwk) return { verified: false };
      return verifyCompactJws(jwt.compact, jwk, signer.alg) ? { verified: true, signerJwk: jwk } : { verified: false };
    },
    signJwt: () => {
      throw new Error('the OpenID4VCI endpoints sign nothing through oid4vc-ts');
    },
    // Public clients (wallets) authenticate by wallet attestation when the policy asks for it,
    // which the token endpoint checks itself; there is no client secret to check here.
    clientAuthentication: () => undefined,
  };
}
