import type { Jwk } from '@openid4vc/oauth2';
import { verifyCompactJws } from './callbacks';
import { Oid4vciError } from './errors';

/** How far a PoP's iat may lie in the future (clock skew) and in the past (its freshness), in seconds. */
const SKEW_SECONDS = 60;

const refuse = (why: string): Oid4vciError => new Oid4vciError('invalid_client', `the wallet attestation PoP is invalid: ${why}`, {}, 401);

function part(jwt: string, i: number): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(Buffer.from(jwt.split('.')[i] ?? '', 'base64url').toString('utf8'));
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw refuse('not a JWT');
}

/**
 * The OAuth-Client-Attestation-PoP (draft-ietf-oauth-attestation-based-client-auth §5.2), checked
 * by our code: oid4vc-ts's schema accepts an `aud` only when it is an https URL unless its
 * process-wide allowInsecureUrls is on, which would refuse every wallet of a deployment whose
 * issuer URL is http (loopback, tests) and must not be switched on in the service. Signed by the
 * attestation's `cnf.jwk`, `iss` = the attestation's `sub` (the client_id), `aud` = this
 * issuer, a `jti`, issued within the proof window and not expired.
 */
export function verifyClientAttestationPop(pop: string, expected: { cnfJwk: Jwk; clientId: string; audience: string; nowSeconds: number; windowSeconds: number }): void {
  const header = part(pop, 0);
  const payload = part(pop, 1);
  if (header['typ'] !== 'oauth-client-attestation-pop+jwt') throw refuse('typ must be oauth-client-attestation-pop+jwt');
  if (typeof header['alg'] !== 'string' || !verifyCompactJws(pop, expected.cnfJwk, header['alg'])) throw refuse('not signed by the key the attestation confirms (cnf)');
  if (payload['iss'] !== expected.clientId) throw refuse('iss is not the attested client');
  const aud = payload['aud'];
  if (!(aud === expected.audience || (Array.isArray(aud) && aud.includes(expected.audience)))) throw refuse('aud is not this issuer');
  if (typeof payload['jti'] !== 'string' || payload['jti'].length === 0) throw refuse('jti is missing');
  const iat = payload['iat'];
  if (typeof iat !== 'number' || iat > expected.nowSeconds + SKEW_SECONDS || iat < expected.nowSeconds - expected.windowSeconds) throw refuse('iat is missing or outside the accepted window');
  const exp = payload['exp'];
  if (exp !== undefined && (typeof exp !== 'number' || exp <= expected.nowSeconds - SKEW_SECONDS)) throw refuse('expired');
}
