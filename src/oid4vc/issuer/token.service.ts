import { Oauth2ServerErrorResponseError, verifyClientAttestationJwt } from '@openid4vc/oauth2';
import { issuerCallbacks } from './callbacks';
import { verifyClientAttestationPop } from './client-attestation-pop';
import type { IssuerRuntime, TenantIssuer } from './context';
import { type CheckedDpop, checkDpop } from './dpop';
import { Oid4vciError } from './errors';
import type { WalletRequest } from './http-request';
import { authorizationServerMetadata } from './metadata';
import { newSecret, sameHash, secretHash } from './secrets';
import { x5cOfJwt } from './key-proof';

/** The token response (RFC 6749 §5.1, OID4VCI 1.0 §6.2). */
export interface TokenResponse {
  readonly access_token: string;
  readonly token_type: 'DPoP' | 'Bearer';
  readonly expires_in: number;
}

/**
 * RFC 8707 `resource`: wallets name the credential issuer they want a token for. We check it is
 * this issuer and hand the rest to oid4vc-ts, whose schema insists on https URLs process-wide.
 */
export function withoutResource(body: Record<string, unknown>, issuer: string): Record<string, unknown> {
  const { resource, ...rest } = body;
  if (resource !== undefined && resource !== issuer) throw new Oid4vciError('invalid_target', 'resource must be this credential issuer');
  return rest;
}

/** Rethrows the library's protocol refusals as ours (same error code, same description). */
function asOid4vci(e: unknown): never {
  if (e instanceof Oauth2ServerErrorResponseError) {
    const code = e.errorResponse.error as ConstructorParameters<typeof Oid4vciError>[0];
    throw new Oid4vciError(code, e.errorResponse.error_description ?? code, {}, e.status === 401 ? 401 : 400);
  }
  throw e;
}

/**
 * The token endpoint: pre-authorized code (with tx_code, attempts limited) and authorization code
 * (PKCE S256, redirect_uri and client bound at PAR). Access tokens are opaque, stored hashed and
 * bound to the DPoP key (RFC 9449); every code is single use.
 */
export class TokenService {
  constructor(private readonly rt: IssuerRuntime) {}

  async token(slug: string, request: WalletRequest, body: Record<string, unknown>): Promise<TokenResponse> {
    const t = await this.rt.tenant(slug);
    const params = withoutResource(body, t.issuer);
    let parsed: ReturnType<IssuerRuntime['as']['parseAccessTokenRequest']>;
    try {
      parsed = this.rt.as.parseAccessTokenRequest({ accessTokenRequest: params, request: { method: 'POST', url: request.url, headers: request.headers } });
    } catch (e) {
      asOid4vci(e);
    }
    await this.checkWalletAttestation(t, parsed, request);
    const dpop = await this.dpopOf(request);
    if (parsed.grant.grantType === 'urn:ietf:params:oauth:grant-type:pre-authorized_code') {
      return this.preAuthorized(t, parsed.grant.preAuthorizedCode, parsed.grant.txCode, dpop);
    }
    if (parsed.grant.grantType === 'authorization_code') {
      return this.authorizationCode(t, parsed.grant.code, parsed.pkceCodeVerifier, params, dpop);
    }
    throw new Oid4vciError('unsupported_grant_type', 'only the pre-authorized code and authorization code grants are supported');
  }

  private async dpopOf(request: WalletRequest): Promise<CheckedDpop | null> {
    if (request.headers.get('dpop') === null && !this.rt.deps.settings.requireDpop) return null;
    return checkDpop(this.rt, request, { at: 'token' });
  }

  /** OAuth client attestation (attest_jwt_client_auth): required when the policy says so, checked whenever sent. */
  private async checkWalletAttestation(t: TenantIssuer, parsed: ReturnType<IssuerRuntime['as']['parseAccessTokenRequest']>, request: WalletRequest): Promise<void> {
    const attestation = parsed.clientAttestation;
    if (!attestation) {
      if (this.rt.deps.settings.requireWalletAttestation) throw new Oid4vciError('invalid_client', 'a wallet attestation (OAuth-Client-Attestation and -PoP headers) is required', {}, 401);
      return;
    }
    if (!attestation.clientAttestationPopJwt) throw new Oid4vciError('invalid_client', 'the wallet attestation needs its PoP (OAuth-Client-Attestation-PoP)', {}, 401);
    // The attestation's signature proves nothing unless its signer is a wallet provider we trust:
    // its x5c must chain to the deployment's anchors (a self-signed attestation is anyone's).
    const x5c = x5cOfJwt(attestation.clientAttestationJwt);
    const trust = this.rt.deps.walletTrust;
    if (!trust || !x5c) throw new Oid4vciError('invalid_client', 'the wallet attestation is not signed by a trusted wallet provider (x5c)', {}, 401);
    try {
      await trust({ x5c });
    } catch {
      throw new Oid4vciError('invalid_client', 'the wallet attestation is not signed by a trusted wallet provider (x5c)', {}, 401);
    }
    let verified: Awaited<ReturnType<typeof verifyClientAttestationJwt>>;
    try {
      // The attestation itself through oid4vc-ts (typ, signature by the x5c leaf, exp, cnf)...
      verified = await verifyClientAttestationJwt({ clientAttestationJwt: attestation.clientAttestationJwt, callbacks: issuerCallbacks(), now: this.rt.now() } as Parameters<typeof verifyClientAttestationJwt>[0]);
    } catch (e) {
      if (e instanceof Oauth2ServerErrorResponseError) throw new Oid4vciError('invalid_client', e.errorResponse.error_description ?? 'invalid wallet attestation', {}, 401);
      throw new Oid4vciError('invalid_client', `the wallet attestation is invalid: ${e instanceof Error ? e.message.split('\n')[0] : 'malformed'}`, {}, 401);
    }
    // ...its PoP by our code (client-attestation-pop.ts says why).
    verifyClientAttestationPop(attestation.clientAttestationPopJwt, {
      cnfJwk: verified.payload.cnf.jwk,
      clientId: verified.payload.sub,
      audience: t.issuer,
      nowSeconds: Math.floor(this.rt.now().getTime() / 1000),
      windowSeconds: this.rt.deps.settings.proofWindowSeconds,
    });
    void request;
  }

