import type { Es256Signer } from '../../domain/keys/signer.port';
/**
 * The issuer signer (the one ES256 signer port, src/domain/keys/signer.port.ts; built by
 * src/services/oid4vc-keys.service.ts from a sealed P-256 key): the private key never leaves it;
 * `sign` returns the raw r||s form JOSE and COSE both use.
 */
export type IssuerSigner = Es256Signer;

/** Where the issuer's signer of a tenant comes from (K's issuer keys). */
export interface IssuerSignerSource {
  signerFor(tenantId: string): Promise<IssuerSigner>;
}
