import type { IssuerDidPointer } from '../../domain/ports';
import type { Database, PrismaClient } from '../database';
import type { SqlExecutor } from '../sql-executor';
import { tenantIssuerDid } from '../sql/family-a.sql';
import { run } from '../sql/statement';

/**
 * The tenant's Family A issuer DID. `current` is read by every Family A issuance, so it is a
 * prepared statement on pg (no ORM on the hot path, issue 19); claiming and releasing stay on Prisma.
 */
export class PrismaIssuerDidPointer implements IssuerDidPointer {
  private readonly prisma: PrismaClient;
  private readonly sql: SqlExecutor;

  constructor(db: Pick<Database, 'prisma' | 'sql'>) {
    this.prisma = db.prisma;
    this.sql = db.sql;
  }

  async current(tenantId: string): Promise<string | null> {
    const [row] = await run(this.sql, tenantIssuerDid, [tenantId]);
    return row?.issuerDidId ?? null;
  }

  async claim(tenantId: string, didId: string): Promise<boolean> {
    const res = await this.prisma.tenant.updateMany({ where: { id: tenantId, issuerDidId: null }, data: { issuerDidId: didId } });
    return res.count === 1;
  }

  async release(tenantId: string, didId: string): Promise<void> {
    await this.prisma.tenant.updateMany({ where: { id: tenantId, issuerDidId: didId }, data: { issuerDidId: null } });
  }
}
