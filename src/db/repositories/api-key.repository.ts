import type { ApiKeyRecord, ApiKeyRepository } from '../../domain/ports';
import type { Scope } from '../../domain/tenancy/actor';
import type { PrismaClient } from '../database';

type Row = Omit<ApiKeyRecord, 'tenantSlug' | 'scopes'> & { scopes: string[]; tenant: { slug: string } };

const toRecord = ({ tenant, scopes, ...row }: Row): ApiKeyRecord => ({
  ...row,
  tenantSlug: tenant.slug,
  scopes: scopes as Scope[],
});

export class PrismaApiKeyRepository implements ApiKeyRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /**
   * Every authenticated request reads its key: one statement with the tenant joined (Prisma's
   * `include` sends a second query for the relation).
   */
  async findById(id: string): Promise<ApiKeyRecord | null> {
    const [row] = await this.prisma.$queryRaw<(Omit<Row, 'tenant'> & { tenantSlug: string })[]>`
      SELECT k.id::text AS "id", k.tenant_id::text AS "tenantId", k.name AS "name", k.secret_hash AS "secretHash", k.scopes AS "scopes",
             k.created_at AS "createdAt", k.last_used_at AS "lastUsedAt", k.revoked_at AS "revokedAt", k.holder_did AS "holderDid", t.slug AS "tenantSlug"
      FROM api_keys k JOIN tenants t ON t.id = k.tenant_id WHERE k.id = ${id}::uuid`;
    return row ? toRecord({ ...row, tenant: { slug: row.tenantSlug } }) : null;
  }

  async create(input: { id: string; tenantId: string; name: string | null; secretHash: string; scopes: readonly Scope[]; holderDid: string | null }): Promise<ApiKeyRecord> {
    const row = await this.prisma.apiKey.create({
      data: { ...input, scopes: [...input.scopes] },
      include: { tenant: { select: { slug: true } } },
    });
    return toRecord(row);
  }

  async listByTenant(tenantId: string): Promise<ApiKeyRecord[]> {
    const rows = await this.prisma.apiKey.findMany({
      where: { tenantId },
      orderBy: { createdAt: 'asc' },
      include: { tenant: { select: { slug: true } } },
    });
    return rows.map(toRecord);
  }

  async revoke(tenantId: string, id: string, at: Date): Promise<boolean> {
    const res = await this.prisma.apiKey.updateMany({ where: { id, tenantId, revokedAt: null }, data: { revokedAt: at } });
    return res.count === 1;
  }
}