  private async preAuthorized(t: TenantIssuer, code: string, txCode: string | undefined, dpop: CheckedDpop | null): Promise<TokenResponse> {
    const store = this.rt.deps.store;
    const codeHash = secretHash(code);
    const offer = await store.findOfferByPreAuthorizedCode(codeHash);
    const now = this.rt.now();
    // One answer for unknown, spent, foreign, revoked, locked and expired codes: nothing to probe.
    if (!offer || offer.tenantId !== t.tenantId || offer.revokedAt || offer.lockedAt || offer.expiresAt <= now) {
      throw new Oid4vciError('invalid_grant', 'the pre-authorized code is invalid, spent or expired');
    }
    if (offer.txCodeHash) {
      if (txCode === undefined) throw new Oid4vciError('invalid_request', 'this offer needs its tx_code');
      if (!sameHash(secretHash(txCode), offer.txCodeHash)) {
        const { failures, locked } = await store.recordTxCodeFailure(offer.id, this.rt.deps.settings.txCodeMaxAttempts, now);
        const left = Math.max(0, this.rt.deps.settings.txCodeMaxAttempts - failures);
        throw new Oid4vciError('invalid_grant', locked ? 'wrong tx_code; the offer is now locked' : `wrong tx_code (${left} attempt${left === 1 ? '' : 's'} left)`);
      }
    } else if (txCode !== undefined) {
      throw new Oid4vciError('invalid_request', 'this offer has no tx_code');
    }
    const token = newSecret();
    const ttl = this.rt.deps.settings.accessTokenTtlSeconds;
    const ok = await store.exchangePreAuthorizedCode(offer.id, codeHash, {
      tokenHash: secretHash(token),
      tenantId: t.tenantId,
      offerId: offer.id,
      dpopJkt: dpop?.jkt ?? null,
      clientId: null,
      expiresAt: new Date(now.getTime() + ttl * 1000),
    });
    if (!ok) throw new Oid4vciError('invalid_grant', 'the pre-authorized code is invalid, spent or expired');
    return { access_token: token, token_type: dpop ? 'DPoP' : 'Bearer', expires_in: ttl };
  }

  private async authorizationCode(t: TenantIssuer, code: string, verifier: string | undefined, body: Record<string, unknown>, dpop: CheckedDpop | null): Promise<TokenResponse> {
    const store = this.rt.deps.store;
    const auth = await store.findAuthorizationByCode(secretHash(code));
    const now = this.rt.now();
    if (!auth || auth.tenantId !== t.tenantId || auth.usedAt || auth.expiresAt <= now) throw new Oid4vciError('invalid_grant', 'the authorization code is invalid, spent or expired');
    if (typeof body['redirect_uri'] !== 'string' || body['redirect_uri'] !== auth.redirectUri) throw new Oid4vciError('invalid_grant', 'redirect_uri differs from the authorization request');
    if (typeof body['client_id'] === 'string' && body['client_id'] !== auth.clientId) throw new Oid4vciError('invalid_grant', 'client_id differs from the authorization request');
    if (auth.dpopJkt && dpop?.jkt !== auth.dpopJkt) throw new Oid4vciError('invalid_dpop_proof', 'the DPoP key differs from the one of the authorization request');
    if (!verifier) throw new Oid4vciError('invalid_request', 'code_verifier is required (PKCE)');
    try {
      await this.rt.as.verifyAuthorizationCodeAccessTokenRequest({
        grant: { grantType: 'authorization_code', code },
        accessTokenRequest: body as never,
        expectedCode: code,
        codeExpiresAt: auth.expiresAt,
        pkce: { codeVerifier: verifier, codeChallenge: auth.codeChallenge, codeChallengeMethod: 'S256' },
        request: { method: 'POST', url: authorizationServerMetadata(this.rt, t)['token_endpoint'] as string, headers: new Headers() },
        authorizationServerMetadata: authorizationServerMetadata(this.rt, t) as never,
        now,
      } as Parameters<IssuerRuntime['as']['verifyAuthorizationCodeAccessTokenRequest']>[0]);
    } catch (e) {
      asOid4vci(e);
    }
    const token = newSecret();
    const ttl = this.rt.deps.settings.accessTokenTtlSeconds;
    const ok = await store.exchangeAuthorizationCode(auth.id, { tokenHash: secretHash(token), tenantId: t.tenantId, offerId: auth.offerId, dpopJkt: dpop?.jkt ?? null, clientId: auth.clientId, expiresAt: new Date(now.getTime() + ttl * 1000) }, now);
    if (!ok) throw new Oid4vciError('invalid_grant', 'the authorization code is invalid, spent or expired');
    return { access_token: token, token_type: dpop ? 'DPoP' : 'Bearer', expires_in: ttl };
  }
}
