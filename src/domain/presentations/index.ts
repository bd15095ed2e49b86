/**
 * Selective-disclosure credentials (SD-JWT-style salted digests) and holder-signed verifiable
 * presentations (spec §2.11, POST /create-vp, POST /verify-vp). Pure.
 */
export {
  MAX_DISCLOSURE_LENGTH,
  MAX_SD_ATTRIBUTES,
  SD_ALG,
  SD_SALT_BYTES,
  type DisclosedCredentialCheck,
  type DisclosedCredentialInput,
  type DisclosureCheck,
  type ParsedDisclosure,
  type SdCommitmentInput,
  type SdCredentialPayload,
  checkDisclosedCredential,
  createDisclosure,
  createSdCredentialPayload,
  disclosureDigest,
  parseDisclosure,
  sdCommitment,
  sdDigestList,
  verifyDisclosure,
} from './sd-credential';
export {
  PRESENTATION_CLOCK_SKEW_MS,
  PRESENTATION_CONTEXT,
  PRESENTATION_PROOF_PURPOSE,
  PRESENTATION_PROOF_TYPE,
  type PresentationExpectations,
  type PresentationProof,
  type PresentationProofOptions,
  type PresentationVerification,
  type SignedPresentation,
  buildPresentationSigningInput,
  presentationShapeProblem,
  signPresentation,
  verifyPresentationSignature,
} from './presentation';
