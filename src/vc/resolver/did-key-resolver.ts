import { didKeyDocument } from '../../domain/dids/did-key';
import type { MethodResolver } from './types';

/**
 * did:key, computed from the identifier alone: the current form (one Multikey method with
 * publicKeyMultibase, contexts did/v1 + multikey/v1) for Ed25519, P-256, P-384 and secp256k1.
 * Parsing and key validation are src/domain/dids/did-key.ts's (INVALID_DID on any defect).
 */
export const didKeyResolver: MethodResolver = {
  method: 'key',
  name: 'key',
  remote: false,
  resolve: async (did) => didKeyDocument(did, { publicKeyFormat: 'publicKeyMultibase' }),
};
