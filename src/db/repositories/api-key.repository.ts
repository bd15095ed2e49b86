import type { ApiKeyRecord, ApiKeyRepository } from '../../domain/ports';
import type { Scope } from '../../domain/tenancy/actor';
import type { PrismaClient } from '../database';
import { API_KEY_TOPIC } from '../../cache/api-key-cache';
import { CACHE_CHANNEL } from '../../cache/invalidation';

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

  /**
   * One statement revokes the key and tells every instance (src/cache/api-key-cache.ts): the
   * notice is sent only when a row changed, and delivered when the statement's transaction commits,
   * so an instance cannot drop its copy before the revocation is visible, nor miss it because the
   * writer (the CLI is one) crashed between the two.
   */
  async revoke(tenantId: string, id: string, at: Date): Promise<boolean> {
    const rows = await this.prisma.$queryRaw<{ revoked: bigint | number }[]>`
      WITH r AS (
        UPDATE api_keys SET revoked_at = ${at} WHERE id = ${id}::uuid AND tenant_id = ${tenantId}::uuid AND revoked_at IS NULL RETURNING id
      )
      SELECT count(*) AS revoked, max(pg_notify(${CACHE_CHANNEL}, ${`${API_KEY_TOPIC}:${id}`})::text) AS notified FROM r`;
    return Number(rows[0]?.revoked ?? 0) === 1;
  }
}
