import { AppError } from '../../errors';
import type { Actor } from '../../domain/tenancy/actor';
import type { IssuerRuntime } from './context';
import type { IssuedCredentialRecord } from './ports';

/** A credential the issuer delivered to a wallet, as its operator sees it (never the credential itself). */
export interface IssuedCredentialView {
  /** The credential's record id: what Family B `DELETE /credentials/{id}` revokes. */
  readonly id: string;
  readonly offerId: string;
  readonly configurationId: string;
  readonly format: string;
  readonly status: 'issued' | 'revoked';
  readonly issuedAt: string;
  readonly revokedAt: string | null;
}

const viewOf = (r: IssuedCredentialRecord): IssuedCredentialView => ({
  id: r.id,
  offerId: r.offerId,
  configurationId: r.configurationId,
  format: r.format,
  status: r.revokedAt ? 'revoked' : 'issued',
  issuedAt: r.issuedAt.toISOString(),
  revokedAt: r.revokedAt?.toISOString() ?? null,
});

const isUuid = (s: string): boolean => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);

/**
 * The credentials an offer produced, one by one: listed for the issuer's operator and revoked one
 * at a time through the existing revocation route (an issuer withdraws ONE credential it gave a
 * wallet without withdrawing the whole offer).
 */
export class IssuedCredentialsService {
  constructor(private readonly rt: IssuerRuntime) {}

  /** The credentials delivered under an offer of the caller's tenant (404 for another tenant's offer). */
  async list(actor: Actor, offerId: string): Promise<IssuedCredentialView[]> {
    if (!isUuid(offerId) || !(await this.rt.deps.store.findOffer(actor.tenantId, offerId))) throw new AppError('NOT_FOUND', 'no such credential offer');
    return (await this.rt.deps.store.issuedCredentialsOf(actor.tenantId, offerId)).map(viewOf);
  }

  /**
   * Revokes one delivered credential of the caller's tenant and flips every status list it is in.
   * Idempotent (a retry answers the first revocation's time and completes a flip that failed);
   * null when `id` is no credential of this issuer, so the caller can answer its own 404.
   */
  async revoke(actor: Actor, id: string): Promise<{ id: string; status: 'revoked'; revokedAt: string } | null> {
    if (id.length === 0 || id.length > 512) return null;
    const revoked = await this.rt.deps.store.revokeIssuedCredential(actor.tenantId, id, this.rt.now());
    if (!revoked?.revokedAt) return null;
    // After the record's revocation committed, like the Family B and VC-API revocations.
    await this.rt.deps.revocations?.credentialRevoked(actor.tenantId, id);
    return { id, status: 'revoked', revokedAt: revoked.revokedAt.toISOString() };
  }
}
