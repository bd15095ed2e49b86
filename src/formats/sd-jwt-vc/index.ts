/** SD-JWT VC (`dc+sd-jwt`): issue, verify, present. See docs/ARCHITECTURE.md "Formats". */
export { issueSdJwtVc, SD_JWT_VC_TYP, RESERVED_CLAIMS, type IssueSdJwtVcInput } from './issue';
export { verifySdJwtVc, SD_JWT_SKEW_SECONDS, type VerifySdJwtVcOptions, type SdJwtVcVerification, type KeyBindingExpectation } from './verify';
export { presentSdJwtVc, type PresentSdJwtVcInput } from './present';
export { splitSdJwt, type SplitSdJwt } from './compact';
export { buildTypeMetadata, type TypeMetadata } from './type-metadata';
export type { JoseSigner, JsonWebKey, IssuerTrust, IssuerTrustInput, SdJwtProblem, SdJwtProblemCode, StatusListReference } from './types';
