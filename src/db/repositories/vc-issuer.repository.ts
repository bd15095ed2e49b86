import type { NewVcIssuer, VcIssuerRecord, VcIssuerRepository } from '../../domain/vc-issuers';
import type { IssuerKeyType, IssuingSuite, SigningKeyType } from '../../vc/ports';
import type { PrismaClient } from '../database';
import { isUniqueViolation } from '../prisma-errors';

interface Row {
  id: string;
  tenantId: string;
  did: string;
  keyType: string;
  cryptosuite: string;
  managedKeyId: string;
  defaultTenantId: string | null;
  createdAt: Date;
}

const toRecord = (r: Row): VcIssuerRecord => ({
  id: r.id,
  tenantId: r.tenantId,
  did: r.did,
  keyType: r.keyType as IssuerKeyType,
  cryptosuite: r.cryptosuite as IssuingSuite,
  managedKeyId: r.managedKeyId,
  isDefault: r.defaultTenantId !== null,
  createdAt: r.createdAt,
});

export class PrismaVcIssuerRepository implements VcIssuerRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async create(input: NewVcIssuer): Promise<VcIssuerRecord> {
    const { isDefault, ...rest } = input;
    try {
      return toRecord(await this.prisma.vcIssuer.create({ data: { ...rest, defaultTenantId: isDefault ? input.tenantId : null } }));
    } catch (e) {
      // Two first uses raced to create the tenant's default: the loser takes the winner's, and its
      // freshly sealed key (referenced by nothing, never used) is removed rather than left behind.
      if (!isDefault || !isUniqueViolation(e)) throw e;
      const winner = await this.findDefault(input.tenantId);
      if (!winner) throw e;
      await this.prisma.managedKey.deleteMany({ where: { id: rest.managedKeyId, tenantId: input.tenantId, dids: { none: {} }, vcIssuers: { none: {} } } });
      return winner;
    }
  }

  async findDefault(tenantId: string): Promise<VcIssuerRecord | null> {
    const row = await this.prisma.vcIssuer.findUnique({ where: { defaultTenantId: tenantId } });
    return row ? toRecord(row) : null;
  }

  async findForTenant(tenantId: string, id: string): Promise<VcIssuerRecord | null> {
    const row = await this.prisma.vcIssuer.findFirst({ where: { id, tenantId } });
    return row ? toRecord(row) : null;
  }

  async findById(id: string): Promise<VcIssuerRecord | null> {
    const row = await this.prisma.vcIssuer.findUnique({ where: { id } });
    return row ? toRecord(row) : null;
  }

  async listByTenant(tenantId: string): Promise<VcIssuerRecord[]> {
    const rows = await this.prisma.vcIssuer.findMany({ where: { tenantId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
    return rows.map(toRecord);
  }
}
