import type { JsonWebKey } from 'node:crypto';
import type { Es256Signer } from '../../domain/keys/signer.port';

/**
 * The ES256 signer every OID4VC format shares (src/domain/keys/signer.port.ts; built by the
 * issuer-key service from a sealed P-256 key). COSE ES256 uses the same raw r||s signature form as
 * JOSE, so one signer serves both; its x5c becomes the COSE x5chain.
 */
export type MdocSigner = Es256Signer;

/**
 * Issuer trust: given the certificate chain the MSO carries, the public key to verify it with, or an
 * AppError (VERIFICATION_FAILED / INVALID_INPUT) when the chain does not lead to a trust anchor.
 * `now` is the verification time, so certificates are judged at the same instant as the MSO.
 */
export type MdocIssuerTrust = (input: { x5c?: string[]; iss?: string; kid?: string; now?: Date }) => Promise<{
  publicJwk: JsonWebKey;
  trustedBy: 'x5c' | 'did';
}>;

/** A Token Status List reference (draft-ietf-oauth-status-list: `status.status_list` of the MSO). */
export interface MdocStatusReference {
  uri: string;
  idx: number;
}

/** Claims of one document as plain JSON: namespace -> element identifier -> value. */
export type MdocClaims = Record<string, Record<string, unknown>>;

/**
 * Why a DeviceResponse did not verify. Codes are stable (tests and callers assert them); messages are
 * for people.
 */
export type MdocProblemCode =
  | 'RESPONSE_STATUS'
  | 'NO_DOCUMENTS'
  | 'DOC_TYPE_MISMATCH'
  | 'ISSUER_CERTIFICATE_MISSING'
  | 'ISSUER_UNTRUSTED'
  | 'ISSUER_SIGNATURE_INVALID'
  | 'ISSUER_CERTIFICATE_VALIDITY'
  | 'UNSUPPORTED_ALGORITHM'
  | 'DIGEST_ALGORITHM_UNSUPPORTED'
  | 'ELEMENT_DIGEST_MISSING'
  | 'ELEMENT_DIGEST_MISMATCH'
  | 'DUPLICATE_ELEMENT'
  /** An mDL's issuing_country is not the country of its document signer certificate (ISO 18013-5 §7.2.1). */
  | 'ISSUING_COUNTRY_MISMATCH'
  | 'NOT_YET_VALID'
  | 'EXPIRED'
  | 'DEVICE_KEY_INVALID'
  | 'DEVICE_AUTH_MISSING'
  | 'DEVICE_MAC_UNSUPPORTED'
  | 'DEVICE_SIGNATURE_INVALID'
  /** The status list says the mdoc is revoked (or suspended, or another non-valid status). */
  | 'STATUS_INVALID'
  /** The MSO names a status list that could not be read or is malformed. */
  | 'STATUS_UNAVAILABLE';

export interface MdocProblem {
  code: MdocProblemCode;
  message: string;
  /** Index of the document in the DeviceResponse the problem belongs to, when it belongs to one. */
  document?: number;
}

/** What the verifier learnt about one document. Claims hold only elements whose digest verified. */
export interface MdocVerifiedDocument {
  docType: string;
  claims: MdocClaims;
  /** The holder's key from the MSO (deviceKeyInfo.deviceKey) as a JWK. */
  deviceKeyJwk?: JsonWebKey;
  validity?: { signed: string; validFrom: string; validUntil: string };
  trustedBy?: 'x5c' | 'did';
  /** The status list entry the MSO names, if any. */
  status?: MdocStatusReference;
}

export interface VerifyDeviceResponseResult {
  verified: boolean;
  documents: MdocVerifiedDocument[];
  problems: MdocProblem[];
}
