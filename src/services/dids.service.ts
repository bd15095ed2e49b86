import { randomUUID } from 'node:crypto';
import { AppError, invalidInput } from '../errors';
import { didKeyDocument, didKeyFromPublicKey, parseDidKey } from '../domain/dids/did-key';
import type { DidDocument } from '../domain/dids/did-document.types';
import { deriveServiceDidIdentifier, didMethodOf, parseServiceDid } from '../domain/dids/service-did';
import {
  type DidRecordDocument,
  buildRecordDocument,
  buildRecordKey,
  buildW3cDocument,
} from '../domain/dids/service-did-documents';
import { bytesToHex } from '../domain/encoding';
import { parseEd25519PublicKey, parseSecp256k1PublicKey } from '../domain/keys';
import { canonicalBytes } from '../domain/canonical';
import { formatServiceDid } from '../domain/dids/service-did';
import { ledgerFileDocument } from '../domain/dids/service-did-documents';
import { type Clock, type DidRecord, type DidRepository, type DidRole, type KeyAlgorithm, type KeyCustody, type NewDid, systemClock } from '../domain/ports';
import type { DidEntityProvisioner } from './did-entities';
import type { Actor } from '../domain/tenancy/actor';
import type { CreateDidInput } from '../contracts/family-b/keys-dids';

export interface DidsSettings {
  readonly method: string;
  readonly network: string;
}

export type ResolutionErrorCode = 'invalidDid' | 'notFound' | 'methodNotSupported';

/** A W3C DID Resolution result: resolution reports failures in metadata instead of throwing. */
export interface DidResolutionResult {
  readonly didDocument: DidDocument | null;
  readonly didResolutionMetadata: { contentType?: string; error?: ResolutionErrorCode; message?: string };
  readonly didDocumentMetadata: { created?: string; updated?: string; deactivated?: boolean; versionId?: string };
}

export const KEY_TYPES: readonly KeyAlgorithm[] = ['secp256k1', 'Ed25519'];

const DID_NOT_FOUND = (): AppError => new AppError('DID_NOT_FOUND', 'DID not found');

function parsePublicKey(keyType: KeyAlgorithm, publicKey: string): Uint8Array {
  // Family B keys travel as hex; Ed25519 keys are accepted as 32-byte hex here too.
  return keyType === 'secp256k1'
    ? parseSecp256k1PublicKey(publicKey, 'publicKey')
    : parseEd25519PublicKey(parseHex32(publicKey), 'publicKey');
}

function parseHex32(s: string): Uint8Array {
  if (!/^[0-9a-fA-F]{64}$/.test(s)) throw new AppError('INVALID_PUBLIC_KEY', 'publicKey must be a 32-byte Ed25519 key in hex');
  return Uint8Array.from(Buffer.from(s, 'hex'));
}

/** DIDs of the service's own method (stored, per tenant) and did:key (computed). */
export class DidsService {
  constructor(
    private readonly dids: DidRepository,
    private readonly custody: KeyCustody,
    private readonly settings: DidsSettings,
    /** Per-DID ledger entities (Hedera): created before a new DID is stored. Absent: the service numbers the DID's logs. */
    private readonly entities?: DidEntityProvisioner,
    private readonly clock: Clock = systemClock,
  ) {}

  /**
   * Registers a DID for a public key. Idempotent per tenant and key: `created` tells which. The input
   * is the operation's contract: REST checks the body against it, GraphQL's input has its shape
   * (GraphQL sends null for no keyType, hence `??` below).
   */
  async createDid(actor: Actor, input: CreateDidInput): Promise<{ document: DidRecordDocument; created: boolean }> {
    const keyType = (input.keyType ?? 'secp256k1') as KeyAlgorithm;
    if (!KEY_TYPES.includes(keyType)) throw invalidInput(`keyType must be one of ${KEY_TYPES.join(', ')}`);
    const allowed = [this.settings.method, 'key'];
    if (!allowed.includes(input.method)) throw invalidInput(`method must be one of ${allowed.join(', ')}`);
    const publicKey = parsePublicKey(keyType, input.publicKey);
    if (input.method === 'key') {
      return { document: this.didKeyRecord(didKeyFromPublicKey(keyType, publicKey)), created: true };
    }
    const { record, created } = await this.register(actor, keyType, publicKey, 'subject');
    return { document: buildRecordDocument(record), created };
  }

