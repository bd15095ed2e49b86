/**
 * W3C DID Core 1.0 document shapes (https://www.w3.org/TR/did-core/), limited to the members this
 * service produces or reads. Optional members are omitted rather than set to undefined, so that
 * documents compare deep-equal to published vectors.
 */

/** A public JWK as embedded in `publicKeyJwk` (RFC 7517); private members never appear here. */
export interface PublicKeyJwk {
  kty: string;
  crv?: string;
  x?: string;
  y?: string;
  n?: string;
  e?: string;
  kid?: string;
  alg?: string;
  use?: string;
}

export interface VerificationMethod {
  /** Absolute DID URL, e.g. `did:key:z6Mk...#z6Mk...`. */
  id: string;
  type: string;
  controller: string;
  publicKeyBase58?: string;
  publicKeyMultibase?: string;
  publicKeyJwk?: PublicKeyJwk;
}

/** A verification relationship entry: a reference to a verification method or an embedded one. */
export type VerificationRelationship = string | VerificationMethod;

export interface ServiceEndpoint {
  id: string;
  type: string | string[];
  serviceEndpoint: string | Record<string, unknown> | (string | Record<string, unknown>)[];
}

export interface DidDocument {
  '@context': string | (string | Record<string, unknown>)[];
  id: string;
  controller?: string | string[];
  alsoKnownAs?: string[];
  verificationMethod?: VerificationMethod[];
  authentication?: VerificationRelationship[];
  assertionMethod?: VerificationRelationship[];
  keyAgreement?: VerificationRelationship[];
  capabilityInvocation?: VerificationRelationship[];
  capabilityDelegation?: VerificationRelationship[];
  service?: ServiceEndpoint[];
}
