import type { Actor } from '../../domain/tenancy/actor';
import type { FormatRegistry } from '../../formats/format-registry';
import type { Oid4vciIssuancePorts } from '../../formats/format';
import type { Oid4vciCredentialFormat } from './configurations';

/**
 * The formats the issuer offers, looked up in the format registry (habit 13): for each OpenID4VCI
 * format identifier some registered format is offered under, the first entry with an `oid4vci`
 * member, bound to the deployment's ports. The issuer names no format itself, so a format becomes
 * offerable by registering it with `oid4vciFormat` and `oid4vci`.
 */
export function oid4vciFormatsFrom(registry: FormatRegistry, ports: Oid4vciIssuancePorts): Oid4vciCredentialFormat[] {
  return registry.oid4vciFormats().flatMap((id) => {
    const offering = registry.forOid4vciFormat(id).find((f) => f.oid4vci !== undefined)?.oid4vci;
    if (!offering) return [];
    const typeMetadata = offering.typeMetadata;
    return [
      {
        format: id,
        describe: (source, ctx) => offering.describe(source, ctx),
        issue: (input) => offering.issue(input, ports),
        ...(typeMetadata ? { typeMetadata: (vct: string, source: Parameters<typeof typeMetadata>[1]) => typeMetadata(vct, source) } : {}),
      },
    ];
  });
}

/**
 * The tenant itself, issuing what its operator offered (never an API key's authority: no key id),
 * as the VC-API issuance of the W3C formats sees it.
 */
export const oid4vciIssuerActor = (tenantId: string): Actor => ({ tenantId, tenantSlug: '', apiKeyId: 'oid4vci-issuer', scopes: ['issuer'] });