  /** Shared by Family A (user and issuer DIDs) and Family B registration. */
  async register(actor: Actor, keyType: KeyAlgorithm, publicKey: Uint8Array, role: DidRole): Promise<{ record: DidRecord; created: boolean }> {
    const publicKeyHex = bytesToHex(publicKey);
    const held = await this.custody.findByPublicKey(actor.tenantId, keyType, publicKeyHex);
    const input: NewDid = {
      id: randomUUID(),
      tenantId: actor.tenantId,
      method: this.settings.method,
      network: this.settings.network,
      identifier: deriveServiceDidIdentifier(actor.tenantId, keyType, publicKey),
      keyAlgorithm: keyType,
      publicKeyHex,
      managedKeyId: held?.id ?? null,
      role,
    };
    if (!this.entities) return this.dids.createOrGet(input);
    // A registered key costs no ledger entities (creation is idempotent per tenant and key).
    const existing = await this.dids.findByKey(input.tenantId, keyType, publicKeyHex);
    if (existing) return { record: existing, created: false };
    // The document names the file, and the DID stores it: entities first, then the insert.
    const createdAt = new Date(this.clock.now().getTime());
    const did = formatServiceDid(input.method, input.network, input.identifier);
    const ledgerEntities = await this.entities.provision(did, (ids) =>
      canonicalBytes(ledgerFileDocument({ ...input, ...ids, did, ledgerNetwork: this.entities!.network, version: 0, createdAt, updatedAt: createdAt, deletedAt: null })),
    );
    return this.dids.createOrGet({ ...input, ledgerEntities, createdAt });
  }

  /** The caller's own DID record (2.10). Another tenant's DID is reported as not found. */
  async getDidDocument(actor: Actor, didText: string): Promise<DidRecordDocument> {
    if (didMethodOf(didText) === 'key') return this.didKeyRecord(didText);
    const ref = this.parseOwnMethod(didText);
    const record = ref ? await this.dids.findForTenant(actor.tenantId, ref.did) : null;
    if (!record || record.deletedAt !== null || (ref?.ledgerFileId && ref.ledgerFileId !== record.ledgerFileId)) {
      throw DID_NOT_FOUND();
    }
    return buildRecordDocument(record);
  }

  /** Resolves any DID to its W3C document; throws for invalid, unknown or unsupported DIDs. */
  async resolveDocument(didText: string): Promise<DidDocument> {
    const result = await this.resolve(didText);
    const err = result.didResolutionMetadata.error;
    if (err === 'invalidDid') throw new AppError('INVALID_DID', result.didResolutionMetadata.message ?? 'not a valid DID');
    if (err === 'methodNotSupported') throw new AppError('UNSUPPORTED_DID_METHOD', 'DID method not supported');
    if (err || !result.didDocument || result.didDocumentMetadata.deactivated) throw DID_NOT_FOUND();
    return result.didDocument;
  }

  /** DID Resolution (W3C): never throws for a resolution failure, it reports it. */
  async resolve(didText: string): Promise<DidResolutionResult> {
    const fail = (error: ResolutionErrorCode, message: string): DidResolutionResult => ({
      didDocument: null,
      didResolutionMetadata: { error, message },
      didDocumentMetadata: {},
    });
    const method = didMethodOf(didText);
    try {
      if (method === 'key') {
        return { didDocument: didKeyDocument(didText), didResolutionMetadata: { contentType: 'application/did+ld+json' }, didDocumentMetadata: {} };
      }
      const ref = parseServiceDid(didText);
      if (!ref || ref.method !== this.settings.method) return fail('methodNotSupported', `DID method ${method ?? ''} is not supported`);
      if (ref.network !== this.settings.network) return fail('notFound', 'DID not found');
      const record = await this.dids.findByDid(ref.did);
      if (!record || (ref.ledgerFileId && ref.ledgerFileId !== record.ledgerFileId)) return fail('notFound', 'DID not found');
      return {
        didDocument: buildW3cDocument(record),
        didResolutionMetadata: { contentType: 'application/did+ld+json' },
        didDocumentMetadata: {
          created: record.createdAt.toISOString(),
          updated: record.updatedAt.toISOString(),
          versionId: String(record.version),
          ...(record.deletedAt ? { deactivated: true } : {}),
        },
      };
    } catch (e) {
      if (e instanceof AppError && (e.code === 'INVALID_DID' || e.code === 'INVALID_PUBLIC_KEY')) {
        return fail('invalidDid', e.message);
      }
      throw e;
    }
  }

  private parseOwnMethod(didText: string) {
    const ref = parseServiceDid(didText);
    return ref && ref.method === this.settings.method && ref.network === this.settings.network ? ref : undefined;
  }

  /**
   * did:key documents are computed from the DID itself; nothing is stored. What only a stored DID
   * has (`_id`, `topicId`, `templateTopicId`, `created`, `updated`, `ledgerFileId`) is left out.
   */
  private didKeyRecord(did: string): DidRecordDocument {
    const parsed = parseDidKey(did);
    if (parsed.type !== 'secp256k1' && parsed.type !== 'Ed25519') {
      throw new AppError('INVALID_DID', 'only secp256k1 and Ed25519 did:key DIDs have a record document');
    }
    return {
      id: did,
      publicKey: [buildRecordKey(did, parsed.type, bytesToHex(parsed.publicKey))],
      authentication: [`${did}#keys-1`],
      service: [],
      __v: 0,
    };
  }
}
