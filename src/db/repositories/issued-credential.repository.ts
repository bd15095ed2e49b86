import { AppError } from '../../errors';
import type { CredentialStatus, IssuedCredentialRecord, IssuedCredentialRepository, ZkpStatementRecord } from '../../domain/ports';
import type { Prisma, PrismaClient } from '../database';

type Row = Omit<IssuedCredentialRecord, 'document' | 'status'> & { document: Prisma.JsonValue; status: string };
const toRecord = (row: Row): IssuedCredentialRecord => ({
  ...row,
  document: row.document as Record<string, unknown>,
  status: row.status as CredentialStatus,
});

export class PrismaIssuedCredentialRepository implements IssuedCredentialRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async create(
    record: Omit<IssuedCredentialRecord, 'createdAt' | 'status' | 'supersededById' | 'revokedAt'>,
    supersedes?: { tenantId: string; id: string },
  ): Promise<IssuedCredentialRecord> {
    const data = {
      ...record,
      document: record.document as Prisma.InputJsonObject,
      sealedSubject: Buffer.from(record.sealedSubject),
      status: 'issued',
    };
    if (!supersedes) return toRecord(await this.prisma.issuedCredential.create({ data }));
    return this.prisma.$transaction(async (tx) => {
      const row = await tx.issuedCredential.create({ data });
      const prior = await tx.issuedCredential.updateMany({
        where: { id: supersedes.id, tenantId: supersedes.tenantId, status: 'issued' },
        data: { status: 'superseded', supersededById: row.id },
      });
      // Only a live credential can be re-issued; the caller checked, this closes the race.
      if (prior.count !== 1) throw new AppError('CONFLICT', `credential ${supersedes.id} is no longer live`);
      return toRecord(row);
    });
  }

  async findById(id: string): Promise<IssuedCredentialRecord | null> {
    const row = await this.prisma.issuedCredential.findUnique({ where: { id } });
    return row ? toRecord(row) : null;
  }

  async findForTenant(tenantId: string, id: string): Promise<IssuedCredentialRecord | null> {
    const row = await this.prisma.issuedCredential.findFirst({ where: { id, tenantId } });
    return row ? toRecord(row) : null;
  }

  async revoke(tenantId: string, id: string, at: Date): Promise<boolean> {
    const res = await this.prisma.issuedCredential.updateMany({ where: { id, tenantId, status: 'issued' }, data: { status: 'revoked', revokedAt: at } });
    return res.count === 1;
  }

  async saveZkpStatement(record: ZkpStatementRecord): Promise<void> {
    // Ed25519 signatures are deterministic: the same statement signed twice is the same row.
    await this.prisma.zkpCertificate.upsert({
      where: { signature: record.signatureHex },
      create: { signature: record.signatureHex, tenantId: record.tenantId, credentialId: record.credentialId, statement: record.statement as Prisma.InputJsonObject },
      update: {},
    });
  }

  async findZkpStatement(signatureHex: string): Promise<ZkpStatementRecord | null> {
    const row = await this.prisma.zkpCertificate.findUnique({ where: { signature: signatureHex } });
    return row ? { signatureHex: row.signature, tenantId: row.tenantId, credentialId: row.credentialId, statement: row.statement as Record<string, unknown> } : null;
  }
}
