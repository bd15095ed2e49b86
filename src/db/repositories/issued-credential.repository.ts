import { AppError } from '../../errors';
import type { CredentialStatus, IssuedCredentialRecord, IssuedCredentialRepository, ZkpStatementRecord } from '../../domain/ports';
import type { Database, Prisma, PrismaClient } from '../database';
import type { SqlExecutor } from '../sql-executor';
import { hex, run } from '../sql/statement';
import { insertIssuedCredential, issuedCredentialById, issuedCredentialForTenant } from '../sql/family-a.sql';

type Row = Omit<IssuedCredentialRecord, 'document' | 'status'> & { document: Prisma.JsonValue | Record<string, unknown>; status: string };
const toRecord = (row: Row): IssuedCredentialRecord => ({
  ...row,
  document: row.document as Record<string, unknown>,
  status: row.status as CredentialStatus,
});

/**
 * Family A issued credentials. Issuing and reading one credential (issue, verify, holder proofs)
 * are hot paths: prepared statements on pg (src/db/sql/family-a.sql.ts). Re-issuance (a
 * transaction with the superseded row), revocation and ZKP statements stay on Prisma.
 */
export class PrismaIssuedCredentialRepository implements IssuedCredentialRepository {
  private readonly prisma: PrismaClient;
  private readonly sql: SqlExecutor;

  constructor(db: Pick<Database, 'prisma' | 'sql'>) {
    this.prisma = db.prisma;
    this.sql = db.sql;
  }

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
    if (!supersedes) {
      const [row] = await run(this.sql, insertIssuedCredential, [
        record.id, record.tenantId, record.schemaId, record.issuerDidId, record.holderDid, record.holderPublicKeyHex, record.userSignature,
        record.isEncrypted, JSON.stringify(record.document), hex(record.sealedSubject), record.expiresAt.toISOString(),
      ]);
      return toRecord(row!);
    }
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
    const [row] = await run(this.sql, issuedCredentialById, [id]);
    return row ? toRecord(row) : null;
  }

  async findForTenant(tenantId: string, id: string): Promise<IssuedCredentialRecord | null> {
    const [row] = await run(this.sql, issuedCredentialForTenant, [id, tenantId]);
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
