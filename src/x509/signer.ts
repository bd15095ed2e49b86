import type { Es256Signer } from '../domain/keys/signer.port';

/**
 * The signer of the OID4VC formats: the one ES256 signer port (src/domain/keys/signer.port.ts), one
 * P-256 key, its public JWK, optionally its certificate chain. `sign` returns the raw IEEE P1363
 * `r || s` form that JOSE (ES256) and COSE (ES256) both carry; the private key never leaves the
 * object that built it.
 */
export type Signer = Es256Signer;
