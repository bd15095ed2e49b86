import { invalidInput } from '../errors';

/**
 * The additive `proofSystem` selector of the reference's ZKP operations. `attestation` (the default,
 * what the operations always did) is the issuer's signature over the evaluated outcome;
 * `bbs-bulletproofs` is a zero-knowledge proof: a BBS signature over the attributes and
 * Bulletproofs++ range proofs that the hidden values satisfy the condition.
 */
export const PROOF_SYSTEMS = ['attestation', 'bbs-bulletproofs'] as const;
export type ProofSystem = (typeof PROOF_SYSTEMS)[number];
export const DEFAULT_PROOF_SYSTEM: ProofSystem = 'attestation';

export function parseProofSystem(raw: unknown, field = 'proofSystem'): ProofSystem {
  if (raw === undefined || raw === null) return DEFAULT_PROOF_SYSTEM;
  if (typeof raw === 'string' && (PROOF_SYSTEMS as readonly string[]).includes(raw)) return raw as ProofSystem;
  throw invalidInput(`${field} must be one of ${PROOF_SYSTEMS.join(', ')}`, [{ field, message: `one of ${PROOF_SYSTEMS.join(', ')}` }]);
}
