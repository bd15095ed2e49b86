import { sha256 } from '@noble/hashes/sha2.js';
import { canonicalBytes } from '../../domain/canonical';
import { formatLedgerId, formatServiceDid } from '../../domain/dids/service-did';
import { buildRecordDocument } from '../../domain/dids/service-did-documents';
import type { Ledger } from '../../ledger/ledger.port';
import type { DidRecord, DidRepository, DidRole, KeyAlgorithm, NewDid } from '../../domain/ports';
import type { PrismaClient } from '../database';
import { isUniqueViolation } from '../prisma-errors';

type Row = Omit<DidRecord, 'keyAlgorithm' | 'role'> & { keyAlgorithm: string; role: string };
const toRecord = (row: Row): DidRecord => ({
  ...row,
  keyAlgorithm: row.keyAlgorithm as KeyAlgorithm,
  role: row.role as DidRole,
});

export class PrismaDidRepository implements DidRepository {
  constructor(
    private readonly prisma: PrismaClient,
    /** When given, each new DID document is anchored in its ledger file log (`ledgerFileId`). */
    private readonly ledger?: Ledger,
  ) {}

  async findByDid(did: string): Promise<DidRecord | null> {
    const row = await this.prisma.did.findUnique({ where: { did } });
    return row ? toRecord(row) : null;
  }

  async findForTenant(tenantId: string, did: string): Promise<DidRecord | null> {
    const row = await this.prisma.did.findFirst({ where: { did, tenantId } });
    return row ? toRecord(row) : null;
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
    try {
      const row = await this.prisma.$transaction(async (tx) => {
        // The DID document file and its two topics are ledger entities numbered from one sequence.
        const allocate = (kind: string) => tx.ledgerLog.create({ data: { tenantId: input.tenantId, kind } });
        const file = await allocate('did-file');
        const topic = await allocate('credentials');
        const templateTopic = await allocate('templates');
        const row = await tx.did.create({
          data: {
            ...input,
            did: formatServiceDid(input.method, input.network, input.identifier),
            ledgerFileId: formatLedgerId(file.seq),
            topicId: formatLedgerId(topic.seq),
            templateTopicId: formatLedgerId(templateTopic.seq),
          },
        });
        if (this.ledger) {
          const doc = buildRecordDocument(toRecord(row));
          await this.ledger.appendInTransaction(tx, doc.ledgerFileId!, { entryHash: sha256(canonicalBytes(doc)), kind: 'did-document', ref: row.did });
        }
        return row;
      });
      // Signed heads for the three new logs (writers store heads; reads never sign).
      if (this.ledger) for (const logId of [row.ledgerFileId, row.topicId, row.templateTopicId]) await this.ledger.settle(logId);
      return { record: toRecord(row), created: true };
    } catch (e) {
      if (!isUniqueViolation(e)) throw e;
      const raced = await this.findByKey(input.tenantId, input.keyAlgorithm, input.publicKeyHex);
      if (!raced) throw e;
      return { record: raced, created: false };
    }
  }

  async findById(id: string): Promise<DidRecord | null> {
    const row = await this.prisma.did.findUnique({ where: { id } });
    return row ? toRecord(row) : null;
  }

  async markDeleted(tenantId: string, id: string, at: Date): Promise<boolean> {
    const res = await this.prisma.did.updateMany({
      where: { id, tenantId, deletedAt: null },
      data: { deletedAt: at, updatedAt: at, version: { increment: 1 } },
    });
    return res.count === 1;
  }

  async discard(tenantId: string, id: string): Promise<void> {
    await this.prisma.did.deleteMany({ where: { id, tenantId } });
  }
}
