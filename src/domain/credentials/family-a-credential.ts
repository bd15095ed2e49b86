import { CREDENTIALS_V1_URL, CREDGATE_V1_CONTEXT_URL } from '../contexts';
import { ED25519_SIGNATURE_2018 } from '../proofs';

export const FAMILY_A_CONTEXT = [CREDENTIALS_V1_URL, CREDGATE_V1_CONTEXT_URL] as const;
export const ENCRYPTED_TYPE = 'Encrypted';
export const ROOT_KEY_FRAGMENT = 'did-root-key';

/**
 * The JSON-LD base of the Family A proof profile. An encrypted subject's values, `id` included,
 * are base64 text; `id` is an IRI-valued keyword, so base64 there is a relative reference that
 * safe-mode canonicalization would refuse. Resolving it against this base keeps it covered by the
 * proof. Ciphertexts start with the version character 'A' and use only the base64 alphabet (see
 * `isCiphertextText`), so two different values can never resolve to one IRI.
 */
export const FAMILY_A_JSONLD_BASE = 'https://credgate.dev/ciphertext/';

/** Strict shape of a version-1 value ciphertext: base64 whose first byte is 0x01. */
export function isCiphertextText(v: unknown): boolean {
  return typeof v === 'string' && /^A[A-Za-z0-9+/]*={0,2}$/.test(v) && v.length % 4 === 0;
}

export interface FamilyACredentialInput {
  readonly id: string;
  readonly schemaName: string;
  readonly schemaVersion: number;
  readonly schemaUrl: string;
  readonly issuer: string;
  readonly subject: Record<string, unknown>;
  readonly issuanceDate: Date;
  readonly expirationDate: Date;
  readonly encrypted: boolean;
  readonly biometrics: FamilyABiometrics;
}

/**
 * `biometrics` of reference 2.4: `face` / `iris` / `finger`, each null when absent (`face` carries a
 * salted commitment, never a template: see face-commitment.ts); the update (re-issue) response
 * shows an empty object.
 */
export type FamilyABiometrics = { face: string | null; iris: string | null; finger: string | null } | Record<string, never>;

/** A second-precision ISO 8601 UTC date-time, as credentials carry them. */
export function isoSeconds(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The credential of interface reference 2.4, without `proof` and `credentialStatus`. */
export function buildUnsignedCredential(i: FamilyACredentialInput): Record<string, unknown> {
  return {
    '@context': [...FAMILY_A_CONTEXT],
    id: i.id,
    type: ['VerifiableCredential', i.schemaName, ...(i.encrypted ? [ENCRYPTED_TYPE] : [])],
    version: `${i.schemaName}:${i.schemaVersion}`,
    credentialSchema: { id: i.schemaUrl, type: 'JsonSchemaValidator2018' },
    issuer: i.issuer,
    credentialSubject: [i.subject],
    issuanceDate: isoSeconds(i.issuanceDate),
    expirationDate: isoSeconds(i.expirationDate),
    biometrics: { ...i.biometrics },
  };
}

export function proofOptions(issuer: string, created: Date): Record<string, unknown> {
  return {
    type: ED25519_SIGNATURE_2018,
    creator: issuer,
    created: isoSeconds(created),
    proofPurpose: 'assertionMethod',
    vcVerificationMethod: `${issuer}#${ROOT_KEY_FRAGMENT}`,
  };
}

/**
 * `credentialStatus` is the empty string in every shape the reference shows, and credentials/v1
 * defines it as an IRI, so `''` cannot be part of the Linked Data proof. It is therefore added
 * after signing and verification requires it to be exactly `''`: any other value is tampering.
 * Returns the document the proof covers, or undefined when credentialStatus is not `''`.
 */
export function proofCoveredPart(credential: Record<string, unknown>): Record<string, unknown> | undefined {
  const { credentialStatus, ...rest } = credential;
  return credentialStatus === '' ? rest : undefined;
}

export function withCredentialStatus(signed: Record<string, unknown>): Record<string, unknown> {
  return { ...signed, credentialStatus: '' };
}

/** The one subject object a Family A credential carries. */
export function subjectOfCredential(credential: Record<string, unknown>): Record<string, unknown> | undefined {
  const s = credential['credentialSubject'];
  const one = Array.isArray(s) && s.length === 1 ? s[0] : undefined;
  return one !== null && typeof one === 'object' && !Array.isArray(one) ? (one as Record<string, unknown>) : undefined;
}
