import { createHash, timingSafeEqual } from 'node:crypto';
import { AppError, invalidInput, notFound } from '../errors';
import type { ApiKeyRecord, ApiKeyRepository, Clock, DidRepository, TenantRecord, TenantRepository } from '../domain/ports';
import { didMethodOf } from '../domain/dids/service-did';
import { type Actor, type Scope, isScope } from '../domain/tenancy/actor';
import { BINDABLE_SCOPES, canonicalHolderDid } from '../domain/tenancy/holder-binding';
import { apiKeyHashMatches, hashApiKey, newApiKey, parseApiKey } from '../domain/tenancy/api-key-format';
import type { PresentedCredential } from '../domain/tenancy/credential';
import type { AccessTokenClaims } from './oauth/access-tokens';

/** Checks an access token's signature and claims (src/services/oauth/access-tokens.ts). */
export interface AccessTokenVerifier {
  verify(token: string): Promise<AccessTokenClaims>;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const DEFAULT_TENANT_SLUG = 'default';
const SLUG_RE = /^[a-z0-9][a-z0-9-]{0,62}$/;

export interface ApiKeyView {
  readonly id: string;
  readonly tenant: string;
  readonly name: string | null;
  readonly scopes: readonly Scope[];
  readonly createdAt: Date;
  readonly revokedAt: Date | null;
  /** Set for a holder-bound key: the one holder it acts for. */
  readonly holderDid: string | null;
}

const toView = (k: ApiKeyRecord): ApiKeyView => ({
  id: k.id,
  tenant: k.tenantSlug,
  name: k.name,
  scopes: k.scopes,
  createdAt: k.createdAt,
  revokedAt: k.revokedAt,
  holderDid: k.holderDid,
});

function digest(s: string): Buffer {
  return createHash('sha256').update(s, 'utf8').digest();
}

export function parseScopes(raw: readonly string[]): Scope[] {
  const scopes = [...new Set(raw.map((s) => s.trim()).filter((s) => s !== ''))];
  const bad = scopes.filter((s) => !isScope(s));
  if (scopes.length === 0 || bad.length > 0) {
    throw invalidInput('scopes must be a non-empty list of admin, issuer, holder, verifier');
  }
  return scopes as Scope[];
}

/** API-key authentication and the tenant/key administration behind the CLI. */
export class AuthService {
  private readonly adminKeyDigest: Buffer | undefined;
  private defaultTenant: TenantRecord | undefined;

  constructor(
    private readonly tenants: TenantRepository,
    private readonly apiKeys: ApiKeyRepository,
    private readonly clock: Clock,
    adminApiKey: string | undefined,
    /** Checks that a bound service DID exists in the key's tenant (omitted: not checked). */
    private readonly dids?: DidRepository,
    /** Verifies Bearer access tokens; absent: every Bearer token is refused. */
    private readonly tokens?: AccessTokenVerifier,
  ) {
    this.adminKeyDigest = adminApiKey === undefined ? undefined : digest(adminApiKey);
  }

  /**
   * Resolves a request's credential to its caller: an API key (a bare string is one), a Bearer
   * access token, or both naming the same key (then the token's possibly narrower scopes apply;
   * two different keys are a client error, not a choice this service makes for it).
   */
  async authenticate(credential: string | undefined | PresentedCredential): Promise<Actor> {
    const c: PresentedCredential = typeof credential === 'object' ? credential : credential === undefined || credential === '' ? {} : { apiKey: credential };
    if (c.bearer === undefined) return this.authenticateApiKey(c.apiKey);
    const byToken = await this.authenticateToken(c.bearer);
    if (c.apiKey !== undefined) {
      const byKey = await this.authenticateApiKey(c.apiKey);
      if (byKey.apiKeyId !== byToken.apiKeyId) {
        throw invalidInput('X-API-Key and the Bearer access token belong to different API keys; send one of them', [{ field: 'Authorization', message: 'disagrees with X-API-Key' }]);
      }
    }
    return byToken;
  }

  /** Whether `rawKey` is CREDGATE_ADMIN_API_KEY (compared in constant time). */
  isEnvAdminKey(rawKey: string): boolean {
    return this.adminKeyDigest !== undefined && timingSafeEqual(digest(rawKey), this.adminKeyDigest);
  }

  /** Resolves an API key to its caller. Unknown, malformed and revoked keys look the same. */
  private async authenticateApiKey(rawKey: string | undefined): Promise<Actor> {
    if (rawKey === undefined || rawKey === '') {
      throw new AppError('UNAUTHENTICATED', 'an API key (X-API-Key header) or an access token (Authorization: Bearer) is required');
    }
    if (this.isEnvAdminKey(rawKey)) {
      const tenant = await this.ensureTenant(DEFAULT_TENANT_SLUG, 'Default tenant');
      return { tenantId: tenant.id, tenantSlug: tenant.slug, apiKeyId: 'env-admin', scopes: ['admin'] };
    }
    const parsed = parseApiKey(rawKey);
    const record = parsed ? await this.apiKeys.findById(parsed.id) : null;
    if (!parsed || !record || record.revokedAt !== null || !apiKeyHashMatches(parsed.text, record.secretHash)) {
      throw new AppError('UNAUTHENTICATED', 'invalid API key');
    }
    return this.actorOf(record, record.scopes);
  }

