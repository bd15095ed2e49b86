import { randomUUID } from 'node:crypto';
import type { IssuerRuntime } from './context';
import { checkDpop } from './dpop';
import { Oid4vciError } from './errors';
import type { WalletRequest } from './http-request';
import { newSecret, secretHash } from './secrets';
import { withoutResource } from './token.service';

const REQUEST_URI_PREFIX = 'urn:ietf:params:oauth:request_uri:';
const PAR_TTL_SECONDS = 90;
const CODE_TTL_SECONDS = 60;

const str = (b: Record<string, unknown>, name: string): string | undefined => {
  const v = b[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw new Oid4vciError('invalid_request', `${name} must be given once, as a string`);
  return v;
};

/**
 * The authorization code flow for an issuer that authenticates the user itself: pushed
 * authorization requests only (RFC 9126, HAIP), PKCE S256 only, `issuer_state` from an offer,
 * and the pluggable UserAuthenticator deciding at the authorization endpoint.
 */
export class AuthorizationService {
  constructor(private readonly rt: IssuerRuntime) {}

  async pushedAuthorizationRequest(slug: string, request: WalletRequest, body: Record<string, unknown>): Promise<{ request_uri: string; expires_in: number }> {
    const t = await this.rt.tenant(slug);
    body = withoutResource(body, t.issuer);
    if (body['request_uri'] !== undefined) throw new Oid4vciError('invalid_request', 'request_uri is not allowed in a pushed authorization request');
    if (str(body, 'response_type') !== 'code') throw new Oid4vciError('invalid_request', 'response_type must be code');
    const clientId = str(body, 'client_id');
    const redirectUri = str(body, 'redirect_uri');
    const challenge = str(body, 'code_challenge');
    const method = str(body, 'code_challenge_method');
    const issuerState = str(body, 'issuer_state');
    if (!clientId || clientId.length > 512) throw new Oid4vciError('invalid_request', 'client_id is required');
    if (!redirectUri || !isRedirectUri(redirectUri)) throw new Oid4vciError('invalid_request', 'redirect_uri must be an absolute URI without a fragment');
    if (!challenge || !/^[A-Za-z0-9_-]{43}$/.test(challenge)) throw new Oid4vciError('invalid_request', 'code_challenge (PKCE, S256) is required');
    if (method !== 'S256') throw new Oid4vciError('invalid_request', 'code_challenge_method must be S256');
    if (!issuerState) throw new Oid4vciError('invalid_request', 'issuer_state from a credential offer is required');
    const offer = await this.rt.deps.store.findOfferByIssuerState(secretHash(issuerState));
    if (!offer || offer.tenantId !== t.tenantId || offer.revokedAt || offer.lockedAt || offer.expiresAt <= this.rt.now()) throw new Oid4vciError('invalid_grant', 'issuer_state is invalid, spent or expired');
    const state = str(body, 'state');
    const dpop = request.headers.get('dpop') !== null ? await checkDpop(this.rt, request, { at: 'token' }) : null;
    const requestUri = `${REQUEST_URI_PREFIX}${newSecret()}`;
    await this.rt.deps.store.createAuthorization({
      id: randomUUID(),
      tenantId: t.tenantId,
      offerId: offer.id,
      requestUriHash: secretHash(requestUri),
      clientId,
      redirectUri,
      codeChallenge: challenge,
      scope: str(body, 'scope') ?? null,
      state: state ?? null,
      dpopJkt: dpop?.jkt ?? null,
      expiresAt: new Date(this.rt.now().getTime() + PAR_TTL_SECONDS * 1000),
    });
    return { request_uri: requestUri, expires_in: PAR_TTL_SECONDS };
  }

  /**
   * The authorization endpoint: the pushed request by its request_uri (single use), the user
   * authenticated by the hook, then a redirect carrying the code (or access_denied).
   */
  async authorize(slug: string, query: Readonly<Record<string, string>>, headers: Readonly<Record<string, string | undefined>>): Promise<{ redirect: string }> {
    const t = await this.rt.tenant(slug);
    const requestUri = query['request_uri'];
    const clientId = query['client_id'];
    if (!requestUri || !clientId) throw new Oid4vciError('invalid_request', 'client_id and request_uri (from the PAR endpoint) are required');
    const auth = await this.rt.deps.store.findAuthorizationByRequestUri(secretHash(requestUri));
    if (!auth || auth.tenantId !== t.tenantId || auth.clientId !== clientId || auth.codeHash !== null || auth.usedAt || auth.expiresAt <= this.rt.now()) {
      throw new Oid4vciError('invalid_request', 'request_uri is invalid, spent or expired');
    }
    const back = new URL(auth.redirectUri);
    if (auth.state !== null) back.searchParams.set('state', auth.state);
    back.searchParams.set('iss', t.issuer);
    const subject = await this.rt.deps.users.authenticate({ tenantId: t.tenantId, offerId: auth.offerId, headers, query });
    if (!subject) {
      back.searchParams.set('error', 'access_denied');
      back.searchParams.set('error_description', 'the user was not authenticated');
      return { redirect: back.toString() };
    }
    const code = newSecret();
    if (!(await this.rt.deps.store.issueAuthorizationCode(auth.id, secretHash(code), subject, new Date(this.rt.now().getTime() + CODE_TTL_SECONDS * 1000)))) {
      throw new Oid4vciError('invalid_request', 'request_uri is invalid, spent or expired');
    }
    back.searchParams.set('code', code);
    return { redirect: back.toString() };
  }
}

function isRedirectUri(s: string): boolean {
  try {
    const u = new URL(s);
    return s.length <= 2048 && u.hash === '' && u.protocol !== 'javascript:' && u.protocol !== 'data:';
  } catch {
    return false;
  }
}
