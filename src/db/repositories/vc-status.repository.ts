import { randomUUID } from 'node:crypto';
import { AppError } from '../../errors';
import { pickFreeSlot } from '../../domain/status-list';
import type { VcStatusChange, VcStatusListRecord, VcStatusPurpose, VcStatusRepository, VcStatusSlot } from '../../domain/vc-issuers';
import type { Database, Prisma, PrismaClient } from '../database';
import { isUniqueViolation } from '../prisma-errors';
import type { SqlExecutor } from '../sql-executor';
import { run, runAtCommit } from '../sql/statement';
import { insertVcList, lockCurrentVcList, takeVcSlot } from '../sql/vc-api.sql';
import { retryTransaction } from '../transaction-retry';

/** 16 KiB = 131,072 entries: the W3C minimum, so a list does not reveal how few credentials an issuer has. */
export const VC_STATUS_LIST_BYTES = 16 * 1024;

/** Issuance signs inside the transaction that holds the list's row lock; give queued ones room. */
const TX = { maxWait: 30_000, timeout: 30_000 } as const;

/** A unique violation as node-postgres and PGlite report it (SQLSTATE 23505), or Prisma's P2002. */
const isDuplicate = (e: unknown): boolean => isUniqueViolation(e) || (typeof e === 'object' && e !== null && (e as { code?: unknown }).code === '23505');

/** `set_bit` numbers the bits of each byte from the least significant; W3C index 0 is the most significant bit of byte 0. */
const pgBitOf = (index: number): number => (index >> 3) * 8 + (7 - (index & 7));

const bitOf = (bits: Uint8Array, index: number): boolean => (((bits[index >> 3] ?? 0) >> (7 - (index & 7))) & 1) === 1;

interface ListRow {
  id: string;
  seq: number;
  taken: number;
  allocated: Uint8Array;
}

/**
 * Status lists of VC-API issuer instances and the entries of the credentials they issued. Each
 * list row is locked (FOR UPDATE) by whoever draws a slot from it or flips one of its bits, so two
 * instances of the service never hand out one index twice (the (list, index) primary key would
 * refuse it anyway).
 */
export class PrismaVcStatusRepository implements VcStatusRepository {
  private readonly prisma: PrismaClient;
  private readonly sql: SqlExecutor;
  /** (issuer, purpose) pairs whose first list is known to exist: lists are never deleted but with their issuer. */
  private readonly known = new Set<string>();

  constructor(db: Pick<Database, 'prisma' | 'sql'>) {
    this.prisma = db.prisma;
    this.sql = db.sql;
  }

  async allocate<T>(
    input: { tenantId: string; issuerId: string; credentialId: string; purposes: readonly VcStatusPurpose[] },
    build: (slots: readonly VcStatusSlot[]) => Promise<T>,
  ): Promise<T> {
    // Sorted, so two issuances of one issuer lock its lists in the same order.
    const purposes = [...new Set(input.purposes)].sort();
    for (const purpose of purposes) await this.ensureList(input.tenantId, input.issuerId, purpose);
    // On pg (PGlite) directly with prepared statements (issue 19): per purpose, lock the current
    // list, draw a slot, then set its bit and insert the entry in one statement; the credential is
    // built and signed for its slots inside the same transaction (the lock keeps the slot ours).
    try {
      return await retryTransaction(() =>
        this.sql.transaction(async (tx) => {
          const slots: VcStatusSlot[] = [];
          for (const purpose of purposes) {
            const list = await this.currentList(tx, input.tenantId, input.issuerId, purpose);
            const index = pickFreeSlot(list.allocated);
            if (index === null) throw new Error('a status list with free slots has none');
            // Not awaited: it travels with the next purpose's lock or with the COMMIT, and a
            // failure (a credential id already issued) still fails the whole transaction.
            runAtCommit(tx, takeVcSlot, [list.id, pgBitOf(index), index, input.tenantId, input.credentialId, purpose]);
            slots.push({ listId: list.id, index, purpose });
          }
          return build(slots);
        }),
      );
    } catch (e) {
      if (isDuplicate(e)) throw new AppError('CONFLICT', 'a credential with this id was already issued by this tenant (credential.id or options.credentialId must be new)');
      throw e;
    }
  }

  /** The first list of an issuer and purpose, created empty on first use (race-safe: unique issuer, purpose, seq). */
  private async ensureList(tenantId: string, issuerId: string, purpose: VcStatusPurpose): Promise<void> {
    const key = `${issuerId}/${purpose}`;
    if (this.known.has(key)) return;
    await run(this.sql, insertVcList, [randomUUID(), tenantId, issuerId, purpose, 0, VC_STATUS_LIST_BYTES]);
    this.known.add(key);
  }

