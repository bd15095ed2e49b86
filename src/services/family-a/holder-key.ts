import { AppError } from '../../errors';
import { parseDidKey } from '../../domain/dids/did-key';
import { didMethodOf, parseServiceDid } from '../../domain/dids/service-did';
import { bytesToHex } from '../../domain/encoding';
import { parseEd25519PublicKey } from '../../domain/keys';
import type { DidRepository } from '../../domain/ports';

/**
 * Checks that `publicKeyB64` (Ed25519, base64) is the key of the holder DID, which is either a
 * registered service DID (any spelling) or an Ed25519 did:key. Returns the key bytes.
 */
export async function holderKeyOf(dids: DidRepository, did: string, publicKeyB64: string): Promise<Uint8Array> {
  const publicKey = parseEd25519PublicKey(publicKeyB64, 'publicKey');
  let keyHex: string | undefined;
  if (didMethodOf(did) === 'key') {
    const parsed = parseDidKey(did);
    keyHex = parsed.type === 'Ed25519' ? bytesToHex(parsed.publicKey) : undefined;
  } else {
    const ref = parseServiceDid(did);
    const record = ref ? await dids.findByDid(ref.did) : null;
    if (!record || record.deletedAt !== null || (ref?.ledgerFileId && ref.ledgerFileId !== record.ledgerFileId)) {
      throw new AppError('INVALID_DID', 'the did header names no registered user DID', [{ field: 'did', message: 'unknown DID' }]);
    }
    keyHex = record.keyAlgorithm === 'Ed25519' ? record.publicKeyHex : undefined;
  }
  if (keyHex !== bytesToHex(publicKey)) {
    throw new AppError('PUBLIC_KEY_MISMATCH', 'publicKey is not the key of the did', [{ field: 'publicKey', message: 'does not belong to did' }]);
  }
  return publicKey;
}
