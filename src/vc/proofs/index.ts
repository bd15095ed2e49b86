export { addProof, createDataIntegrityProof } from './add-proof';
export { verifyProof, MAX_CLOCK_SKEW_MS, MAX_PROOFS } from './verify-proof';
export { SUPPORTED_PROOF_SUITES, DATA_INTEGRITY_SUITES, suiteForSigning } from './suites';
export { PROOF_PROBLEM, type ProofProblemType } from './problems';
export { hashData, type HashIntermediates } from './hash-data';
export type { ProofEnvironment } from './context';
