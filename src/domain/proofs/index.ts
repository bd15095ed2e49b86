export {
  ED25519_SIGNATURE_2018,
  createVerifyData,
  signEd25519Signature2018,
  verifyEd25519Signature2018,
  type Ed25519Signature2018Verification,
  type JsonObject,
  type SignEd25519Signature2018Options,
  type SignEd25519Signature2018Proof,
  type VerifyEd25519Signature2018Options,
} from './ed25519-signature-2018';
export {
  DETACHED_EDDSA_HEADER,
  detachedSigningInput,
  isBytes,
  parseDetachedEdDsaJws,
  signDetachedEdDsaJws,
  signDetachedEdDsaJwsWith,
  verifyDetachedEdDsaJws,
  type JwsVerification,
  type ParsedDetachedJws,
} from './detached-jws';
export { proofHashes, type ProofHashInput, type ProofHashes } from './proof-hashes';
