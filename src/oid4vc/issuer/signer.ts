import type { JsonWebKey } from 'node:crypto';
/**
 * The issuer signer of the shared contract (built by src/services/oid4vc-keys.service.ts from a
 * sealed P-256 key): the private key never leaves it; `sign` returns the raw r||s form JOSE and
 * COSE both use.
 */
export interface IssuerSigner {
  readonly alg: 'ES256';
  readonly publicJwk: JsonWebKey;
  /** base64 DER, leaf first. */
  readonly x5c?: string[];
  readonly kid?: string;
  sign(data: Uint8Array): Promise<Uint8Array>;
}

/** Where the issuer's signer of a tenant comes from (K's issuer keys). */
export interface IssuerSignerSource {
  signerFor(tenantId: string): Promise<IssuerSigner>;
}