  private emptyList(tenantId: string, issuerId: string, purpose: VcStatusPurpose, seq: number) {
    return { id: randomUUID(), tenantId, issuerId, purpose, seq, bits: Buffer.alloc(VC_STATUS_LIST_BYTES), allocated: Buffer.alloc(VC_STATUS_LIST_BYTES) };
  }

  /**
   * The newest list of the issuer and purpose, locked; when it is full, the next one, created
   * while the full one's lock is held (so only one transaction creates it).
   */
  private async currentList(tx: SqlExecutor, tenantId: string, issuerId: string, purpose: VcStatusPurpose): Promise<ListRow> {
    const [row] = await run(tx, lockCurrentVcList, [issuerId, purpose]);
    if (!row) throw new Error('status list vanished');
    if (row.taken < row.allocated.length * 8) return row;
    const next = this.emptyList(tenantId, issuerId, purpose, row.seq + 1);
    await run(tx, insertVcList, [next.id, tenantId, issuerId, purpose, next.seq, VC_STATUS_LIST_BYTES]);
    return { id: next.id, seq: next.seq, taken: 0, allocated: next.allocated };
  }

  async entries(tenantId: string, credentialId: string): Promise<VcStatusSlot[]> {
    const rows = await this.prisma.vcCredentialStatus.findMany({ where: { tenantId, credentialId }, orderBy: { purpose: 'asc' } });
    return rows.map((r) => ({ listId: r.listId, index: r.index, purpose: r.purpose as VcStatusPurpose }));
  }

  async setStatus(tenantId: string, credentialId: string, purpose: VcStatusPurpose, set: boolean): Promise<VcStatusChange | null> {
    const entry = await this.prisma.vcCredentialStatus.findUnique({ where: { tenantId_credentialId_purpose: { tenantId, credentialId, purpose } } });
    if (!entry) return null;
    const slot: VcStatusSlot = { listId: entry.listId, index: entry.index, purpose };
    return retryTransaction(() =>
      this.prisma.$transaction(async (tx) => {
        const [list] = await tx.$queryRaw<{ bits: Uint8Array }[]>`SELECT bits FROM vc_status_lists WHERE id = ${entry.listId}::uuid FOR UPDATE`;
        if (!list) throw new Error('status list vanished');
        if (bitOf(list.bits, entry.index) === set) return { slot, set, changed: false };
        const bits = Buffer.from(list.bits);
        // W3C Bitstring Status List: index 0 is the most significant bit of byte 0.
        if (set) bits[entry.index >> 3]! |= 0x80 >> (entry.index & 7);
        else bits[entry.index >> 3]! &= ~(0x80 >> (entry.index & 7)) & 0xff;
        await tx.vcStatusList.update({ where: { id: entry.listId }, data: { bits, version: { increment: 1 } } });
        return { slot, set, changed: true };
      }, TX),
    );
  }

  async bit(listId: string, index: number): Promise<boolean | null> {
    const list = await this.prisma.vcStatusList.findUnique({ where: { id: listId }, select: { bits: true } });
    if (!list || !Number.isSafeInteger(index) || index < 0 || index >= list.bits.length * 8) return null;
    return bitOf(list.bits, index);
  }

  async list(listId: string): Promise<VcStatusListRecord | null> {
    const r = await this.prisma.vcStatusList.findUnique({ where: { id: listId } });
    return r ? { id: r.id, tenantId: r.tenantId, issuerId: r.issuerId, purpose: r.purpose as VcStatusPurpose, bits: r.bits, version: r.version, updatedAt: r.updatedAt } : null;
  }

  async signedList(listId: string): Promise<{ document: Record<string, unknown>; version: number } | null> {
    const r = await this.prisma.vcStatusList.findUnique({ where: { id: listId }, select: { version: true, signedVersion: true, signedDocument: true } });
    return r && r.signedVersion === r.version && r.signedDocument !== null ? { document: r.signedDocument as Record<string, unknown>, version: r.version } : null;
  }

  async storeSignedList(listId: string, version: number, document: Record<string, unknown>): Promise<void> {
    await this.prisma.vcStatusList.updateMany({ where: { id: listId, version }, data: { signedDocument: document as Prisma.InputJsonObject, signedVersion: version } });
  }
}
