import { AppError } from '../../errors';
import type { AnchorRequest, TemplateAttributeRecord, TemplateRecord } from '../../domain/ports';
import type { Ledger } from '../../ledger/ledger.port';
import { type CacheOptions, LocalInvalidationBus, RecordCache, notifyInTransaction } from '../../cache';
import type { Prisma, PrismaClient } from '../database';
import { isUniqueViolation } from '../prisma-errors';
import { retryTransaction } from '../transaction-retry';

type Row = Omit<TemplateRecord, 'attributes' | 'expiration' | 'proofSuite'> & { attributes: Prisma.JsonValue; expiration: Prisma.JsonValue; proofSuite: string | null };
const toRecord = (r: Row): TemplateRecord => ({
  id: r.id,
  templateId: r.templateId,
  tenantId: r.tenantId,
  name: r.name,
  description: r.description,
  issuerDidId: r.issuerDidId,
  attributes: r.attributes as unknown as TemplateAttributeRecord[],
  expiration: r.expiration as unknown as { value: number; unit: string },
  issuanceDate: r.issuanceDate,
  expirationDate: r.expirationDate,
  // The column's CHECK constraint admits only the suites TemplateProofSuite names.
  proofSuite: r.proofSuite as TemplateRecord['proofSuite'],
  version: r.version,
  deletedAt: r.deletedAt,
});

export type TemplateData = Omit<TemplateRecord, 'version' | 'deletedAt'>;

const duplicate = (name: string): AppError => new AppError('CONFLICT', `a template named ${name} already exists`);

/** Cache topic of templates; keys are templateIds. */
const TOPIC = 'template';

/**
 * Templates; every version is anchored in the issuer's template log in the same transaction.
 * Issuance reads the live template by templateId on every call: it is cached, and an update (a
 * new version) or deletion notifies every instance in its transaction (src/cache).
 */
export class PrismaTemplateRepository {
  private readonly byTemplateId: RecordCache<TemplateRecord>;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly ledger: Ledger,
    cache: CacheOptions = { maxEntries: 0, bus: new LocalInvalidationBus() },
  ) {
    this.byTemplateId = new RecordCache(TOPIC, cache.maxEntries, cache.bus);
  }

  async create(data: TemplateData, anchor: AnchorRequest): Promise<TemplateRecord> {
    try {
      // A lost serialization race (40001/40P01, e.g. on the log row under SERIALIZABLE or CockroachDB) re-runs the whole transaction.
      const record = await retryTransaction(() =>
        this.prisma.$transaction(async (tx) => {
          const row = await tx.vcTemplate.create({ data: { ...this.columns(data), activeName: data.name } });
          await this.ledger.appendInTransaction(tx, anchor.logId, anchor);
          return toRecord(row);
        }),
      );
      await this.ledger.settle(anchor.logId);
      return record;
    } catch (e) {
      if (isUniqueViolation(e)) throw duplicate(data.name);
      throw e;
    }
  }

  /** Replaces a live template's content; `__v` increments. Null when no such live template. */
  async update(tenantId: string, templateId: string, data: (current: TemplateRecord) => TemplateData, anchor: (next: TemplateRecord) => AnchorRequest): Promise<TemplateRecord | null> {
    try {
      const updated = await retryTransaction(() => this.prisma.$transaction(async (tx) => {
        const current = await tx.vcTemplate.findFirst({ where: { tenantId, templateId, deletedAt: null } });
        if (!current) return null;
        const next = data(toRecord(current));
        const row = await tx.vcTemplate.update({
          where: { id: current.id },
          data: { ...this.columns(next), activeName: next.name, version: { increment: 1 } },
        });
        const record = toRecord(row);
        const a = anchor(record);
        await this.ledger.appendInTransaction(tx, a.logId, a);
        await notifyInTransaction(tx, TOPIC, templateId);
        return { record, logId: a.logId };
      }));
      this.byTemplateId.invalidate(templateId);
      if (!updated) return null;
      await this.ledger.settle(updated.logId);
      return updated.record;
    } catch (e) {
      if (isUniqueViolation(e)) throw new AppError('CONFLICT', 'another template already has that name');
      throw e;
    }
  }

  async delete(tenantId: string, templateId: string, at: Date): Promise<boolean> {
    const deleted = await retryTransaction(() =>
      this.prisma.$transaction(async (tx) => {
        const res = await tx.vcTemplate.updateMany({ where: { tenantId, templateId, deletedAt: null }, data: { deletedAt: at, activeName: null } });
        if (res.count === 1) await notifyInTransaction(tx, TOPIC, templateId);
        return res.count === 1;
      }),
    );
    if (deleted) this.byTemplateId.invalidate(templateId);
    return deleted;
  }

  async findByName(tenantId: string, name: string): Promise<TemplateRecord | null> {
    const row = await this.prisma.vcTemplate.findFirst({ where: { tenantId, activeName: name } });
    return row ? toRecord(row) : null;
  }

  /** By internal id, deleted ones included (credentials keep pointing at their template). */
  async findInternal(id: string): Promise<TemplateRecord | null> {
    const row = await this.prisma.vcTemplate.findUnique({ where: { id } });
    return row ? toRecord(row) : null;
  }

  /** The live template (its latest version); null when unknown, another tenant's or deleted. */
  async findByTemplateId(tenantId: string, templateId: string): Promise<TemplateRecord | null> {
    // templateId is unique: the cached row is the same whoever asks; tenant and liveness are checked here.
    const record = await this.byTemplateId.get(templateId, async () => {
      const row = await this.prisma.vcTemplate.findUnique({ where: { templateId } });
      return row ? toRecord(row) : null;
    });
    return record && record.tenantId === tenantId && record.deletedAt === null ? record : null;
  }

  /** Live templates by creation order; `after` is the last templateId of the previous page. */
  async list(tenantId: string, page: { first: number; after?: string }): Promise<{ items: TemplateRecord[]; hasMore: boolean; total: number }> {
    const where = { tenantId, deletedAt: null };
    const cursor = page.after ? await this.prisma.vcTemplate.findFirst({ where: { ...where, templateId: page.after }, select: { id: true } }) : null;
    if (page.after && !cursor) throw new AppError('INVALID_INPUT', 'after is not a template of this list');
    const rows = await this.prisma.vcTemplate.findMany({
      where,
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      take: page.first + 1,
      ...(cursor ? { cursor: { id: cursor.id }, skip: 1 } : {}),
    });
    const total = await this.prisma.vcTemplate.count({ where });
    return { items: rows.slice(0, page.first).map(toRecord), hasMore: rows.length > page.first, total };
  }

  private columns(d: TemplateData) {
    return {
      id: d.id,
      templateId: d.templateId,
      tenantId: d.tenantId,
      name: d.name,
      description: d.description,
      issuerDidId: d.issuerDidId,
      attributes: d.attributes as unknown as Prisma.InputJsonArray,
      expiration: d.expiration as unknown as Prisma.InputJsonObject,
      issuanceDate: d.issuanceDate,
      expirationDate: d.expirationDate,
      proofSuite: d.proofSuite,
    };
  }
}
