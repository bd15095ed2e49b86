import type { JsonWebKey } from 'node:crypto';
import { createHash } from 'node:crypto';
import { HashAlgorithm, type Jwk, calculateJwkThumbprint } from '@openid4vc/oauth2';
import { hashCallback, verifyCompactJws } from './callbacks';
import type { IssuerRuntime } from './context';
import { Oid4vciError } from './errors';
import type { WalletRequest } from './http-request';
import { newSecret, secretHash } from './secrets';

export interface CheckedDpop {
  /** RFC 7638 thumbprint of the proof's key: what the access token is bound to. */
  readonly jkt: string;
  readonly jwk: JsonWebKey;
}

/** A fresh server nonce for DPoP (RFC 9449 §8), reusable within its lifetime. */
export async function newDpopNonce(rt: IssuerRuntime): Promise<string> {
  const nonce = newSecret();
  await rt.deps.store.createNonce(secretHash(nonce), 'dpop', new Date(rt.now().getTime() + rt.deps.settings.nonceTtlSeconds * 1000));
  return nonce;
}

/**
 * Checks the request's DPoP proof (RFC 9449 §4.3): signature, htm, htu, ath (with an access
 * token), the key thumbprint a token is bound to, `iat` within the window, the server nonce when
 * the policy asks for one, and `jti` never seen before (remembered until the window closes).
 * `at` says which endpoint asks: the token endpoint answers 400, a resource 401 (§7.1).
 */
export async function checkDpop(
  rt: IssuerRuntime,
  request: WalletRequest,
  options: { readonly accessToken?: string; readonly expectedJkt?: string; readonly at: 'token' | 'resource' },
): Promise<CheckedDpop> {
  const status = options.at === 'token' ? 400 : 401;
  const challenge = (error: string): Record<string, string> => (options.at === 'resource' ? { 'WWW-Authenticate': `DPoP algs="ES256", error="${error}"` } : {});
  const proofs = request.headers.get('dpop');
  if (!proofs) throw new Oid4vciError('invalid_dpop_proof', 'a DPoP proof is required (DPoP header)', challenge('invalid_dpop_proof'), status);
  if (proofs.includes(',')) throw new Oid4vciError('invalid_dpop_proof', 'exactly one DPoP proof is allowed', challenge('invalid_dpop_proof'), status);
  let verified: { payload: DpopPayload; jwk: JsonWebKey; jwkThumbprint: string };
  try {
    verified = await verifyDpopProof(proofs, request, options);
  } catch (e) {
    throw new Oid4vciError('invalid_dpop_proof', e instanceof Error ? e.message : 'invalid DPoP proof', challenge('invalid_dpop_proof'), status);
  }
  const { payload } = verified;
  const now = Math.floor(rt.now().getTime() / 1000);
  const window = rt.deps.settings.proofWindowSeconds;
  if (typeof payload.iat !== 'number' || Math.abs(now - payload.iat) > window) {
    throw new Oid4vciError('invalid_dpop_proof', `DPoP proof iat must be within ${window} s of now`, challenge('invalid_dpop_proof'), status);
  }
  if (typeof payload.jti !== 'string' || payload.jti.length < 8 || payload.jti.length > 256) {
    throw new Oid4vciError('invalid_dpop_proof', 'DPoP proof needs a jti', challenge('invalid_dpop_proof'), status);
  }
  if (rt.deps.settings.dpopNonce) {
    const nonce = typeof payload.nonce === 'string' ? payload.nonce : undefined;
    if (!nonce || !(await rt.deps.store.nonceIsLive(secretHash(nonce), 'dpop', rt.now()))) {
      const fresh = await newDpopNonce(rt);
      throw new Oid4vciError('use_dpop_nonce', 'use the DPoP-Nonce this answer carries', { 'DPoP-Nonce': fresh, ...challenge('use_dpop_nonce') }, status);
    }
  }
  // Single use: the same key and jti twice is a replay, whatever else changed.
  const fresh = await rt.deps.store.rememberDpopProof(secretHash(`${verified.jwkThumbprint}|${payload.jti}`), new Date((now + window * 2) * 1000));
  if (!fresh) throw new Oid4vciError('invalid_dpop_proof', 'DPoP proof replayed (jti already used)', challenge('invalid_dpop_proof'), status);
  return { jkt: verified.jwkThumbprint, jwk: verified.jwk };
}

