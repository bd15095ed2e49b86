import type { JsonWebKey } from 'node:crypto';
import type { Jwk } from '@openid4vc/oauth2';
import { verifyCompactJws } from './callbacks';
import { Oid4vciError } from './errors';

/** A verified `openid4vci-proof+jwt` (OID4VCI 1.0 Appendix F.1). */
export interface VerifiedKeyProof {
  readonly holderJwk: JsonWebKey;
  readonly nonce: string | undefined;
  readonly keyAttestation: string | undefined;
}

const decodePart = (part: string | undefined): Record<string, unknown> => {
  try {
    const v: unknown = JSON.parse(Buffer.from(part ?? '', 'base64url').toString('utf8'));
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw new Oid4vciError('invalid_proof', 'the proof is not a JWT');
};

/**
 * Checks a key proof: typ openid4vci-proof+jwt, ES256, the holder's public P-256 key in the `jwk`
 * header and its signature, `aud` = this credential issuer, `iat` within the window, and the
 * wallet's client id as `iss` when it authenticated with one. The nonce is returned for the
 * caller to spend. Done here rather than by oid4vc-ts, whose schemas accept only https
 * audiences process-wide (the service also runs on http://localhost).
 */
export function verifyKeyProof(jwt: string, expected: { readonly issuer: string; readonly nowSeconds: number; readonly windowSeconds: number; readonly clientId: string | null }): VerifiedKeyProof {
  if (typeof jwt !== 'string') throw new Oid4vciError('invalid_proof', 'proofs.jwt must hold JWTs');
  const parts = jwt.split('.');
  if (parts.length !== 3) throw new Oid4vciError('invalid_proof', 'the proof is not a compact JWS');
  const header = decodePart(parts[0]);
  const payload = decodePart(parts[1]);
  if (header['typ'] !== 'openid4vci-proof+jwt') throw new Oid4vciError('invalid_proof', 'proof typ must be openid4vci-proof+jwt');
  if (header['alg'] !== 'ES256') throw new Oid4vciError('invalid_proof', 'proofs must be signed with ES256');
  const jwk = header['jwk'];
  if (typeof jwk !== 'object' || jwk === null || Array.isArray(jwk)) throw new Oid4vciError('invalid_proof', 'the proof must carry the holder key in its jwk header');
  const k = jwk as Record<string, unknown>;
  if (k['kty'] !== 'EC' || k['crv'] !== 'P-256' || typeof k['x'] !== 'string' || typeof k['y'] !== 'string' || 'd' in k) throw new Oid4vciError('invalid_proof', 'the proof jwk must be a public P-256 key');
  const holderJwk = { kty: 'EC', crv: 'P-256', x: k['x'], y: k['y'] };
  if (!verifyCompactJws(jwt, holderJwk as Jwk, 'ES256')) throw new Oid4vciError('invalid_proof', 'the proof signature does not verify with its jwk');
  const aud = payload['aud'];
  const audiences = Array.isArray(aud) ? aud : [aud];
  if (!audiences.includes(expected.issuer)) throw new Oid4vciError('invalid_proof', 'the proof aud must be this credential issuer');
  const iat = payload['iat'];
  if (typeof iat !== 'number' || Math.abs(expected.nowSeconds - iat) > expected.windowSeconds) throw new Oid4vciError('invalid_proof', `the proof's iat must be within ${expected.windowSeconds} s of now`);
  const exp = payload['exp'];
  if (exp !== undefined && (typeof exp !== 'number' || exp <= expected.nowSeconds)) throw new Oid4vciError('invalid_proof', 'the proof has expired');
  if (expected.clientId !== null && payload['iss'] !== undefined && payload['iss'] !== expected.clientId) throw new Oid4vciError('invalid_proof', 'the proof iss must be the client id the token was issued to');
  const nonce = payload['nonce'];
  if (nonce !== undefined && typeof nonce !== 'string') throw new Oid4vciError('invalid_proof', 'the proof nonce must be a string');
  const attestation = header['key_attestation'];
  return { holderJwk: holderJwk as JsonWebKey, nonce, keyAttestation: typeof attestation === 'string' ? attestation : undefined };
}

/** The x5c header of a compact JWS, when it has a well-formed one (attestations name their signer so). */
export function x5cOfJwt(jwt: string): string[] | undefined {
  try {
    const header: unknown = JSON.parse(Buffer.from(jwt.split('.')[0] ?? '', 'base64url').toString('utf8'));
    const x5c = typeof header === 'object' && header !== null ? (header as Record<string, unknown>)['x5c'] : undefined;
    return Array.isArray(x5c) && x5c.length > 0 && x5c.every((c) => typeof c === 'string') ? (x5c as string[]) : undefined;
  } catch {
    return undefined;
  }
}
