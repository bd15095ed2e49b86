import { AppError } from '../../errors';
import type { DidDocument, VerificationMethod, VerificationRelationship } from '../../domain/dids/did-document.types';

export const VERIFICATION_RELATIONSHIPS = ['authentication', 'assertionMethod', 'keyAgreement', 'capabilityInvocation', 'capabilityDelegation'] as const;

function notADocument(did: string, why: string): AppError {
  return new AppError('DID_NOT_FOUND', `the document resolved for ${did} is not a valid DID document: ${why}`);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `#key-1` relative to the document becomes `did:…#key-1`; absolute ids stay. */
function absolute(did: string, id: string): string {
  return id.startsWith('#') ? `${did}${id}` : id;
}

function checkMethod(did: string, raw: unknown, where: string): VerificationMethod {
  if (!isObject(raw) || typeof raw.id !== 'string' || typeof raw.type !== 'string' || typeof raw.controller !== 'string') {
    throw notADocument(did, `${where} needs string id, type and controller`);
  }
  return { ...(raw as unknown as VerificationMethod), id: absolute(did, raw.id), controller: absolute(did, raw.controller) };
}

/**
 * Checks a document fetched from elsewhere and makes its references absolute, so proof checks
 * compare DID URLs without knowing the document they came from. Its `id` must be the DID asked
 * for: a host may not answer for another DID.
 */
export function checkRemoteDocument(did: string, raw: unknown): DidDocument {
  if (!isObject(raw)) throw notADocument(did, 'not a JSON object');
  if (raw.id !== did) throw notADocument(did, 'its id is not the DID that was resolved');
  const doc: Record<string, unknown> = { ...raw };
  if (doc.verificationMethod !== undefined) {
    if (!Array.isArray(doc.verificationMethod)) throw notADocument(did, 'verificationMethod must be an array');
    doc.verificationMethod = doc.verificationMethod.map((m, i) => checkMethod(did, m, `verificationMethod[${i}]`));
  }
  for (const rel of VERIFICATION_RELATIONSHIPS) {
    const list = doc[rel];
    if (list === undefined) continue;
    if (!Array.isArray(list)) throw notADocument(did, `${rel} must be an array`);
    doc[rel] = list.map((entry: unknown, i): VerificationRelationship => {
      if (typeof entry === 'string') return absolute(did, entry);
      return checkMethod(did, entry, `${rel}[${i}]`);
    });
  }
  return doc as unknown as DidDocument;
}

/** The verification method `id` (absolute DID URL) declared in, or embedded in a relationship of, `doc`. */
export function findVerificationMethod(doc: DidDocument, id: string): VerificationMethod | undefined {
  const own = doc.verificationMethod?.find((m) => absolute(doc.id, m.id) === id);
  if (own) return { ...own, id };
  for (const rel of VERIFICATION_RELATIONSHIPS) {
    for (const entry of doc[rel] ?? []) {
      if (typeof entry !== 'string' && absolute(doc.id, entry.id) === id) return { ...entry, id };
    }
  }
  return undefined;
}
