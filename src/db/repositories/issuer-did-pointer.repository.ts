import type { IssuerDidPointer } from '../../domain/ports';
import type { PrismaClient } from '../database';

export class PrismaIssuerDidPointer implements IssuerDidPointer {
  constructor(private readonly prisma: PrismaClient) {}

  async current(tenantId: string): Promise<string | null> {
    const t = await this.prisma.tenant.findUnique({ where: { id: tenantId }, select: { issuerDidId: true } });
    return t?.issuerDidId ?? null;
  }

  async claim(tenantId: string, didId: string): Promise<boolean> {
    const res = await this.prisma.tenant.updateMany({ where: { id: tenantId, issuerDidId: null }, data: { issuerDidId: didId } });
    return res.count === 1;
  }

  async release(tenantId: string, didId: string): Promise<void> {
    await this.prisma.tenant.updateMany({ where: { id: tenantId, issuerDidId: didId }, data: { issuerDidId: null } });
  }
}
