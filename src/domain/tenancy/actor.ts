/** Scopes an API key can carry. `admin` implies every other scope within its tenant. */
export const SCOPES = ['admin', 'issuer', 'holder', 'verifier'] as const;
export type Scope = (typeof SCOPES)[number];

export function isScope(s: string): s is Scope {
  return (SCOPES as readonly string[]).includes(s);
}

/** The authenticated caller every service method receives; services never see transports. */
export interface Actor {
  readonly tenantId: string;
  readonly tenantSlug: string;
  readonly apiKeyId: string;
  readonly scopes: readonly Scope[];
  /**
   * Set for a holder-bound key (canonical DID): the caller acts only for this holder. See
   * holder-binding.ts; services check it with `mayActFor`.
   */
  readonly holderDid?: string;
}

export function hasAnyScope(actor: Actor, required: readonly Scope[]): boolean {
  if (actor.scopes.includes('admin')) return true;
  return required.length === 0 || required.some((s) => actor.scopes.includes(s));
}
