import type { SigningKeyType } from '../ports';

/** JOSE algorithm of each signing key type (RFC 8037 EdDSA, RFC 7518 ES256/ES384); nothing else is accepted. */
export const JWS_ALGORITHM: Readonly<Record<SigningKeyType, JwsAlgorithm>> = { Ed25519: 'EdDSA', 'P-256': 'ES256', 'P-384': 'ES384' };

export type JwsAlgorithm = 'EdDSA' | 'ES256' | 'ES384';

export const JWS_ALGORITHMS: readonly JwsAlgorithm[] = ['EdDSA', 'ES256', 'ES384'];

export function isJwsAlgorithm(alg: unknown): alg is JwsAlgorithm {
  return typeof alg === 'string' && (JWS_ALGORITHMS as readonly string[]).includes(alg);
}

/**
 * Allowed difference between our clock and the issuer's when reading nbf / iat / exp, in seconds.
 * One minute absorbs ordinary NTP drift without letting an expired token live noticeably longer.
 */
export const CLOCK_SKEW_SECONDS = 60;
