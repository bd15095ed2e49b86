import { AppError, invalidInput } from '../../errors';
import { canonicalBytes } from '../canonical';

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
 * Exactly what a user signature covers: the UTF-8 bytes of the RFC 8785 canonical JSON of the
 * subject object `{ id: <user DID>, <attribute>: <value as sent>, ... }`, with values exactly as
 * the holder will submit them (Family A sends numbers and dates as strings).
 */
export function userSignatureBytes(subject: Subject): Uint8Array {
  return canonicalBytes(subject);
}

export function parseSignatureHex(sig: string, field = 'userSignature'): Uint8Array {
  if (!/^[0-9a-fA-F]{128}$/.test(sig)) {
    throw new AppError('INVALID_INPUT', `${field} must be a 64-byte Ed25519 signature in hex`, [{ field, message: '128 hex digits' }]);
  }
  return Uint8Array.from(Buffer.from(sig, 'hex'));
}
