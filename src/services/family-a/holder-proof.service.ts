import { invalidInput } from '../../errors';
import { holderProofBytes, parseHolderProofAction, parseNonce } from '../../domain/credentials/holder-proof';
import { bytesToHex } from '../../domain/encoding';
import { ed25519Sign, parseEd25519PrivateKey } from '../../domain/keys';

export interface HolderProofInput {
  readonly credentialId: unknown;
  readonly purpose: unknown;
  readonly nonce?: unknown;
}

/**
 * POST /user/holderProof: the holder's fresh proof of possession (`holderProofBytes`), computed
 * with the holder's key like POST /user/sign; nothing is stored. A holder can compute the same
 * signature offline from the documented signing input.
 */
export class HolderProofService {
  sign(privateKeyB64: string, input: HolderProofInput): string {
    const { credentialId, purpose, nonce } = input;
    if (typeof credentialId !== 'string' || credentialId === '' || credentialId.length > 300) {
      throw invalidInput('credentialId must be the credential id', [{ field: 'credentialId', message: 'required string' }]);
    }
    const action = parseHolderProofAction(purpose);
    const hasNonce = nonce !== undefined && nonce !== null;
    if (action === 'revoke' && hasNonce) throw invalidInput('a revocation proof takes no nonce', [{ field: 'nonce', message: 'not allowed for revoke' }]);
    const bytes = holderProofBytes(action, credentialId, action === 'verify' ? parseNonce(nonce) : undefined);
    const seed = parseEd25519PrivateKey(privateKeyB64, 'privateKey');
    try {
      return bytesToHex(ed25519Sign(bytes, seed));
    } finally {
      seed.fill(0);
    }
  }
}
