import type { JsonWebKey } from 'node:crypto';
import type { ManagedKeyRecord } from '../../domain/ports';
import type { NewOid4vcKey, Oid4vcKeyPurpose, Oid4vcKeyRecord, Oid4vcKeyRepository, SealedSecretRecord } from '../../domain/oid4vc-keys';
import type { PrismaClient } from '../database';
import { isUniqueViolation } from '../prisma-errors';

interface Row {
  id: string;
  tenantId: string;
  purpose: string;
  managedKeyId: string;
  publicJwk: unknown;
  certificateChain: string[];
  createdAt: Date;
  updatedAt: Date;
}

const toRecord = (r: Row): Oid4vcKeyRecord => ({
  id: r.id,
  tenantId: r.tenantId,
  purpose: r.purpose as Oid4vcKeyPurpose,
  managedKeyId: r.managedKeyId,
  publicJwk: r.publicJwk as JsonWebKey,
  certificateChain: r.certificateChain,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});

export class PrismaOid4vcKeyRepository implements Oid4vcKeyRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async find(tenantId: string, purpose: Oid4vcKeyPurpose): Promise<Oid4vcKeyRecord | null> {
    const row = await this.prisma.oid4vcKey.findUnique({ where: { tenantId_purpose: { tenantId, purpose } } });
    return row ? toRecord(row) : null;
  }

  async createWithKey(key: Omit<ManagedKeyRecord, 'createdAt'>, row: NewOid4vcKey): Promise<{ record: Oid4vcKeyRecord; created: boolean }> {
    try {
      // One transaction: a loser's unique violation rolls its managed key back with it, so no
      // sealed key is ever left without the row that uses it (even if the process dies here).
      const [, created] = await this.prisma.$transaction([
        this.prisma.managedKey.create({ data: { ...key, encryptedPrivateKey: Buffer.from(key.encryptedPrivateKey) } }),
        this.prisma.oid4vcKey.create({ data: { ...row, publicJwk: { ...row.publicJwk } as object, certificateChain: [...row.certificateChain] } }),
      ]);
      return { record: toRecord(created), created: true };
    } catch (e) {
      if (!isUniqueViolation(e)) throw e;
      const winner = await this.find(row.tenantId, row.purpose);
      if (!winner) throw e;
      return { record: winner, created: false };
    }
  }

  async replaceChain(id: string, expected: readonly string[], chain: readonly string[], now: Date): Promise<Oid4vcKeyRecord | null> {
    await this.prisma.oid4vcKey.updateMany({ where: { id, certificateChain: { equals: [...expected] } }, data: { certificateChain: [...chain], updatedAt: now } });
    const row = await this.prisma.oid4vcKey.findUnique({ where: { id } });
    return row ? toRecord(row) : null;
  }

  async findSecret(name: string): Promise<SealedSecretRecord | null> {
    const row = await this.prisma.sealedSecret.findUnique({ where: { name } });
    return row ? { sealed: row.sealed, kekId: row.kekId } : null;
  }

  async insertSecretIfAbsent(name: string, secret: SealedSecretRecord, now: Date): Promise<SealedSecretRecord> {
    // ON CONFLICT DO NOTHING: instances starting together each make a CA; the first insert wins
    // and every instance then reads that one.
    await this.prisma.sealedSecret.createMany({ data: [{ name, sealed: Uint8Array.from(secret.sealed), kekId: secret.kekId, updatedAt: now }], skipDuplicates: true });
    const stored = await this.findSecret(name);
    if (!stored) throw new Error(`sealed secret ${name} vanished after its insert`);
    return stored;
  }
}
