import { randomUUID } from 'node:crypto';
import type { SchemaRecord, SchemaRepository } from '../../domain/ports';
import type { Prisma, PrismaClient } from '../database';
import { isUniqueViolation } from '../prisma-errors';
import { retryTransaction } from '../transaction-retry';

type Row = Omit<SchemaRecord, 'body'> & { body: Prisma.JsonValue };
const toRecord = (row: Row): SchemaRecord => ({ ...row, body: row.body as Record<string, unknown> });

/** Concurrent creators of one name retry on the unique (tenant, name, version) constraint. */
const MAX_VERSION_ATTEMPTS = 20;

export class PrismaSchemaRepository implements SchemaRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async createNextVersion(input: { tenantId: string; name: string; body: (version: number) => Record<string, unknown> }): Promise<SchemaRecord> {
    for (let attempt = 0; ; attempt++) {
      const latest = await this.findLatest(input.tenantId, input.name);
      const version = (latest?.version ?? 0) + 1;
      try {
        // A serialization failure (40001/40P01) is retried as such; a unique violation means another
        // creator took this version: read the latest again and take the next one.
        const row = await retryTransaction(() =>
          this.prisma.credentialSchema.create({
            data: { id: randomUUID(), tenantId: input.tenantId, name: input.name, version, body: input.body(version) as Prisma.InputJsonObject },
          }),
        );
        return toRecord(row);
      } catch (e) {
        if (!isUniqueViolation(e) || attempt >= MAX_VERSION_ATTEMPTS) throw e;
      }
    }
  }

  async findLatest(tenantId: string, name: string): Promise<SchemaRecord | null> {
    const row = await this.prisma.credentialSchema.findFirst({ where: { tenantId, name }, orderBy: { version: 'desc' } });
    return row ? toRecord(row) : null;
  }

  async findById(id: string): Promise<SchemaRecord | null> {
    const row = await this.prisma.credentialSchema.findUnique({ where: { id } });
    return row ? toRecord(row) : null;
  }

  async findVersion(tenantId: string, name: string, version: number): Promise<SchemaRecord | null> {
    const row = await this.prisma.credentialSchema.findUnique({ where: { tenantId_name_version: { tenantId, name, version } } });
    return row ? toRecord(row) : null;
  }

  async listByTenant(tenantId: string): Promise<SchemaRecord[]> {
    const rows = await this.prisma.credentialSchema.findMany({ where: { tenantId }, orderBy: [{ name: 'asc' }, { version: 'asc' }] });
    return rows.map(toRecord);
  }

  async findPublic(tenantSlug: string | undefined, name: string, version: number | undefined): Promise<SchemaRecord[]> {
    const where = { name, ...(version !== undefined ? { version } : {}), ...(tenantSlug ? { tenant: { slug: tenantSlug } } : {}) };
    // Tenants first (GROUP BY in the database), then one row per tenant: however many versions one
    // tenant holds, a second tenant publishing the name is always seen.
    const tenants = await this.prisma.credentialSchema.groupBy({ by: ['tenantId'], where, orderBy: { tenantId: 'asc' }, take: 2 });
    const rows = await Promise.all(
      tenants.map((t) => this.prisma.credentialSchema.findFirst({ where: { ...where, tenantId: t.tenantId }, orderBy: { version: 'desc' } })),
    );
    return rows.filter((r): r is NonNullable<typeof r> => r !== null).map(toRecord);
  }
}
