import { isAppError } from '../../errors';
import { type Actor, type Scope, isScope } from '../../domain/tenancy/actor';
import { parseApiKey } from '../../domain/tenancy/api-key-format';
import type { AuthService } from '../auth.service';
import type { RateLimitService } from '../rate-limit.service';
import type { AccessTokens } from './access-tokens';
import { OAuthError } from './oauth-error';

/** A token request once the transport has read the form (or JSON) and the Authorization header. */
export interface TokenRequest {
  readonly grantType: string | undefined;
  readonly scope: string | undefined;
  readonly clientId: string;
  readonly clientSecret: string;
  /** The caller's address: failed client authentications are counted per (address, client id). */
  readonly clientIp: string;
}

/** RFC 6749 §5.1 */
export interface TokenResponse {
  readonly access_token: string;
  readonly token_type: 'Bearer';
  readonly expires_in: number;
  readonly scope: string;
}

const GRANT = 'client_credentials';

/**
 * OAuth 2.0 client credentials (RFC 6749 §4.4): the client id is an API key's id, the secret the
 * key itself. The token carries the key's tenant and the requested subset of its scopes.
 */
export class OAuthService {
  constructor(
    private readonly auth: AuthService,
    private readonly tokens: AccessTokens,
    private readonly rateLimits: RateLimitService,
  ) {}

  async token(req: TokenRequest): Promise<TokenResponse> {
    if (req.grantType === undefined || req.grantType === '') throw new OAuthError('invalid_request', 'grant_type is required');
    if (req.grantType !== GRANT) throw new OAuthError('unsupported_grant_type', 'only the client_credentials grant is supported');
    // Reserved before anything looks at the secret: a burst cannot have more guesses checked than
    // the budget, and once it is spent even the right secret is refused (no oracle).
    const attempt = await this.rateLimits.reserveClientAuth(req.clientIp, req.clientId);
    // The bootstrap key is not a client: it has no id to revoke and stands for every tenant's
    // default; an access token of it would be an unrevocable admin credential for its lifetime.
    // It stays counted: telling it apart from a wrong secret is itself an answer about the secret.
    if (this.auth.isEnvAdminKey(req.clientSecret)) {
      throw new OAuthError('unauthorized_client', 'CREDGATE_ADMIN_API_KEY cannot obtain access tokens; create an API key (credgate api-key create) and use its id and key');
    }
    let actor: Actor | undefined;
    try {
      actor = await this.authenticateClient(req.clientId, req.clientSecret);
    } catch (e) {
      // The check did not run (e.g. the database is busy): not a guess, so not the client's failure.
      await attempt.giveBack().catch(() => undefined);
      throw e;
    }
    if (!actor) throw new OAuthError('invalid_client', 'client authentication failed');
    // A failed give-back leaves the budget one lower for this window: the safe side of the error.
    await attempt.giveBack().catch(() => undefined);
    const scopes = grantedScopes(actor.scopes, req.scope);
    const issued = await this.tokens.issue({ apiKeyId: actor.apiKeyId, tenantSlug: actor.tenantSlug, scopes });
    return { access_token: issued.token, token_type: 'Bearer', expires_in: issued.expiresIn, scope: scopes.join(' ') };
  }

  /** The key's caller when the secret is the key whose id is `clientId`; unknown, malformed and revoked look the same. */
  private async authenticateClient(clientId: string, secret: string): Promise<Actor | undefined> {
    if (parseApiKey(secret)?.id !== clientId.toLowerCase()) return undefined;
    try {
      return await this.auth.authenticate({ apiKey: secret });
    } catch (e) {
      if (isAppError(e) && e.code === 'UNAUTHENTICATED') return undefined;
      throw e;
    }
  }
}

/** The requested scopes (RFC 6749 §3.3: space-delimited), each held by the key (admin holds all); none requested: the key's. */
function grantedScopes(held: readonly Scope[], requested: string | undefined): Scope[] {
  if (requested === undefined) return [...held];
  const names = requested.split(' ');
  if (names.some((n) => n === '')) throw new OAuthError('invalid_scope', 'scope must be scope names separated by single spaces');
  const unknown = names.filter((n) => !isScope(n));
  if (unknown.length > 0) throw new OAuthError('invalid_scope', 'scope names are admin, issuer, holder and verifier');
  const scopes = [...new Set(names as Scope[])];
  if (!held.includes('admin') && scopes.some((s) => !held.includes(s))) {
    throw new OAuthError('invalid_scope', `the key grants only: ${held.join(' ')}`);
  }
  return scopes;
}
