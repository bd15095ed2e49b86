/**
 * The seams of the W3C interop module (src/vc): proofs, DID resolution, status lists and the
 * VC-API service meet only through these types, so each part is built and tested on its own.
 *
 * - src/vc/proofs    Data Integrity (eddsa-rdfc-2022, eddsa-jcs-2022, ecdsa-rdfc-2019), Ed25519Signature2020,
 *                    and the seed's Ed25519Signature2018 / EcdsaSecp256k1Signature2019 (verify).
 * - src/vc/jwt       VC-JOSE-COSE (`application/vc+jwt`, VCDM 2.0) and VC-JWT 1.1 (`vc` claim), with jose.
 * - src/vc/model     VCDM 1.1 / 2.0 shape and validity-period checks.
 * - src/vc/resolver  did:key, did:web (HTTPS, cache, timeout), the service's own method, Universal Resolver.
 * - src/vc/status    BitstringStatusList: entries, list credentials, dereferencing with a cache.
 */
import type { DidDocument, VerificationMethod } from '../domain/dids/did-document.types';
import { type DataIntegrityCryptosuite, ISSUING_SUITES, type IssuerKeyType, type IssuingSuite, type SigningKeyType } from '../domain/vc-issuers';

export type JsonObject = Record<string, unknown>;

// The suites and key types an issuer instance is stored with are the domain's (src/domain/vc-issuers.ts).
export { type DataIntegrityCryptosuite, ISSUING_SUITES, type IssuerKeyType, type IssuingSuite, type SigningKeyType };

export type ProofPurpose = 'assertionMethod' | 'authentication';

/** A key the service holds, by key type and verification method: the one signer port's (src/domain/keys/signer.port.ts). */
export type { ProofSigner } from '../domain/keys/signer.port';

export interface AddProofOptions {
  readonly suite: Exclude<IssuingSuite, 'vc+jwt' | 'bbs-2023'>;
  readonly proofPurpose: ProofPurpose;
  /** XMLSchema dateTime; defaults to now, whole seconds, `Z`. */
  readonly created?: string;
  readonly challenge?: string;
  readonly domain?: string;
}

/** A verification method found through its controller's DID document. */
export interface DereferencedMethod {
  readonly method: VerificationMethod;
  /** The controller's document: proof checks use it to see the method is authorized for the purpose. */
  readonly controllerDocument: DidDocument;
}

export interface ResolutionResult {
  readonly didDocument: DidDocument;
  /** Which resolver answered: 'key' | 'web' | 'service' | 'universal'. */
  readonly method: string;
}

/**
 * DID resolution. Failures throw AppErrors: INVALID_DID (malformed), DID_NOT_FOUND (resolved to
 * nothing), UNSUPPORTED_DID_METHOD (no resolver), SERVICE_UNAVAILABLE (a remote was down/slow).
 */
export interface DidResolver {
  resolve(did: string): Promise<ResolutionResult>;
  /** `didUrl` must carry a fragment (or be a did:key, whose one method is implied). */
  dereferenceMethod(didUrl: string): Promise<DereferencedMethod>;
}

/** One failed or passed check, reported as the VC-API reports checks. */
export interface VcProblem {
  /** A stable machine name, e.g. 'PROOF_VERIFICATION_ERROR', 'EXPIRED', 'REVOKED', 'UNKNOWN_CONTEXT'. */
  readonly type: string;
  readonly title: string;
  readonly detail?: string;
}

export interface ProofVerifyOptions {
  readonly resolver: DidResolver;
  readonly expectedProofPurpose: ProofPurpose;
  readonly challenge?: string;
  readonly domain?: string | readonly string[];
  /** The issuer (credential) or holder (presentation) the proof must be made by: the method's controller. */
  readonly expectedController?: string;
}

export interface ProofVerification {
  readonly verified: boolean;
  /** 'DataIntegrityProof/eddsa-rdfc-2022', 'Ed25519Signature2020', 'vc+jwt', … */
  readonly suite?: string;
  readonly verificationMethod?: string;
  /**
   * The controller of each proof's verification method, in proof order, when every method was
   * dereferenced: what an issuer (or holder) binding is checked against.
   */
  readonly controllers?: readonly string[];
  readonly errors: readonly VcProblem[];
}

/** Dereferences a status list credential (over HTTP(S), or locally for the service's own lists). */
export interface StatusListSource {
  fetchStatusListCredential(url: string): Promise<JsonObject>;
}

export interface StatusCheck {
  readonly purpose: string;
  /** true when the bit is set (revoked / suspended / …). */
  readonly set: boolean;
  readonly statusListCredential: string;
  readonly index: number;
}
