import { createHash } from 'node:crypto';
import { base58btcEncode, hexToBytes } from '../encoding';
import type { DidRecord, KeyAlgorithm } from '../ports';
import type { DidDocument, VerificationMethod } from './did-document.types';
import { formatDocumentId, formatFamilyADid } from './service-did';

/** A public key entry of the Family B DID document (interface reference 2.10). */
export interface DidRecordKey {
  readonly id: string;
  readonly type: string;
  readonly publicKeyHex: string;
  readonly _id: string;
}

/**
 * The Family B DID document (interface reference 2.10), as GET /dids returns it. A did:key is
 * computed, never stored: it has no record id, ledger topics or file, nor creation dates, so its
 * document leaves those members out rather than showing them as null.
 */
export interface DidRecordDocument {
  readonly _id?: string;
  readonly id: string;
  readonly topicId?: string;
  readonly templateTopicId?: string;
  readonly publicKey: readonly DidRecordKey[];
  readonly authentication: readonly string[];
  readonly service: readonly unknown[];
  readonly created?: string;
  readonly updated?: string;
  readonly ledgerFileId?: string;
  readonly __v: number;
}

const RECORD_KEY_TYPE: Record<KeyAlgorithm, string> = {
  secp256k1: 'Secp256k1VerificationKey2018',
  Ed25519: 'Ed25519VerificationKey2018',
};

const W3C_KEY: Record<KeyAlgorithm, { type: string; context: string }> = {
  secp256k1: { type: 'EcdsaSecp256k1VerificationKey2019', context: 'https://w3id.org/security/suites/secp256k1-2019/v1' },
  Ed25519: { type: 'Ed25519VerificationKey2018', context: 'https://w3id.org/security/suites/ed25519-2018/v1' },
};

/** A stable 24-hex sub-document id, in the style of the reference's `_id` fields. */
function subId(s: string): string {
  return createHash('sha256').update(s).digest('hex').slice(0, 24);
}

export function buildRecordKey(docId: string, algorithm: KeyAlgorithm, publicKeyHex: string): DidRecordKey {
  const id = `${docId}#keys-1`;
  return { id, type: RECORD_KEY_TYPE[algorithm], publicKeyHex, _id: subId(id) };
}

/** The 2.10 document of a stored service-method DID: its id carries the ledger file id. */
export function buildRecordDocument(r: DidRecord): DidRecordDocument {
  const id = formatDocumentId(r.did, r.ledgerFileId);
  const key = buildRecordKey(id, r.keyAlgorithm, r.publicKeyHex);
  return {
    _id: r.id,
    id,
    topicId: r.topicId,
    templateTopicId: r.templateTopicId,
    publicKey: [key],
    authentication: [key.id],
    service: [],
    created: r.createdAt.toISOString(),
    updated: r.updatedAt.toISOString(),
    ledgerFileId: r.ledgerFileId,
    __v: r.version,
  };
}

/**
 * What a DID's ledger file holds (and what the leaves of its document-file log hash): the 2.10
 * document, marked `deactivated` once the DID is deleted (the service no longer serves it then).
 */
export function ledgerFileDocument(r: DidRecord): DidRecordDocument & { readonly deactivated?: true } {
  const doc = buildRecordDocument(r);
  return r.deletedAt ? { ...doc, deactivated: true } : doc;
}

export function familyADidOf(r: DidRecord): string {
  return formatFamilyADid(r.method, r.network, r.identifier, r.ledgerFileId);
}

/**
 * The W3C DID Core document of a stored service-method DID. The key is listed as `#keys-1` (the
 * record's name) and, for Ed25519 keys, also as `#did-root-key`, the name Family A proofs use
 * in `vcVerificationMethod`.
 */
export function buildW3cDocument(r: DidRecord): DidDocument {
  const { type, context } = W3C_KEY[r.keyAlgorithm];
  const publicKeyBase58 = base58btcEncode(hexToBytes(r.publicKeyHex, 'publicKeyHex'));
  const fragments = r.keyAlgorithm === 'Ed25519' ? ['keys-1', 'did-root-key'] : ['keys-1'];
  const methods: VerificationMethod[] = fragments.map((f) => ({
    id: `${r.did}#${f}`,
    type,
    controller: r.did,
    publicKeyBase58,
  }));
  const refs = methods.map((m) => m.id);
  return {
    '@context': ['https://www.w3.org/ns/did/v1', context],
    id: r.did,
    alsoKnownAs: [formatDocumentId(r.did, r.ledgerFileId), familyADidOf(r)],
    controller: r.did,
    verificationMethod: methods,
    authentication: refs,
    assertionMethod: refs,
  };
}
