import { sha256 } from '@noble/hashes/sha2.js';
import { canonicalBytes } from '../../domain/canonical';
import { formatLedgerId, formatServiceDid } from '../../domain/dids/service-did';
import { ledgerFileDocument } from '../../domain/dids/service-did-documents';
import { RetryLaterError } from '../../errors/retry-later';
import { parseLedgerId } from '../../ledger/log-id';
import type { Ledger } from '../../ledger/ledger.port';
import type { DidRecord, DidRepository, DidRole, KeyAlgorithm, NewDid } from '../../domain/ports';
import { type CacheOptions, LocalInvalidationBus, RecordCache, notifyInTransaction } from '../../cache';
import type { PrismaClient } from '../database';
import { isUniqueViolation } from '../prisma-errors';
import { retryTransaction } from '../transaction-retry';

type Row = Omit<DidRecord, 'keyAlgorithm' | 'role'> & { keyAlgorithm: string; role: string };
const toRecord = (row: Row): DidRecord => ({
  ...row,
  keyAlgorithm: row.keyAlgorithm as KeyAlgorithm,
  role: row.role as DidRole,
});

/** Cache topic of DID records; keys are record ids. */
const TOPIC = 'did';

/**
 * Service DIDs. Records are read on every verification (the issuer's key) and change only when
 * deleted (or discarded right after a failed creation), so they are cached by id and by DID
 * string; a deletion or discard notifies every instance in its transaction (src/cache).
 */
export class PrismaDidRepository implements DidRepository {
  private readonly byId: RecordCache<DidRecord>;
  private readonly byDid: RecordCache<DidRecord>;

  constructor(
    private readonly prisma: PrismaClient,
    /** When given, each new DID document is anchored in its ledger file log (`ledgerFileId`). */
    private readonly ledger?: Ledger,
    cache: CacheOptions = { maxEntries: 0, bus: new LocalInvalidationBus() },
  ) {
    this.byId = new RecordCache(TOPIC, cache.maxEntries, cache.bus);
    // Notices name the record id; the by-string copy is dropped whole (deletions are rare).
    this.byDid = new RecordCache(`${TOPIC}-by-string`, cache.maxEntries, cache.bus);
    cache.bus.subscribe((topic) => {
      if (topic === TOPIC) this.byDid.clear();
    });
  }

  async findByDid(did: string): Promise<DidRecord | null> {
    return this.byDid.get(did, async () => {
      const row = await this.prisma.did.findUnique({ where: { did } });
      return row ? toRecord(row) : null;
    });
  }

  async findForTenant(tenantId: string, did: string): Promise<DidRecord | null> {
    const record = await this.findByDid(did);
    return record && record.tenantId === tenantId ? record : null;
  }

  async findByKey(tenantId: string, algorithm: KeyAlgorithm, publicKeyHex: string): Promise<DidRecord | null> {
    const row = await this.prisma.did.findUnique({
      where: { tenantId_keyAlgorithm_publicKeyHex: { tenantId, keyAlgorithm: algorithm, publicKeyHex } },
    });
    return row ? toRecord(row) : null;
  }

