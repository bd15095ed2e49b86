import type { JsonWebKey } from 'node:crypto';
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
  let verified: Awaited<ReturnType<IssuerRuntime['as']['verifyDpopJwt']>>;
  try {
    verified = await rt.as.verifyDpopJwt({
      dpopJwt: proofs,
      request: { method: request.method as 'POST', url: request.url, headers: request.headers },
      ...(options.accessToken ? { accessToken: options.accessToken } : {}),
      ...(options.expectedJkt ? { expectedJwkThumbprint: options.expectedJkt } : {}),
      allowedSigningAlgs: ['ES256'],
      now: rt.now(),
    });
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
  return { jkt: verified.jwkThumbprint, jwk: verified.header.jwk as JsonWebKey };
}

/** Whether the request carries a DPoP header at all (the token endpoint decides by policy). */
export const hasDpop = (request: WalletRequest): boolean => request.headers.get('dpop') !== null;

