import { createHash } from 'node:crypto';
import { AppError, notFound } from '../errors';
import type { Clock } from '../domain/ports';
import type { IssuerTrust, JoseSigner, StatusListReference } from '../formats/sd-jwt-vc';
import { createTokenStatusChecker, signStatusListToken, TOKEN_STATUS, type OwnTokenStatusLists, type StatusListTokenSource } from '../formats/token-status-list';
import type { PrismaTokenStatusRepository } from '../db/repositories/token-status.repository';
import { isUuid } from './family-b/ids';

/**
 * Told when a credential is revoked through any of the service's routes (Family B `DELETE
 * /credentials/{id}`, the VC-API status route, the OpenID4VCI issuer's own record), so every
 * token status list the credential is in flips too.
 */
export interface RevocationListener {
  credentialRevoked(tenantId: string, credentialId: string): Promise<void>;
}

/** A published Status List Token and its validator for HTTP caching. */
export interface PublishedStatusListToken {
  readonly token: string;
  /** Strong ETag of the token's bytes. */
  readonly etag: string;
}

export interface TokenStatusListOptions {
  /** Seconds a consumer may cache the token (the token's `ttl`). */
  readonly ttlSeconds: number;
  /** Seconds a signed token is valid (`exp` - `iat`); it is signed again after half of it even if no bit changed. */
  readonly validitySeconds: number;
}

export const DEFAULT_TOKEN_STATUS_LIST_OPTIONS: TokenStatusListOptions = Object.freeze({ ttlSeconds: 300, validitySeconds: 24 * 60 * 60 });

/** The public path of a list's token (below the public URL). */
export const TOKEN_STATUS_LIST_PATH = '/token-status-lists/';

/**
 * IETF Token Status Lists of the tenants' OpenID4VC issuers: a random slot per issued credential
 * (allocated by the issuer at issuance), flips on revocation, the signed statuslist+jwt served
 * publicly (signed once per change of its bits, never per read), and the check verification
 * uses.
 */
export class TokenStatusListService implements RevocationListener, OwnTokenStatusLists {
  /** Lists being signed right now, so concurrent readers of a changed list share one signature. */
  private readonly signing = new Map<string, Promise<PublishedStatusListToken>>();

  constructor(
    private readonly repo: PrismaTokenStatusRepository,
    /** The tenant's OpenID4VC issuer signer (the list is signed by the key that signs its credentials). */
    private readonly signerFor: (tenantId: string) => Promise<JoseSigner>,
    private readonly publicUrl: string,
    private readonly clock: Clock,
    private readonly options: TokenStatusListOptions = DEFAULT_TOKEN_STATUS_LIST_OPTIONS,
  ) {}

  /** The URL of a list: the `status_list.uri` of its credentials and the token's `sub`. */
  listUrl(listId: string): string {
    return `${this.publicUrl}${TOKEN_STATUS_LIST_PATH}${listId}`;
  }

  /**
   * For the issuer, at issuance: a random free slot of the tenant's list for the credential
   * whose own record id is `credentialId`; revoking that record through any route flips it.
   * Returns the `status.status_list` to put in the credential.
   */
  async allocate(tenantId: string, credentialId: string): Promise<StatusListReference> {
    if (credentialId.length === 0 || credentialId.length > 512) throw new AppError('INVALID_INPUT', 'credentialId must be 1 to 512 characters');
    const slot = await this.repo.allocate(tenantId, credentialId);
    return { uri: this.listUrl(slot.listId), idx: slot.idx };
  }

  /** Sets INVALID (revoked) in every list the credential is in; idempotent. */
  async credentialRevoked(tenantId: string, credentialId: string): Promise<void> {
    await this.repo.setStatus(tenantId, credentialId, TOKEN_STATUS.INVALID);
  }

  /** The Status List Token of a list, as served at its URL; signed only when its bits changed (or it nears exp). */
  async token(listId: string): Promise<PublishedStatusListToken> {
    if (!isUuid(listId)) throw notFound('status list');
    const stored = await this.repo.signedToken(listId);
    const now = this.clock.now();
    if (stored && now.getTime() - stored.signedAt.getTime() < (this.options.validitySeconds * 1000) / 2) return this.published(stored.token);
    const pending = this.signing.get(listId);
    if (pending) return pending;
    const work = this.sign(listId).finally(() => this.signing.delete(listId));
    this.signing.set(listId, work);
    return work;
  }

  private async sign(listId: string): Promise<PublishedStatusListToken> {
    const list = await this.repo.list(listId);
    if (!list) throw notFound('status list');
    const signer = await this.signerFor(list.tenantId);
    const signedAt = this.clock.now();
    const iat = Math.floor(signedAt.getTime() / 1000);
    const token = await signStatusListToken({
      signer,
      sub: this.listUrl(list.id),
      bits: 1,
      bytes: list.bits,
      iat,
      exp: iat + this.options.validitySeconds,
      ttl: this.options.ttlSeconds,
    });
    await this.repo.storeSignedToken(list.id, list.version, token, signedAt);
    return this.published(token);
  }

  private published(token: string): PublishedStatusListToken {
    return { token, etag: `"${createHash('sha256').update(token).digest('base64url').slice(0, 32)}"` };
  }

  /** OwnTokenStatusLists: this service's lists read from the database (the current bit, never a cached token). */
  async statusOf(uri: string, idx: number): Promise<number | undefined | null> {
    const prefix = `${this.publicUrl}${TOKEN_STATUS_LIST_PATH}`;
    if (!uri.startsWith(prefix)) return null;
    const listId = uri.slice(prefix.length);
    if (!isUuid(listId)) throw new AppError('NOT_FOUND', `status list ${uri} not found`);
    const status = await this.repo.statusOf(listId, idx);
    if (status === null) throw new AppError('NOT_FOUND', `status list ${uri} not found`);
    return status;
  }

  /**
   * The `checkStatus` of verifySdJwtVc: own lists from the database, other issuers' tokens from
   * `remote` (guarded, budgeted, cached) validated under `trust`.
   */
  checker(trust: IssuerTrust, remote: StatusListTokenSource): (ref: StatusListReference) => Promise<number> {
    return createTokenStatusChecker({ own: this, remote, trust, now: () => Math.floor(this.clock.now().getTime() / 1000) });
  }
}
