import { AppError, invalidInput } from '../../errors';
import { canonicalBytes } from '../canonical';
import { SCHEMA_REFERENCE_PATTERN } from '../schemas/schema-request';

export type Subject = Record<string, unknown>;

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * The subject a holder signs with POST /user/sign: `payload.credentialSubject` (an object, or
 * the one-element array a credential carries). The subject must name the holder in `id`.
 */
export function subjectOfPayload(payload: unknown): Subject {
  if (!isObject(payload)) throw invalidInput('payload must be an object holding credentialSubject, or a credential');
  let subject = payload['credentialSubject'];
  if (Array.isArray(subject)) {
    if (subject.length !== 1) throw invalidInput('credentialSubject must hold exactly one subject');
    subject = subject[0];
  }
  if (!isObject(subject)) throw invalidInput('payload.credentialSubject must be an object', [{ field: 'payload.credentialSubject', message: 'required object' }]);
  if (typeof subject['id'] !== 'string' || !subject['id'].startsWith('did:')) {
    throw invalidInput('credentialSubject.id must be the user DID', [{ field: 'payload.credentialSubject.id', message: 'required DID' }]);
  }
  return subject;
}

/**
 * The subject alone, RFC 8785 canonical JSON. This was the whole of the v1 user signature; it is
 * no longer accepted as consent (any issuer could replay it), and remains only for the issuer-key
 * branch of revocation.
 */
export function userSignatureBytes(subject: Subject): Uint8Array {
  return canonicalBytes(subject);
}

export const CONSENT_PURPOSE = 'credgate-user-consent/v2';

/** Whom the holder consents to: the issuer DID (as GET /issuer/did spells it) and, optionally, one schema. */
export interface ConsentBinding {
  readonly issuerDid: string;
  /** `<name>` or `<name>:<version>`; null when the holder did not name one (any schema of that issuer). */
  readonly schemaName: string | null;
}

/**
 * Exactly what a user signature (consent to issuance) covers: the UTF-8 bytes of the RFC 8785
 * canonical JSON of
 *
 *   { "purpose": "credgate-user-consent/v2", "issuerDid": <issuer DID>, "schemaName": <name | name:version | null>,
 *     "subject": { "id": <user DID>, <attribute>: <value as sent>, ... } }
 *
 * Binding the issuer stops another tenant's issuer from replaying a captured signature as consent;
 * binding the schema (when named) stops a reuse under another schema of the same issuer.
 */
export function consentBytes(subject: Subject, binding: ConsentBinding): Uint8Array {
  return canonicalBytes({ purpose: CONSENT_PURPOSE, issuerDid: binding.issuerDid, schemaName: binding.schemaName, subject });
}

/** The optional `schemaName` of POST /user/sign: `<name>` or `<name>:<version>`. */
export function parseConsentSchemaName(v: unknown, field = 'schemaName'): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string' || !SCHEMA_REFERENCE_PATTERN.test(v)) throw invalidInput(`${field} must be a schema name, optionally with :<version>`, [{ field, message: 'name or name:version' }]);
  return v;
}

export function parseSignatureHex(sig: string, field = 'userSignature'): Uint8Array {
  if (!/^[0-9a-fA-F]{128}$/.test(sig)) {
    throw new AppError('INVALID_INPUT', `${field} must be a 64-byte Ed25519 signature in hex`, [{ field, message: '128 hex digits' }]);
  }
  return Uint8Array.from(Buffer.from(sig, 'hex'));
}
