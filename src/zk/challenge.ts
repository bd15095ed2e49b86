import { createHash } from 'node:crypto';
import { invalidInput } from '../errors';

/**
 * Who a zero-knowledge proof is for and which of their requests it answers. Both go into the
 * proof's context (with the evaluation time), so the proof verifies only for this verifier, this
 * nonce and a short time after it was made: replayed to another verifier, with another nonce or
 * later, it fails.
 */
export interface VerifierChallenge {
  readonly verifierId: string;
  readonly nonce: string;
}

const PRINTABLE = /^[\x21-\x7e]+$/;

export function parseVerifierChallenge(raw: unknown, field = 'verifierChallenge'): VerifierChallenge {
  const bad = (message: string) => invalidInput(`${field} ${message}`, [{ field, message }]);
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw bad('must be an object { verifierId, nonce } for proofSystem bbs-bulletproofs');
  const { verifierId, nonce, ...rest } = raw as Record<string, unknown>;
  if (Object.keys(rest).length > 0) throw bad('has unknown fields');
  if (typeof verifierId !== 'string' || verifierId.length < 1 || verifierId.length > 512 || !PRINTABLE.test(verifierId)) throw bad('verifierId must be 1-512 printable characters');
  // At least 16 characters: a nonce a prover could guess in advance would let it precompute proofs.
  if (typeof nonce !== 'string' || nonce.length < 16 || nonce.length > 256 || !PRINTABLE.test(nonce)) throw bad('nonce must be 16-256 printable characters');
  return { verifierId, nonce };
}

/** The proof's nonce: a hash of verifier, nonce and evaluation time (domain-separated). */
export function proofNonce(c: VerifierChallenge, evaluatedAt: string): Uint8Array {
  return new Uint8Array(createHash('sha256').update(`credgate/zk/nonce/v1\n${c.verifierId}\n${c.nonce}\n${evaluatedAt}`).digest());
}
