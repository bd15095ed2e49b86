import type { JsonWebKey } from 'node:crypto';

/**
 * The signer of the OID4VC formats (shared contract of issue 21): one P-256 key, its public JWK,
 * optionally its certificate chain. `sign` returns the raw IEEE P1363 `r || s` form that JOSE
 * (ES256) and COSE (ES256) both carry; the private key never leaves the object that built it.
 */
export interface Signer {
  readonly alg: 'ES256';
  readonly publicJwk: JsonWebKey;
  /** Standard base64 DER certificates, leaf first (the JOSE/COSE `x5c` header). */
  readonly x5c?: string[];
  readonly kid?: string;
  sign(data: Uint8Array): Promise<Uint8Array>;
}
