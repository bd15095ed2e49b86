/**
 * ISO/IEC 18013-5 mdoc (OID4VC format identifier `mso_mdoc`): doctype configurations, IssuerSigned
 * issuance, the holder's DeviceResponse and its verification for OpenID4VP 1.0 (Annex B).
 */
export const MDOC_FORMAT = 'mso_mdoc' as const;

export { issueMdoc, type IssueMdocInput } from './issue';
export { createDeviceResponse, type CreateDeviceResponseInput } from './present';
export { verifyDeviceResponse, verifyIssuerSigned, type VerifyDeviceResponseOptions, type VerifyIssuerSignedOptions } from './verify';
export { readIssuerSigned, type IssuerSignedSummary } from './read';
export {
  openId4VpHandoverInfoBytes,
  openId4VpSessionTranscript,
  type OpenId4VpHandoverInput,
} from './session-transcript';
export { jwkThumbprint } from './cose';
export {
  EUDI_PID,
  ISO_MDL,
  mdocDoctype,
  mdocDoctypes,
  type MdocDoctypeConfig,
  type MdocElementConfig,
  type MdocElementType,
} from './doctypes';
export { mdocClaimPath, mdocNamespacesFromAttributes, type MdocAttributeMapping, type MdocNamespaceValues } from './attributes';
export { MDOC_LIMITS } from './parse';
export type {
  MdocClaims,
  MdocIssuerTrust,
  MdocProblem,
  MdocProblemCode,
  MdocSigner,
  MdocStatusReference,
  MdocVerifiedDocument,
  VerifyDeviceResponseResult,
} from './types';
