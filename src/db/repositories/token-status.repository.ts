import { randomUUID } from 'node:crypto';
import { markSlot, pickFreeSlot } from '../../domain/status-list';
import { statusAt, withStatus } from '../../formats/token-status-list/bits';
import type { Prisma, PrismaClient } from '../database';
import { retryTransaction } from '../transaction-retry';

/**
 * 16 KiB = 131,072 one-bit entries per list, like the VC-API's Bitstring lists: a list must be
 * large for its herd to hide anyone (draft-ietf-oauth-status-list §12.5), and an empty one
 * compresses to a few dozen bytes.
 */
export const TOKEN_STATUS_LIST_BYTES = 16 * 1024;

/** Allocation signs nothing, but several issuances of a tenant queue on one row lock. */
const TX = { maxWait: 30_000, timeout: 30_000 } as const;

export interface TokenStatusSlot {
  readonly listId: string;
  readonly idx: number;
}

export interface TokenStatusListRecord {
  readonly id: string;
  readonly tenantId: string;
  readonly bits: Uint8Array;
  readonly version: number;
}

export interface SignedTokenRecord {
  readonly token: string;
  readonly version: number;
  readonly signedAt: Date;
}

interface ListRow {
  id: string;
  seq: number;
  taken: number;
  allocated: Uint8Array;
}

/**
 * Token status lists of a tenant and the slots credentials hold in them. The newest list row is
 * locked (FOR UPDATE) by whoever draws a slot from it, and any list row by whoever flips one of
 * its bits, so two instances never hand out one index twice (the (list, idx) key would refuse it
 * anyway) nor lose a flip.
 */
export class PrismaTokenStatusRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /** Draws a random free slot of the tenant's newest list (a new list when it is full) and records `credentialId` in it. */
  async allocate(tenantId: string, credentialId: string): Promise<TokenStatusSlot> {
    await this.ensureList(tenantId);
    return retryTransaction(() =>
      this.prisma.$transaction(async (tx) => {
        const list = await this.currentList(tx, tenantId);
        const idx = pickFreeSlot(list.allocated);
        if (idx === null) throw new Error('a status list with free slots has none');
        await tx.tokenStatusList.update({ where: { id: list.id }, data: { allocated: Buffer.from(markSlot(list.allocated, idx)), taken: list.taken + 1 } });
        await tx.tokenStatusEntry.create({ data: { listId: list.id, idx, tenantId, credentialId } });
        return { listId: list.id, idx };
      }, TX),
    );
  }

  /** The tenant's first list, created empty on first use (race-safe: unique tenant and seq). */
  private async ensureList(tenantId: string): Promise<void> {
    const found = await this.prisma.tokenStatusList.findFirst({ where: { tenantId }, select: { id: true } });
    if (found) return;
    await this.prisma.tokenStatusList.createMany({ data: [this.emptyList(tenantId, 0)], skipDuplicates: true });
  }

  private emptyList(tenantId: string, seq: number) {
    return { id: randomUUID(), tenantId, seq, bits: Buffer.alloc(TOKEN_STATUS_LIST_BYTES), allocated: Buffer.alloc(TOKEN_STATUS_LIST_BYTES) };
  }

  /** The newest list of the tenant, locked; when it is full, the next one, created under the full one's lock. */
  private async currentList(tx: Prisma.TransactionClient, tenantId: string): Promise<ListRow> {
    const [row] = await tx.$queryRaw<ListRow[]>`
      SELECT id::text, seq, taken, allocated FROM token_status_lists
      WHERE tenant_id = ${tenantId}::uuid ORDER BY seq DESC LIMIT 1 FOR UPDATE`;
    if (!row) throw new Error('token status list vanished');
    if (row.taken < row.allocated.length * 8) return row;
    const next = this.emptyList(tenantId, row.seq + 1);
    await tx.tokenStatusList.create({ data: next });
    return { id: next.id, seq: next.seq, taken: 0, allocated: next.allocated };
  }

  /** The slots a credential of the tenant holds (one per list it is in). */
  async slotsOf(tenantId: string, credentialId: string): Promise<TokenStatusSlot[]> {
    const rows = await this.prisma.tokenStatusEntry.findMany({ where: { tenantId, credentialId }, orderBy: [{ listId: 'asc' }, { idx: 'asc' }] });
    return rows.map((r) => ({ listId: r.listId, idx: r.idx }));
  }

  /**
   * Sets the status of every slot the credential holds to `status`, one list at a time under its
   * row lock; a list's version moves only when one of its bits changed. Returns the slots changed.
   */
  async setStatus(tenantId: string, credentialId: string, status: number): Promise<number> {
    const slots = await this.slotsOf(tenantId, credentialId);
    const byList = new Map<string, number[]>();
    for (const s of slots) byList.set(s.listId, [...(byList.get(s.listId) ?? []), s.idx]);
    let changed = 0;
    // Sorted, so two revocations of credentials sharing lists lock them in the same order.
    for (const listId of [...byList.keys()].sort()) {
      changed += await retryTransaction(() =>
        this.prisma.$transaction(async (tx) => {
          const [list] = await tx.$queryRaw<{ bits: Uint8Array }[]>`SELECT bits FROM token_status_lists WHERE id = ${listId}::uuid FOR UPDATE`;
          if (!list) return 0;
          let bits: Uint8Array = list.bits;
          let n = 0;
          for (const idx of byList.get(listId)!) {
            if (statusAt(bits, 1, idx) === status) continue;
            bits = withStatus(bits, 1, idx, status);
            n++;
          }
          if (n > 0) await tx.tokenStatusList.update({ where: { id: listId }, data: { bits: Buffer.from(bits), version: { increment: 1 } } });
          return n;
        }, TX),
      );
    }
    return changed;
  }

  /** The status of one slot, reading only its byte; null when there is no such list, undefined past its end. */
  async statusOf(listId: string, idx: number): Promise<number | undefined | null> {
    const [row] = await this.prisma.$queryRaw<{ len: number; byte: number | null }[]>`
      SELECT length(bits) AS len,
             CASE WHEN ${idx}::int >= 0 AND ${idx}::int < length(bits) * 8 THEN get_byte(bits, ${idx}::int / 8) END AS byte
      FROM token_status_lists WHERE id = ${listId}::uuid`;
    if (!row) return null;
    if (row.byte === null) return undefined;
    return (Number(row.byte) >>> (idx & 7)) & 1;
  }

  async list(listId: string): Promise<TokenStatusListRecord | null> {
    const r = await this.prisma.tokenStatusList.findUnique({ where: { id: listId }, select: { id: true, tenantId: true, bits: true, version: true } });
    return r ? { id: r.id, tenantId: r.tenantId, bits: r.bits, version: r.version } : null;
  }

  /** The stored token, if it was signed for the list's current version. */
  async signedToken(listId: string): Promise<SignedTokenRecord | null> {
    const r = await this.prisma.tokenStatusList.findUnique({ where: { id: listId }, select: { version: true, signedVersion: true, signedToken: true, signedAt: true } });
    return r && r.signedVersion === r.version && r.signedToken !== null && r.signedAt !== null ? { token: r.signedToken, version: r.version, signedAt: r.signedAt } : null;
  }

  /** Stores a token signed for `version`; a no-op when the bits moved meanwhile (the next read signs again). */
  async storeSignedToken(listId: string, version: number, token: string, signedAt: Date): Promise<void> {
    await this.prisma.tokenStatusList.updateMany({ where: { id: listId, version }, data: { signedToken: token, signedVersion: version, signedAt } });
  }
}
