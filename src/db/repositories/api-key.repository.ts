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

  async findById(id: string): Promise<ApiKeyRecord | null> {
    const row = await this.prisma.apiKey.findUnique({ where: { id }, include: { tenant: { select: { slug: true } } } });
    return row ? toRecord(row) : null;
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