  async createOrGet(input: NewDid): Promise<{ record: DidRecord; created: boolean }> {
    const existing = await this.findByKey(input.tenantId, input.keyAlgorithm, input.publicKeyHex);
    if (existing) return { record: existing, created: false };
    const { ledgerEntities, createdAt, ...fields } = input;
    try {
      // Re-run on a lost serialization race (40001/40P01): nothing of a failed attempt remains.
      const row = await retryTransaction(() =>
        this.prisma.$transaction(async (tx) => {
          let ids: { ledgerFileId: string; topicId: string; templateTopicId: string };
          if (ledgerEntities) {
            // The ledger created the DID's file and topics; their ids are the log ids (unique per network).
            const log = (logId: string, kind: string) => tx.ledgerLog.create({ data: { seq: parseLedgerId(logId), tenantId: input.tenantId, kind } });
            await log(ledgerEntities.ledgerFileId, 'did-file');
            await log(ledgerEntities.topicId, 'credentials');
            await log(ledgerEntities.templateTopicId, 'templates');
            ids = { ledgerFileId: ledgerEntities.ledgerFileId, topicId: ledgerEntities.topicId, templateTopicId: ledgerEntities.templateTopicId };
          } else {
            // The DID document file and its two topics are ledger entities numbered from one sequence.
            const allocate = (kind: string) => tx.ledgerLog.create({ data: { tenantId: input.tenantId, kind } });
            const file = await allocate('did-file');
            const topic = await allocate('credentials');
            const templateTopic = await allocate('templates');
            ids = { ledgerFileId: formatLedgerId(file.seq), topicId: formatLedgerId(topic.seq), templateTopicId: formatLedgerId(templateTopic.seq) };
          }
          const row = await tx.did.create({
            data: {
              ...fields,
              did: formatServiceDid(input.method, input.network, input.identifier),
              ...ids,
              ledgerNetwork: ledgerEntities?.network ?? null,
              ...(createdAt ? { createdAt, updatedAt: createdAt } : {}),
            },
          });
          if (this.ledger) {
            await this.ledger.appendInTransaction(tx, row.ledgerFileId, { entryHash: sha256(canonicalBytes(ledgerFileDocument(toRecord(row)))), kind: 'did-document', ref: row.did });
          }
          return row;
        }),
      );
      // Signed heads for the three new logs (writers store heads; reads never sign).
      if (this.ledger) for (const logId of [row.ledgerFileId, row.topicId, row.templateTopicId]) await this.ledger.settle(logId);
      return { record: toRecord(row), created: true };
    } catch (e) {
      if (!isUniqueViolation(e)) throw e;
      const raced = await this.findByKey(input.tenantId, input.keyAlgorithm, input.publicKeyHex);
      if (raced) return { record: raced, created: false };
      // Not a race on the key: a ledger id the ledger handed out is already a log here (a local
      // log numbered before per-DID mode, or a second network behind the same database).
      if (ledgerEntities) throw new RetryLaterError('SERVICE_UNAVAILABLE', 'the ledger returned an entity id that is already a log of this service; see docs/OPERATIONS.md (per-DID entities)', 30);
      throw e;
    }
  }

  async findByLedgerEntity(logId: string, network: string): Promise<{ record: DidRecord; entity: 'file' | 'topic' } | null> {
    const row = await this.prisma.did.findFirst({
      where: { ledgerNetwork: network, OR: [{ ledgerFileId: logId }, { topicId: logId }, { templateTopicId: logId }] },
    });
    if (!row) return null;
    return { record: toRecord(row), entity: row.ledgerFileId === logId ? 'file' : 'topic' };
  }

  async findById(id: string): Promise<DidRecord | null> {
    return this.byId.get(id, async () => {
      const row = await this.prisma.did.findUnique({ where: { id } });
      return row ? toRecord(row) : null;
    });
  }

  /**
   * Marks the DID deleted. Its document changed (version, `deactivated`), so the new document is
   * appended to its document-file log in the same transaction: the head signed after the commit
   * goes through the anchor outbox, and with per-DID Hedera entities the relay writes the new
   * document into the DID's file (retried with backoff; never blocks this request).
   */
  async markDeleted(tenantId: string, id: string, at: Date): Promise<boolean> {
    const changed = await retryTransaction(() =>
      this.prisma.$transaction(async (tx) => {
        const res = await tx.did.updateMany({
          where: { id, tenantId, deletedAt: null },
          data: { deletedAt: at, updatedAt: at, version: { increment: 1 } },
        });
        if (res.count !== 1) return null;
        await notifyInTransaction(tx, TOPIC, id);
        const row = await tx.did.findUniqueOrThrow({ where: { id } });
        if (this.ledger) {
          await this.ledger.appendInTransaction(tx, row.ledgerFileId, { entryHash: sha256(canonicalBytes(ledgerFileDocument(toRecord(row)))), kind: 'did-document', ref: row.did });
        }
        return row.ledgerFileId;
      }),
    );
    if (changed === null) return false;
    this.forget(id);
    if (this.ledger) await this.ledger.settle(changed);
    return true;
  }

  async discard(tenantId: string, id: string): Promise<void> {
    await retryTransaction(() =>
      this.prisma.$transaction(async (tx) => {
        const res = await tx.did.deleteMany({ where: { id, tenantId } });
        if (res.count === 1) await notifyInTransaction(tx, TOPIC, id);
      }),
    );
    this.forget(id);
  }

  private forget(id: string): void {
    this.byId.invalidate(id);
    this.byDid.clear();
  }
}
