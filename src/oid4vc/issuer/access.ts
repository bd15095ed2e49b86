import type { IssuerRuntime, TenantIssuer } from './context';
import { checkDpop } from './dpop';
import { Oid4vciError } from './errors';
import type { WalletRequest } from './http-request';
import type { TokenRecord } from './ports';
import { secretHash } from './secrets';

/**
 * The resource side (credential, deferred, notification endpoints): the access token must be
 * ours, for this tenant, unexpired and — when DPoP-bound — sent as `DPoP` with a proof by the
 * bound key carrying `ath` (RFC 9449 §7). Refusals are 401 with WWW-Authenticate (RFC 6750 §3).
 */
export async function authorizeWallet(rt: IssuerRuntime, t: TenantIssuer, request: WalletRequest): Promise<TokenRecord> {
  const header = request.headers.get('authorization') ?? '';
  const m = /^(DPoP|Bearer) ([A-Za-z0-9._~+/-]+=*)$/.exec(header.trim());
  const unauthorized = (error: string, description: string) => new Oid4vciError(error === 'invalid_dpop_proof' ? 'invalid_dpop_proof' : 'invalid_token', description, { 'WWW-Authenticate': `DPoP algs="ES256", error="${error}"` }, 401);
  if (!m) throw unauthorized('invalid_token', 'an access token is required (Authorization: DPoP <token>)');
  const [, scheme, accessToken] = m as unknown as [string, string, string];
  const token = await rt.deps.store.findToken(secretHash(accessToken));
  if (!token || token.tenantId !== t.tenantId || token.expiresAt <= rt.now()) throw unauthorized('invalid_token', 'the access token is invalid or expired');
  if (token.dpopJkt) {
    if (scheme !== 'DPoP') throw unauthorized('invalid_token', 'this access token is DPoP-bound: use Authorization: DPoP');
    await checkDpop(rt, request, { at: 'resource', accessToken, expectedJkt: token.dpopJkt });
  } else if (scheme !== 'Bearer') {
    throw unauthorized('invalid_token', 'this access token is not DPoP-bound: use Authorization: Bearer');
  }
  return token;
}
