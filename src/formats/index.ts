export { formats, FormatRegistry } from './registry';
export type {
  AnyCredentialFormat,
  CredentialFormat,
  FormatStatus,
  FormatVerification,
  IssuerTrust,
  Oid4vciFormatId,
  PresentationSupport,
  StatusReference,
  VcApiSuite,
  VerifyContext,
  W3cCredentialFormat,
  W3cIssueRequest,
  W3cPresentRequest,
} from './format';
export { OID4VCI_FORMAT_IDS } from './format';
