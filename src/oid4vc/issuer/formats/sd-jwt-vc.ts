import { randomUUID } from 'node:crypto';
import { buildTypeMetadata, issueSdJwtVc, type StatusListReference } from '../../../formats/sd-jwt-vc';
import type { CredentialSource, Oid4vciCredentialFormat } from '../configurations';
import type { IssuerSignerSource } from '../signer';

/** Where the type metadata of a configuration is served (a resolvable `vct`, SD-JWT VC §6.3). */
export const vctOf = (issuer: string, configurationId: string): string => `${issuer}/vct/${encodeURIComponent(configurationId)}`;

/** The Type Metadata document behind `vct`, from the source the configuration was derived from. */
export function typeMetadataOf(vct: string, source: CredentialSource): Record<string, unknown> {
  const name = source.kind === 'template' ? source.name : `${source.name} v${source.version}`;
  return buildTypeMetadata(vct, { name, attributes: source.attributes.map((a) => ({ name: a })) }) as unknown as Record<string, unknown>;
}

/** Token Status List slots (src/services/token-status-list.service.ts): one per issued credential record. */
export interface StatusAllocator {
  allocate(tenantId: string, credentialId: string): Promise<StatusListReference>;
}

/** Lifetime of an issued SD-JWT VC when nothing else says (a year). */
const VALIDITY_SECONDS = 365 * 24 * 3600;

/**
 * `dc+sd-jwt`: SD-JWT VC signed by the tenant's OID4VCI issuer key (x5c chain in the header),
 * `iss` the credential issuer identifier, every claim selectively disclosable, `cnf.jwk` the key
 * the wallet proved possession of, and `status.status_list` a random slot of the tenant's Token
 * Status List held by the credential's own record id (`ref.credentialId`), which revocation flips.
 */
export function sdJwtVcFormat(signers: IssuerSignerSource, now: () => Date, statusLists: StatusAllocator): Oid4vciCredentialFormat {
  return {
    format: 'dc+sd-jwt',
    describe: (_source, { issuer, configurationId }) => ({ vct: vctOf(issuer, configurationId) }),
    async issue({ tenantId, issuer, configurationId, claims, holderJwk }) {
      const signer = await signers.signerFor(tenantId);
      const iat = Math.floor(now().getTime() / 1000);
      const credentialId = randomUUID();
      const status = await statusLists.allocate(tenantId, credentialId);
      const credential = await issueSdJwtVc({ signer, iss: issuer, vct: vctOf(issuer, configurationId), claims, holderJwk, status, iat, exp: iat + VALIDITY_SECONDS });
      return { credential, ref: { format: 'dc+sd-jwt', credentialId, status: { uri: status.uri, idx: status.idx } } };
    },
  };
}
