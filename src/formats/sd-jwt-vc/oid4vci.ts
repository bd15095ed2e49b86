import { randomUUID } from 'node:crypto';
import type { Oid4vciSource, Oid4vciSupport } from '../format';
import { issueSdJwtVc } from './issue';
import { buildTypeMetadata } from './type-metadata';

/** Where the type metadata of a configuration is served (a resolvable `vct`, SD-JWT VC §6.3). */
export const vctOf = (issuer: string, configurationId: string): string => `${issuer}/vct/${encodeURIComponent(configurationId)}`;

/** The Type Metadata document behind `vct`, from the source the configuration was derived from. */
export function typeMetadataOf(vct: string, source: Oid4vciSource): Record<string, unknown> {
  const name = source.kind === 'template' ? source.name : `${source.name} v${source.version}`;
  return buildTypeMetadata(vct, { name, attributes: source.attributes.map((a) => ({ name: a })) }) as unknown as Record<string, unknown>;
}

/** Lifetime of an issued SD-JWT VC when nothing else says (a year). */
const VALIDITY_SECONDS = 365 * 24 * 3600;

/**
 * `dc+sd-jwt` over OpenID4VCI: SD-JWT VC signed by the tenant's OID4VCI issuer key (x5c chain in
 * the header), `iss` the credential issuer identifier, every claim selectively disclosable,
 * `cnf.jwk` the key the wallet proved possession of, and `status.status_list` a random slot of the
 * tenant's Token Status List held by the credential's own record id (`ref.credentialId`), which
 * revocation flips.
 */
export const sdJwtVcOid4vci: Oid4vciSupport = {
  describe: (_source, { issuer, configurationId }) => ({ vct: vctOf(issuer, configurationId) }),
  async issue({ tenantId, issuer, configurationId, claims, holderJwk }, ports) {
    const signer = await ports.signerFor(tenantId);
    const iat = Math.floor(ports.now().getTime() / 1000);
    const credentialId = randomUUID();
    const status = await ports.allocateStatus(tenantId, credentialId);
    const credential = await issueSdJwtVc({ signer, iss: issuer, vct: vctOf(issuer, configurationId), claims, holderJwk, status, iat, exp: iat + VALIDITY_SECONDS });
    return { credential, ref: { format: 'dc+sd-jwt', credentialId, status: { uri: status.uri, idx: status.idx } } };
  },
  typeMetadata: typeMetadataOf,
};
