import { randomUUID } from 'node:crypto';
import type { TenantRecord, TenantRepository } from '../../domain/ports';
import type { PrismaClient } from '../database';

export class PrismaTenantRepository implements TenantRepository {
  constructor(private readonly prisma: PrismaClient) {}

  findBySlug(slug: string): Promise<TenantRecord | null> {
    return this.prisma.tenant.findUnique({ where: { slug } });
  }

  create(input: { slug: string; name: string }): Promise<TenantRecord> {
    return this.prisma.tenant.create({ data: { id: randomUUID(), ...input } });
  }

  list(): Promise<TenantRecord[]> {
    return this.prisma.tenant.findMany({ orderBy: { createdAt: 'asc' } });
  }
}
