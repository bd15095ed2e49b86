import { Oauth2AuthorizationServer, Oauth2ResourceServer } from '@openid4vc/oauth2';
import { Openid4vciIssuer } from '@openid4vc/openid4vci';
import type { Clock, TenantRepository } from '../../domain/ports';
import { issuerCallbacks } from './callbacks';
import { type CredentialConfiguration, type CredentialSources, type Oid4vciCredentialFormat, deriveConfigurations } from './configurations';
import { Oid4vciError } from './errors';
import type { Oid4vciStore } from './ports';
import type { Oid4vciSettings } from './settings';
import type { UserAuthenticator } from './user-authenticator';

/** Everything the issuer's use-cases share: built once by the composition root. */
export interface IssuerDeps {
  readonly store: Oid4vciStore;
  readonly settings: Oid4vciSettings;
  readonly clock: Clock;
  readonly tenants: TenantRepository;
  readonly sources: CredentialSources;
  /** The formats that can be minted now, by OID4VCI format identifier. */
  readonly formats: readonly Oid4vciCredentialFormat[];
  /** The service's public base URL (CREDGATE_PUBLIC_URL), without a trailing slash. */
  readonly publicUrl: string;
  readonly users: UserAuthenticator;
  /**
   * Told of every credential issued under a revoked offer (the Token Status List service flips
   * its entries, as it does for revocations through the Family B and VC-API routes).
   */
  readonly revocations?: { credentialRevoked(tenantId: string, credentialId: string): Promise<void> };
  /**
   * Which wallet providers are trusted: a wallet attestation must carry an x5c chain this accepts
   * (K's x5cTrust over the deployment's anchors). Without it no attestation is trusted.
   */
  readonly walletTrust?: (input: { x5c?: string[] }) => Promise<unknown>;
}

/** The path every per-tenant issuer lives under: the credential issuer identifier is `${publicUrl}${ISSUER_PATH}/{slug}`. */
export const ISSUER_PATH = '/oid4vc';

export interface TenantIssuer {
  readonly tenantId: string;
  readonly slug: string;
  /** The credential issuer identifier, which is also the authorization server's issuer. */
  readonly issuer: string;
}

/** The oid4vc-ts server classes with our callbacks, shared by the use-cases. */
export class IssuerRuntime {
  readonly vci = new Openid4vciIssuer({ callbacks: issuerCallbacks() });
  readonly as = new Oauth2AuthorizationServer({ callbacks: issuerCallbacks() });
  readonly rs = new Oauth2ResourceServer({ callbacks: issuerCallbacks() });

  constructor(readonly deps: IssuerDeps) {}

  issuerUrl(slug: string): string {
    return `${this.deps.publicUrl}${ISSUER_PATH}/${encodeURIComponent(slug)}`;
  }

  /** The tenant a wallet addresses by its slug; an unknown one is a 404 to the wallet. */
  async tenant(slug: string): Promise<TenantIssuer> {
    const t = /^[A-Za-z0-9._-]{1,100}$/.test(slug) ? await this.deps.tenants.findBySlug(slug) : null;
    if (!t) throw new Oid4vciError('invalid_request', 'no credential issuer at this address', {}, 404);
    return { tenantId: t.id, slug: t.slug, issuer: this.issuerUrl(t.slug) };
  }

  async configurations(t: { tenantId: string; issuer: string }): Promise<CredentialConfiguration[]> {
    const sources = await this.deps.sources.list(t.tenantId);
    const configs = deriveConfigurations(t.issuer, sources, this.deps.formats);
    if (!this.deps.settings.requireKeyAttestation) return configs;
    // Key attestation policy on: every configuration tells the wallet its proofs need one.
    return configs.map((c) => ({
      ...c,
      metadata: { ...c.metadata, proof_types_supported: { jwt: { proof_signing_alg_values_supported: ['ES256'], key_attestations_required: {} } } },
    }));
  }

  format(id: string): Oid4vciCredentialFormat | undefined {
    return this.deps.formats.find((f) => f.format === id);
  }

  now(): Date {
    return this.deps.clock.now();
  }
}