  /**
   * A token is only as good as its key: the key is looked up on every use, as for X-API-Key, so
   * revoking the key ends its tokens with it: at once on the revoking instance, on the others when
   * the revocation's notice arrives and CREDGATE_API_KEY_CACHE_TTL_MS at the latest
   * (src/cache/api-key-cache.ts).
   */
  private async authenticateToken(token: string): Promise<Actor> {
    if (!this.tokens) throw new AppError('INVALID_TOKEN', 'access tokens are not accepted here');
    const claims = await this.tokens.verify(token);
    const record = UUID_RE.test(claims.sub) ? await this.apiKeys.findById(claims.sub) : null;
    if (!record || record.revokedAt !== null || record.tenantSlug !== claims.tenant) {
      throw new AppError('INVALID_TOKEN', 'invalid access token');
    }
    // Scopes granted at issuance, and still held by the key.
    const held = record.scopes.includes('admin') ? claims.scopes : claims.scopes.filter((s) => record.scopes.includes(s));
    return this.actorOf(record, held);
  }

  private actorOf(record: ApiKeyRecord, scopes: readonly Scope[]): Actor {
    return {
      tenantId: record.tenantId,
      tenantSlug: record.tenantSlug,
      apiKeyId: record.id,
      scopes,
      ...(record.holderDid !== null ? { holderDid: record.holderDid } : {}),
    };
  }

  async ensureTenant(slug: string, name?: string): Promise<TenantRecord> {
    if (slug === DEFAULT_TENANT_SLUG && this.defaultTenant) return this.defaultTenant;
    if (!SLUG_RE.test(slug)) throw invalidInput('tenant must be lowercase letters, digits and hyphens (max 63)');
    let tenant = await this.tenants.findBySlug(slug);
    if (!tenant) {
      try {
        tenant = await this.tenants.create({ slug, name: name ?? slug });
      } catch (e) {
        tenant = await this.tenants.findBySlug(slug);
        if (!tenant) throw e;
      }
    }
    if (slug === DEFAULT_TENANT_SLUG) this.defaultTenant = tenant;
    return tenant;
  }

  /** The tenant with this slug, never created on the way (the CLI's `api-key` commands). */
  async requireTenant(slug: string): Promise<TenantRecord> {
    const tenant = await this.tenants.findBySlug(slug);
    if (!tenant) throw new AppError('NOT_FOUND', `tenant ${slug} not found`);
    return tenant;
  }

  listTenants(): Promise<TenantRecord[]> {
    return this.tenants.list();
  }

  /**
   * Creates a key, and its tenant if new unless `createTenant` is false (then an unknown tenant is
   * NOT_FOUND: the CLI never turns a typo into a tenant). The returned `key` text is never retrievable again.
   * With `holderDid` the key is holder-bound: it needs the holder scope, may add only verifier,
   * and a service-method DID must exist in the tenant.
   */
  async createApiKey(input: {
    tenant: string;
    scopes: readonly string[];
    name?: string;
    holderDid?: string;
    createTenant?: boolean;
  }): Promise<{ key: string; apiKey: ApiKeyView }> {
    const scopes = parseScopes(input.scopes);
    const holderDid = input.holderDid === undefined ? null : canonicalHolderDid(input.holderDid);
    if (holderDid !== null && (!scopes.includes('holder') || scopes.some((s) => !BINDABLE_SCOPES.includes(s)))) {
      throw invalidInput(`a holder-bound key needs the holder scope and may add only: ${BINDABLE_SCOPES.join(', ')}`, [{ field: 'scopes', message: 'not bindable' }]);
    }
    const tenant = input.createTenant === false ? await this.requireTenant(input.tenant) : await this.ensureTenant(input.tenant);
    if (holderDid !== null && didMethodOf(holderDid) !== 'key' && this.dids) {
      const did = await this.dids.findForTenant(tenant.id, holderDid);
      if (!did || did.deletedAt !== null) throw new AppError('DID_NOT_FOUND', `holder DID ${holderDid} is not a DID of tenant ${tenant.slug}`);
    }
    const { id, text } = newApiKey();
    const record = await this.apiKeys.create({
      id,
      tenantId: tenant.id,
      name: input.name ?? null,
      secretHash: hashApiKey(text),
      scopes,
      holderDid,
    });
    return { key: text, apiKey: toView(record) };
  }

  async listApiKeys(tenantSlug: string): Promise<ApiKeyView[]> {
    const tenant = await this.tenants.findBySlug(tenantSlug);
    if (!tenant) throw notFound('tenant');
    return (await this.apiKeys.listByTenant(tenant.id)).map(toView);
  }

  async revokeApiKey(tenantSlug: string, id: string): Promise<void> {
    const tenant = await this.tenants.findBySlug(tenantSlug);
    if (!tenant) throw notFound('tenant');
    if (!/^[0-9a-f-]{36}$/.test(id) || !(await this.apiKeys.revoke(tenant.id, id, this.clock.now()))) {
      throw notFound('active API key');
    }
  }
}
