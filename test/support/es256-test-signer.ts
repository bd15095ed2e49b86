import { generateKeyPairSync, sign } from 'node:crypto';
import { AppError } from '../../src/errors';
import type { IssuerTrust, JoseSigner, JsonWebKey } from '../../src/formats/sd-jwt-vc';

/**
 * A P-256 signer with a fresh key per call (node:crypto, raw r||s as JOSE wants it), for tests
 * that need an issuer or a holder without the key service.
 */
export function testSigner(options: { kid?: string; x5c?: string[] } = {}): JoseSigner {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' }) as JsonWebKey;
  return {
    alg: 'ES256',
    publicJwk: { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y },
    ...(options.kid ? { kid: options.kid } : {}),
    ...(options.x5c ? { x5c: options.x5c } : {}),
    sign: async (data) => new Uint8Array(sign('sha256', data, { key: privateKey, dsaEncoding: 'ieee-p1363' })),
  };
}

/** Trusts exactly the given signers, by kid: what a verifier configured with one issuer would do. */
export function trustSigners(...signers: JoseSigner[]): IssuerTrust {
  return async ({ kid }) => {
    const found = signers.find((s) => s.kid !== undefined && s.kid === kid);
    if (!found) throw new AppError('VERIFICATION_FAILED', 'issuer is not trusted');
    return { publicJwk: found.publicJwk, trustedBy: 'did' };
  };
}
