import type { CustodyKeyAlgorithm, ManagedKeyRecord, ManagedKeyRepository } from '../../domain/ports';
import type { PrismaClient } from '../database';

type Row = Omit<ManagedKeyRecord, 'algorithm'> & { algorithm: string };
const toRecord = (row: Row): ManagedKeyRecord => ({ ...row, algorithm: row.algorithm as CustodyKeyAlgorithm });

export class PrismaManagedKeyRepository implements ManagedKeyRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async create(input: Omit<ManagedKeyRecord, 'createdAt'>): Promise<ManagedKeyRecord> {
    const row = await this.prisma.managedKey.create({
      data: { ...input, encryptedPrivateKey: Buffer.from(input.encryptedPrivateKey) },
    });
    return toRecord(row);
  }

  async findById(tenantId: string, id: string): Promise<ManagedKeyRecord | null> {
    const row = await this.prisma.managedKey.findFirst({ where: { id, tenantId } });
    return row ? toRecord(row) : null;
  }

  async findByPublicKey(tenantId: string, algorithm: CustodyKeyAlgorithm, publicKeyHex: string): Promise<ManagedKeyRecord | null> {
    const row = await this.prisma.managedKey.findUnique({
      where: { tenantId_algorithm_publicKeyHex: { tenantId, algorithm, publicKeyHex } },
    });
    return row ? toRecord(row) : null;
  }
}
