export { bbs2023, bbs2023Format, DEFAULT_MANDATORY_POINTERS, mandatoryPointersFor } from './format';
export { Bbs2023Engine, bbs2023Engine, checkPointers, type BbsKeyPair, type BbsVerification } from './engine';
export { g2DidKey, g2PublicKeyOf, g2Multibase } from './did-key';