/** Whether the request carries a DPoP header at all (the token endpoint decides by policy). */
export const hasDpop = (request: WalletRequest): boolean => request.headers.get('dpop') !== null;


interface DpopPayload {
  readonly htm?: unknown;
  readonly htu?: unknown;
  readonly iat?: unknown;
  readonly jti?: unknown;
  readonly ath?: unknown;
  readonly nonce?: unknown;
}

const decodePart = (part: string | undefined): Record<string, unknown> => {
  const v: unknown = JSON.parse(Buffer.from(part ?? '', 'base64url').toString('utf8'));
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error('malformed DPoP proof');
  return v as Record<string, unknown>;
};

/** The request URL without query and fragment (RFC 9449 §4.3: htu compares without them). */
const htuOf = (url: string): string => {
  const u = new URL(url);
  u.search = '';
  u.hash = '';
  return u.toString();
};

/**
 * RFC 9449 §4.3 checks 1-9 but the replay and nonce ones (checkDpop does those): typ dpop+jwt,
 * ES256, a public jwk in the header that verifies the signature, htm, htu, ath of the access
 * token, and the thumbprint the token is bound to. Done here rather than by oid4vc-ts, whose
 * schema accepts only https htu values process-wide (the service also runs on http://localhost).
 */
async function verifyDpopProof(jwt: string, request: WalletRequest, options: { readonly accessToken?: string; readonly expectedJkt?: string }): Promise<{ payload: DpopPayload; jwk: JsonWebKey; jwkThumbprint: string }> {
  const parts = jwt.split('.');
  if (parts.length !== 3) throw new Error('the DPoP proof is not a compact JWS');
  const header = decodePart(parts[0]);
  const payload = decodePart(parts[1]) as DpopPayload;
  if (header['typ'] !== 'dpop+jwt') throw new Error('DPoP proof typ must be dpop+jwt');
  if (header['alg'] !== 'ES256') throw new Error('DPoP proofs must be signed with ES256');
  const jwk = header['jwk'];
  if (typeof jwk !== 'object' || jwk === null || Array.isArray(jwk)) throw new Error('DPoP proof header needs its public jwk');
  const key = jwk as Record<string, unknown>;
  if (key['kty'] !== 'EC' || key['crv'] !== 'P-256' || typeof key['x'] !== 'string' || typeof key['y'] !== 'string' || 'd' in key) throw new Error('DPoP proof jwk must be a public P-256 key');
  const publicJwk = { kty: 'EC', crv: 'P-256', x: key['x'], y: key['y'] } as Jwk;
  if (!verifyCompactJws(jwt, publicJwk, 'ES256')) throw new Error('DPoP proof signature does not verify');
  if (payload.htm !== request.method) throw new Error(`DPoP proof htm must be ${request.method}`);
  if (typeof payload.htu !== 'string') throw new Error('DPoP proof needs htu');
  let htu: string;
  try {
    htu = htuOf(payload.htu);
  } catch {
    throw new Error('DPoP proof htu is not a URL');
  }
  if (htu !== htuOf(request.url)) throw new Error('DPoP proof htu is not this endpoint');
  if (options.accessToken !== undefined) {
    const ath = createHash('sha256').update(options.accessToken, 'utf8').digest('base64url');
    if (payload.ath !== ath) throw new Error('DPoP proof ath does not match the access token');
  }
  const jwkThumbprint = await calculateJwkThumbprint({ jwk: publicJwk, hashAlgorithm: HashAlgorithm.Sha256, hashCallback });
  if (options.expectedJkt !== undefined && jwkThumbprint !== options.expectedJkt) throw new Error('DPoP proof is signed by another key than the token is bound to');
  return { payload, jwk: publicJwk as unknown as JsonWebKey, jwkThumbprint };
}
