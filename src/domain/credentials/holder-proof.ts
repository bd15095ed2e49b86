import { invalidInput } from '../../errors';
import { canonicalBytes } from '../canonical';
import { parseSignatureHex } from './user-signature';

export const HOLDER_PROOF_PURPOSE = 'credgate-holder-proof/v1';
export const HOLDER_PROOF_ACTIONS = ['verify', 'revoke'] as const;
export type HolderProofAction = (typeof HOLDER_PROOF_ACTIONS)[number];

/** A verifier's challenge: long enough to be unpredictable, printable so it travels in JSON and logs safely. */
const NONCE = /^[\x21-\x7e]{16,256}$/;

export function parseNonce(v: unknown, field = 'nonce'): string {
  if (typeof v !== 'string' || !NONCE.test(v)) throw invalidInput(`${field} must be 16 to 256 printable ASCII characters chosen by the verifier`, [{ field, message: '16..256 printable ASCII' }]);
  return v;
}

export function parseHolderProofAction(v: unknown, field = 'purpose'): HolderProofAction {
  if (typeof v !== 'string' || !(HOLDER_PROOF_ACTIONS as readonly string[]).includes(v)) {
    throw invalidInput(`${field} must be one of ${HOLDER_PROOF_ACTIONS.join(', ')}`, [{ field, message: HOLDER_PROOF_ACTIONS.join(' | ') }]);
  }
  return v as HolderProofAction;
}

/**
 * What a holder signs, with the credential's holder key, to prove possession now rather than
 * replay the issuance-time userSignature: the UTF-8 bytes of the RFC 8785 JSON of
 *
 *   { "purpose": "credgate-holder-proof/v1", "action": "verify", "credentialId": <id>, "nonce": <verifier's nonce> }
 *   { "purpose": "credgate-holder-proof/v1", "action": "revoke", "credentialId": <id> }
 *
 * The action keeps a presentation proof from revoking and a revocation proof from presenting;
 * the credential id keeps either from moving to another credential; the nonce (the verifier's
 * fresh challenge) keeps a captured presentation proof from answering the next challenge. A
 * revocation needs no nonce: replaying it can only revoke the same credential again (409).
 */
export function holderProofBytes(action: HolderProofAction, credentialId: string, nonce?: string): Uint8Array {
  if (action === 'verify') {
    if (nonce === undefined) throw invalidInput('a verify holder proof needs the verifier nonce', [{ field: 'nonce', message: 'required' }]);
    return canonicalBytes({ purpose: HOLDER_PROOF_PURPOSE, action, credentialId, nonce });
  }
  return canonicalBytes({ purpose: HOLDER_PROOF_PURPOSE, action, credentialId });
}

export interface ChallengeProof {
  readonly nonce: string;
  readonly signature: Uint8Array;
}

/** `holderProof: { nonce, signature }` of a verification request. */
export function parseChallengeProof(v: unknown, field = 'holderProof'): ChallengeProof {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw invalidInput(`${field} must be { nonce, signature }`, [{ field, message: 'object' }]);
  const o = v as Record<string, unknown>;
  const extra = Object.keys(o).filter((k) => k !== 'nonce' && k !== 'signature');
  if (extra.length > 0) throw invalidInput(`${field} has unknown members: ${extra.slice(0, 5).join(', ')}`);
  const signature = o['signature'];
  if (typeof signature !== 'string') throw invalidInput(`${field}.signature must be hex`, [{ field: `${field}.signature`, message: '128 hex digits' }]);
  return { nonce: parseNonce(o['nonce'], `${field}.nonce`), signature: parseSignatureHex(signature, `${field}.signature`) };
}
