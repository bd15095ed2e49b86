import { randomUUID } from 'node:crypto';
import type { Oid4vciSource, Oid4vciSupport } from '../format';
import { mdocClaimPath, mdocNamespacesFromAttributes } from './attributes';
import { mdocDoctypes, type MdocDoctypeConfig } from './doctypes';
import { issueMdoc } from './issue';

/** Lifetime of an issued mdoc (validityInfo.validUntil) when nothing else says: a year. */
const VALIDITY_MS = 365 * 24 * 3600 * 1000;

/**
 * The configured doctype a source can be issued as: the first (EU PID, then ISO mDL) onto which
 * every attribute maps (by element identifier or alias) and whose mandatory elements are all
 * covered, so an offer of it can succeed. None: the source is not offered as mso_mdoc.
 */
export function doctypeFor(source: Oid4vciSource): { config: MdocDoctypeConfig; paths: [string, string][] } | undefined {
  if (source.attributes.length === 0) return undefined;
  for (const config of mdocDoctypes()) {
    const paths = source.attributes.map((a) => mdocClaimPath(config.docType, a));
    if (paths.some((p) => p === undefined)) continue;
    const covered = new Set(paths.map((p) => p!.join('/')));
    const required = Object.entries(config.namespaces).flatMap(([ns, elements]) => Object.entries(elements).filter(([, e]) => e.required).map(([el]) => `${ns}/${el}`));
    if (required.every((r) => covered.has(r))) return { config, paths: paths as [string, string][] };
  }
  return undefined;
}

/**
 * `mso_mdoc` over OpenID4VCI: ISO 18013-5 IssuerSigned (base64url CBOR, as OID4VCI 1.0 Appendix
 * A.2 returns it), signed with the tenant's `oid4vci-issuer` key (x5chain), the wallet's proof key
 * as deviceKey, the offer's claims typed per the doctype's elements, and a Token Status List entry
 * in the MSO.
 */
export const mdocOid4vci: Oid4vciSupport = {
  describe(source) {
    const found = doctypeFor(source);
    if (!found) return null;
    return {
      doctype: found.config.docType,
      // ISO 18013-5: the device key is a COSE key; the issuer signs with ES256 (COSE -7).
      cryptographic_binding_methods_supported: ['cose_key'],
      credential_signing_alg_values_supported: [-7],
      credential_metadata: {
        display: [{ name: source.kind === 'template' ? source.name : `${source.name} v${source.version}`, locale: 'en' }],
        claims: found.paths.map((path) => ({ path, display: [{ name: path[1], locale: 'en' }] })),
      },
    };
  },
  async issue({ tenantId, source, claims, holderJwk }, ports) {
    const found = doctypeFor(source);
    if (!found) throw new Error('the source is not an mso_mdoc configuration');
    // Refuses (INVALID_INPUT, per field) claims the doctype cannot carry: the wallet sees credential_request_denied.
    const namespaces = mdocNamespacesFromAttributes(found.config.docType, claims);
    const signer = await ports.signerFor(tenantId);
    const credentialId = randomUUID();
    const status = await ports.allocateStatus(tenantId, credentialId);
    const validFrom = ports.now();
    const bytes = await issueMdoc({ docType: found.config.docType, namespaces, signer: { ...signer, ...(signer.x5c ? { x5c: [...signer.x5c] } : {}) }, deviceKeyJwk: holderJwk, validFrom, validUntil: new Date(validFrom.getTime() + VALIDITY_MS), status });
    return { credential: Buffer.from(bytes).toString('base64url'), ref: { format: 'mso_mdoc', credentialId, status: { uri: status.uri, idx: status.idx } } };
  },
};
