import type { JsonWebKey } from 'node:crypto';
import type { SubjectClaims } from './ports';

import type { Oid4vciSource } from '../../formats/format';

/** What an offerable credential is made from: a Family B template or a Family A schema version. */
export type CredentialSource = Oid4vciSource;

/** Lists a tenant's templates and schema versions (the services' repositories, read-only). */
export interface CredentialSources {
  list(tenantId: string): Promise<CredentialSource[]>;
}

/**
 * One OID4VCI format the issuer can mint, looked up by its format identifier (habit 13: the
 * endpoints never branch on a format): a registry format's `oid4vci` member bound to the
 * deployment's ports (registry-formats.ts). `issue` signs one credential for one holder key.
 */
export interface Oid4vciCredentialFormat {
  readonly format: string;
  /** The format-specific members of a credential configuration (vct, doctype, credential_definition…); null when the source cannot be offered in it. */
  describe(source: CredentialSource, ctx: { readonly issuer: string; readonly configurationId: string }): Record<string, unknown> | null;
  issue(input: {
    readonly tenantId: string;
    readonly issuer: string;
    readonly configurationId: string;
    readonly source: CredentialSource;
    readonly metadata: Record<string, unknown>;
    readonly claims: SubjectClaims;
    readonly holderJwk: JsonWebKey;
  }): Promise<{ credential: string | Record<string, unknown>; ref: Record<string, unknown> }>;
  /** The type metadata document behind a configuration's `vct`, for formats that have one. */
  typeMetadata?(vct: string, source: CredentialSource): Record<string, unknown>;
}

export interface CredentialConfiguration {
  readonly id: string;
  readonly format: string;
  readonly source: CredentialSource;
  /** The entry of `credential_configurations_supported`. */
  readonly metadata: Record<string, unknown>;
}

const FORMAT_SUFFIX: Readonly<Record<string, string>> = { 'dc+sd-jwt': 'sd_jwt', mso_mdoc: 'mdoc', jwt_vc_json: 'jwt_vc', ldp_vc: 'ldp_vc' };

/** Stable, URL-safe ids: `template.<templateId>.sd_jwt`, `schema.<name>.v<version>.sd_jwt`. */
export function configurationId(source: CredentialSource, format: string): string {
  const suffix = FORMAT_SUFFIX[format] ?? format.replace(/[^A-Za-z0-9_-]/g, '_');
  const base = source.kind === 'template' ? `template.${source.templateId}` : `schema.${source.name}.v${source.version}`;
  return `${base}.${suffix}`;
}

/** Every (source × format) the formats accept, as credential configurations. */
export function deriveConfigurations(issuer: string, sources: readonly CredentialSource[], formats: readonly Oid4vciCredentialFormat[]): CredentialConfiguration[] {
  const out: CredentialConfiguration[] = [];
  for (const source of sources) {
    for (const f of formats) {
      const id = configurationId(source, f.format);
      const specific = f.describe(source, { issuer, configurationId: id });
      if (!specific) continue;
      const name = source.kind === 'template' ? source.name : `${source.name} v${source.version}`;
      // Defaults first; a format's own members (vct, doctype, its claim paths) take precedence.
      const metadata: Record<string, unknown> = {
        format: f.format,
        scope: id,
        cryptographic_binding_methods_supported: ['jwk'],
        credential_signing_alg_values_supported: ['ES256'],
        proof_types_supported: { jwt: { proof_signing_alg_values_supported: ['ES256'] } },
        credential_metadata: {
          display: [{ name, locale: 'en' }],
          claims: source.attributes.map((a) => ({ path: [a], display: [{ name: a, locale: 'en' }] })),
        },
        ...specific,
      };
      out.push({ id, format: f.format, source, metadata });
    }
  }
  return out;
}
