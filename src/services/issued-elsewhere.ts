import type { Actor } from '../domain/tenancy/actor';

/** A revocation through Family B's route, as its callers are answered. */
export interface Revocation {
  readonly id: string;
  readonly status: 'revoked';
  readonly revokedAt: string;
}

/** An issuer of credentials that live outside Family B's records (the OpenID4VCI issuer). */
export interface ElsewhereRevoker {
  /** Revokes the caller's tenant's credential with this record id; null when it has none. */
  revoke(actor: Actor, id: string): Promise<Revocation | null>;
}

/**
 * Credentials the service issued through other protocols, revocable by their record id through
 * the existing Family B route (`DELETE /credentials/{id}`, GraphQL revokeTemplateCredential), so an
 * issuer has one way to withdraw a credential whichever protocol delivered it. The composition
 * root adds the OpenID4VCI issuer once it is built (after the services it depends on).
 */
export class IssuedElsewhere {
  private readonly revokers: ElsewhereRevoker[] = [];

  add(revoker: ElsewhereRevoker): void {
    this.revokers.push(revoker);
  }

  /** The first issuer that holds `id` revokes it; null when none does. */
  async revoke(actor: Actor, id: string): Promise<Revocation | null> {
    for (const r of this.revokers) {
      const done = await r.revoke(actor, id);
      if (done) return done;
    }
    return null;
  }
}
