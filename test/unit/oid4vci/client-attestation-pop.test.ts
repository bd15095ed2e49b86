import { generateKeyPairSync, sign } from 'node:crypto';
import type { Jwk } from '@openid4vc/oauth2';
import { verifyClientAttestationPop } from '../../../src/oid4vc/issuer/client-attestation-pop';

/**
 * The wallet attestation PoP is checked by our code (oid4vc-ts refuses http audiences): each
 * forgery a wallet-less attacker could try with a stolen attestation is refused as invalid_client.
 */
const b64 = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString('base64url');
const NOW = 1_800_000_000;
const AUD = 'http://127.0.0.1:4000/oid4vc/acme';

function keyPair() {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { privateKey, jwk: publicKey.export({ format: 'jwk' }) as Jwk };
}
const wallet = keyPair();

function pop(payload: Record<string, unknown>, header: Record<string, unknown> = {}, key = wallet.privateKey): string {
  const data = `${b64({ typ: 'oauth-client-attestation-pop+jwt', alg: 'ES256', ...header })}.${b64(payload)}`;
  return `${data}.${sign('sha256', Buffer.from(data), { key, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
}
const honest = { iss: 'wallet-1', aud: AUD, jti: 'j-1', iat: NOW - 5, exp: NOW + 300 };
const check = (jwt: string) => () => verifyClientAttestationPop(jwt, { cnfJwk: wallet.jwk, clientId: 'wallet-1', audience: AUD, nowSeconds: NOW, windowSeconds: 300 });

describe('wallet attestation PoP', () => {
  it('accepts the PoP of the attested key, for this issuer, fresh', () => {
    expect(check(pop(honest))).not.toThrow();
    expect(check(pop({ ...honest, aud: [AUD, 'https://other.example'] }))).not.toThrow();
  });

  it.each([
    ['signed by another key than cnf (a stolen attestation)', pop(honest, {}, keyPair().privateKey)],
    ['for another issuer', pop({ ...honest, aud: 'https://other.example' })],
    ['naming another client', pop({ ...honest, iss: 'wallet-2' })],
    ['without a jti', pop({ ...honest, jti: undefined })],
    ['stale', pop({ ...honest, iat: NOW - 301 })],
    ['from the future', pop({ ...honest, iat: NOW + 120 })],
    ['expired', pop({ ...honest, exp: NOW - 120 })],
    ['of another type', pop(honest, { typ: 'dpop+jwt' })],
    ['not a JWT', 'garbage'],
  ])('refuses a PoP %s with invalid_client (401)', (_what, jwt) => {
    expect(check(jwt)).toThrow(expect.objectContaining({ error: 'invalid_client', status: 401 }));
  });
});
