import { AppError } from '../../errors';
import { parseServiceDid } from '../../domain/dids/service-did';
import { familyADidOf } from '../../domain/dids/service-did-documents';
import { bytesToHex, hexToBytes } from '../../domain/encoding';
import { generateEd25519Keypair } from '../../domain/keys';
import type { Clock, DidRecord, DidRepository, IssuerDidPointer, KeyCustody } from '../../domain/ports';
import type { Actor } from '../../domain/tenancy/actor';
import type { DidsService } from '../dids.service';

/** An issuer DID with its service-held Ed25519 key. */
export interface IssuerIdentity {
  readonly record: DidRecord;
  /** Family A form, as credentials name their issuer. */
  readonly did: string;
  readonly publicKey: Uint8Array;
}

const toIdentity = (record: DidRecord): IssuerIdentity => ({
  record,
  did: familyADidOf(record),
  publicKey: hexToBytes(record.publicKeyHex, 'publicKeyHex'),
});

/** The tenant's Family A issuer DID: created on first use, deletable, replaced on next use. */
export class IssuerDidService {
  constructor(
    private readonly dids: DidsService,
    private readonly didRepo: DidRepository,
    private readonly pointer: IssuerDidPointer,
    private readonly custody: KeyCustody,
    private readonly clock: Clock,
  ) {}

  /** The current issuer DID, or null when the tenant has none yet (creates nothing). */
  async existing(actor: Actor): Promise<IssuerIdentity | null> {
    const id = await this.pointer.current(actor.tenantId);
    const record = id ? await this.didRepo.findById(id) : null;
    return record && record.deletedAt === null ? toIdentity(record) : null;
  }

  /** The current issuer DID, creating it (key and DID) when the tenant has none. */
  async current(actor: Actor): Promise<IssuerIdentity> {
    const existing = await this.existing(actor);
    if (existing) return existing;
    const { privateKey, publicKey } = generateEd25519Keypair();
    let record: DidRecord;
    try {
      await this.custody.store({ tenantId: actor.tenantId, algorithm: 'Ed25519', privateKey, publicKeyHex: bytesToHex(publicKey), purpose: 'issuer' });
      record = (await this.dids.register(actor, 'Ed25519', publicKey, 'issuer')).record;
    } finally {
      privateKey.fill(0);
    }
    if (await this.pointer.claim(actor.tenantId, record.id)) return toIdentity(record);
    // Another request created the tenant's issuer DID first: use that one, drop ours unseen.
    await this.didRepo.discard(actor.tenantId, record.id);
    return this.current(actor);
  }

  /** Deletes one of the tenant's issuer DIDs (any spelling). Unknown or another tenant's: 404. */
  async delete(actor: Actor, didText: string): Promise<void> {
    const ref = parseServiceDid(didText);
    const record = ref ? await this.didRepo.findForTenant(actor.tenantId, ref.did) : null;
    if (!record || record.role !== 'issuer' || record.deletedAt !== null || (ref?.ledgerFileId && ref.ledgerFileId !== record.ledgerFileId)) {
      throw new AppError('DID_NOT_FOUND', 'issuer DID not found');
    }
    await this.didRepo.markDeleted(actor.tenantId, record.id, this.clock.now());
    await this.pointer.release(actor.tenantId, record.id);
  }

  /** Signs with the issuer's key; the seed exists only inside `fn`. */
  sign<T>(actor: Actor, issuer: IssuerIdentity, fn: (seed: Uint8Array) => T | Promise<T>): Promise<T> {
    if (!issuer.record.managedKeyId) throw new Error('issuer DID without a service-held key');
    return this.custody.use(actor.tenantId, issuer.record.managedKeyId, fn);
  }

  /** Any issuer DID by a credential's `issuer` text (any tenant; deleted ones included). */
  async lookup(didText: string): Promise<DidRecord | null> {
    let ref;
    try {
      ref = parseServiceDid(didText);
    } catch {
      return null;
    }
    const record = ref ? await this.didRepo.findByDid(ref.did) : null;
    if (!record || (ref?.ledgerFileId && ref.ledgerFileId !== record.ledgerFileId)) return null;
    return record;
  }
}
