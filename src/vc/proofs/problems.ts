import type { VcProblem } from '../ports';

/**
 * Stable problem types of proof verification. Callers (VC-API, GraphQL) surface `type`; tests
 * assert it. Titles are fixed; `detail` says which member or value was at fault, never key bytes.
 */
export const PROOF_PROBLEM = {
  MISSING_PROOF: 'MISSING_PROOF',
  MALFORMED_PROOF: 'MALFORMED_PROOF',
  UNSUPPORTED_PROOF_SUITE: 'UNSUPPORTED_PROOF_SUITE',
  PROOF_PURPOSE_MISMATCH: 'PROOF_PURPOSE_MISMATCH',
  INVALID_PROOF_DATETIME: 'INVALID_PROOF_DATETIME',
  PROOF_CREATED_IN_FUTURE: 'PROOF_CREATED_IN_FUTURE',
  PROOF_EXPIRED: 'PROOF_EXPIRED',
  CHALLENGE_MISMATCH: 'CHALLENGE_MISMATCH',
  DOMAIN_MISMATCH: 'DOMAIN_MISMATCH',
  PROOF_CONTEXT_MISMATCH: 'PROOF_CONTEXT_MISMATCH',
  VERIFICATION_METHOD_NOT_FOUND: 'VERIFICATION_METHOD_NOT_FOUND',
  VERIFICATION_METHOD_KEY_MISMATCH: 'VERIFICATION_METHOD_KEY_MISMATCH',
  VERIFICATION_METHOD_NOT_AUTHORIZED: 'VERIFICATION_METHOD_NOT_AUTHORIZED',
  CONTROLLER_MISMATCH: 'CONTROLLER_MISMATCH',
  INVALID_JSONLD: 'INVALID_JSONLD',
  PREVIOUS_PROOF_NOT_FOUND: 'PREVIOUS_PROOF_NOT_FOUND',
  PROOF_VERIFICATION_ERROR: 'PROOF_VERIFICATION_ERROR',
  UNSIGNED_CONTENT: 'UNSIGNED_CONTENT',
} as const;

export type ProofProblemType = (typeof PROOF_PROBLEM)[keyof typeof PROOF_PROBLEM];

const TITLES: Record<ProofProblemType, string> = {
  MISSING_PROOF: 'The document has no proof',
  MALFORMED_PROOF: 'The proof is malformed',
  UNSUPPORTED_PROOF_SUITE: 'The proof suite is not supported',
  PROOF_PURPOSE_MISMATCH: 'The proof purpose is not the expected one',
  INVALID_PROOF_DATETIME: 'A proof date is not a valid XMLSchema dateTime',
  PROOF_CREATED_IN_FUTURE: 'The proof was created in the future',
  PROOF_EXPIRED: 'The proof has expired',
  CHALLENGE_MISMATCH: 'The proof challenge does not match',
  DOMAIN_MISMATCH: 'The proof domain does not match',
  PROOF_CONTEXT_MISMATCH: "The proof's @context differs from the document's",
  VERIFICATION_METHOD_NOT_FOUND: 'The verification method could not be found',
  VERIFICATION_METHOD_KEY_MISMATCH: 'The verification method holds no key this suite can use',
  VERIFICATION_METHOD_NOT_AUTHORIZED: 'The verification method is not authorized for the proof purpose',
  CONTROLLER_MISMATCH: 'The verification method is not controlled by the expected controller',
  INVALID_JSONLD: 'The document cannot be canonicalised',
  PREVIOUS_PROOF_NOT_FOUND: 'A proof named in previousProof is not in the document',
  PROOF_VERIFICATION_ERROR: 'The signature does not match the document',
  UNSIGNED_CONTENT: 'The document has content its proof does not cover',
};

export function problem(type: ProofProblemType, detail?: string): VcProblem {
  return detail === undefined ? { type, title: TITLES[type] } : { type, title: TITLES[type], detail };
}
