/**
 * The shared contracts of issue 21 as this format needs them. They are structural, so the
 * signers built by src/services/oid4vc-keys.service.ts and the trust functions of src/x509 fit
 * without this folder importing them.
 */
import type { JsonWebKey } from 'node:crypto';
import type { Es256Signer } from '../../domain/keys/signer.port';

export type { JsonWebKey };

/**
 * An ES256 signing key that never leaves its owner: only `sign` touches the private key. The one
 * signer port (src/domain/keys/signer.port.ts); x5c goes in the `x5c` header, else kid in `kid`.
 */
export type JoseSigner = Es256Signer;

/** What a verifier knows about the issuer from the credential's header and payload. */
export interface IssuerTrustInput {
  // Mutable arrays and plain optionals: the contract's trust functions are typed that way.
  x5c?: string[];
  iss?: string;
  kid?: string;
}

/**
 * Decides whether the issuer is trusted and which key signed for it; throws an AppError
 * (VERIFICATION_FAILED or INVALID_INPUT) when it is not.
 */
export type IssuerTrust = (input: IssuerTrustInput) => Promise<{ publicJwk: JsonWebKey; trustedBy: 'x5c' | 'did' }>;

/** One reason a credential did not verify; `code` is stable, `message` is for people. */
export interface SdJwtProblem {
  readonly code: SdJwtProblemCode;
  readonly message: string;
}

export type SdJwtProblemCode =
  | 'malformed'
  | 'wrong_typ'
  | 'unsupported_alg'
  | 'untrusted_issuer'
  | 'bad_signature'
  | 'unsupported_sd_alg'
  | 'duplicate_disclosure'
  | 'unreferenced_disclosure'
  | 'duplicate_digest'
  | 'duplicate_claim'
  | 'missing_claim'
  | 'expired'
  | 'not_yet_valid'
  | 'issued_in_future'
  | 'key_binding_missing'
  | 'key_binding_invalid'
  | 'status_invalid'
  | 'status_unavailable';

/** A Token Status List reference (`status.status_list` of the SD-JWT). */
export interface StatusListReference {
  readonly uri: string;
  readonly idx: number;
}
