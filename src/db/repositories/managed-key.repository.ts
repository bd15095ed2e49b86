import type { CustodyKeyAlgorithm, ManagedKeyRecord, ManagedKeyRepository } from '../../domain/ports';
import type { PrismaClient } from '../database';
import type { SqlExecutor } from '../sql-executor';
import { run } from '../sql/statement';
import { managedKeyById } from '../sql/keys.sql';

type Row = Omit<ManagedKeyRecord, 'algorithm'> & { algorithm: string };
const toRecord = (row: Row): ManagedKeyRecord => ({ ...row, algorithm: row.algorithm as CustodyKeyAlgorithm });

export class PrismaManagedKeyRepository implements ManagedKeyRepository {
  /**
   * `sql`: the service's pg/PGlite executor, for `findById`, which every signing request makes
   * (a prepared statement instead of a Prisma query; src/db/sql/keys.sql.ts). Without it (tools
   * and tests that hold only a Prisma client) the lookup goes through Prisma.
   */
  constructor(
    private readonly prisma: PrismaClient,
    private readonly sql?: SqlExecutor,
  ) {}

  async create(input: Omit<ManagedKeyRecord, 'createdAt'>): Promise<ManagedKeyRecord> {
    const row = await this.prisma.managedKey.create({
      data: { ...input, encryptedPrivateKey: Buffer.from(input.encryptedPrivateKey) },
    });
    return toRecord(row);
  }

  async findById(tenantId: string, id: string): Promise<ManagedKeyRecord | null> {
    const row = this.sql ? (await run(this.sql, managedKeyById, [id, tenantId]))[0] : await this.prisma.managedKey.findFirst({ where: { id, tenantId } });
    return row ? toRecord(row) : null;
  }

  async findByPublicKey(tenantId: string, algorithm: CustodyKeyAlgorithm, publicKeyHex: string): Promise<ManagedKeyRecord | null> {
    const row = await this.prisma.managedKey.findUnique({
      where: { tenantId_algorithm_publicKeyHex: { tenantId, algorithm, publicKeyHex } },
    });
    return row ? toRecord(row) : null;
  }
}
