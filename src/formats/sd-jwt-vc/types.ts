/**
 * The shared contracts of issue 21 as this format needs them. They are structural, so the
 * signers built by src/services/oid4vc-keys.service.ts and the trust functions of src/x509 fit
 * without this folder importing them.
 */
import type { JsonWebKey } from 'node:crypto';

export type { JsonWebKey };

/** An ES256 signing key that never leaves its owner: only `sign` touches the private key. */
export interface JoseSigner {
  readonly alg: 'ES256';
  readonly publicJwk: JsonWebKey;
  /** Certificate chain, base64 DER, leaf first; put in the `x5c` header when present. */
  readonly x5c?: readonly string[] | undefined;
  /** Key id for the `kid` header when there is no chain (e.g. a DID URL). */
  readonly kid?: string | undefined;
  /** Raw r||s (IEEE P1363), as JOSE carries it. */
  sign(data: Uint8Array): Promise<Uint8Array>;
}

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
