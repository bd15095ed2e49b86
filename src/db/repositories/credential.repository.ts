import { randomUUID } from 'node:crypto';
import { AppError } from '../../errors';
import { markSlot, pickFreeSlot } from '../../domain/status-list';
import type { AnchorRequest, FamilyBCredentialRecord, StatusListRecord } from '../../domain/ports';
import type { Ledger, LedgerCheckpoint } from '../../ledger/ledger.port';
import { type CacheOptions, LocalInvalidationBus, RecordCache } from '../../cache';
import type { Prisma, PrismaClient } from '../database';
import { type SequencerOptions, type SequencerStats, type Settled, Sequencer } from '../../ledger/sequencer';
import { isUniqueViolation } from '../prisma-errors';
import { retryTransaction } from '../transaction-retry';

/** 16 KiB: the W3C minimum, so a list does not reveal how few credentials an issuer has. */
export const STATUS_LIST_BYTES = 16 * 1024;

/** Issues wait on two row locks (status list, log head); give queued transactions room. */
const TX = { maxWait: 60_000, timeout: 60_000 } as const;

type CredRow = Omit<FamilyBCredentialRecord, 'document' | 'status'> & { document: Prisma.JsonValue; status: string };
const toRecord = (r: CredRow): FamilyBCredentialRecord => ({
  id: r.id,
  tenantId: r.tenantId,
  templateId: r.templateId,
  issuerDidId: r.issuerDidId,
  holder: r.holder,
  document: r.document as Record<string, unknown>,
  credentialHash: r.credentialHash,
  statusListId: r.statusListId,
  statusIndex: r.statusIndex,
  status: r.status as 'issued' | 'revoked',
  revokedAt: r.revokedAt,
  expiresAt: r.expiresAt,
});

export interface BuiltCredential {
  readonly id: string;
  readonly document: Record<string, unknown>;
  readonly credentialHash: Uint8Array;
  readonly holder: string | null;
  readonly expiresAt: Date;
  readonly anchor: AnchorRequest;
}

export interface IssueInput {
  readonly tenantId: string;
  readonly templateId: string;
  readonly issuerDidId: string;
  readonly statusListId: string;
}
type IssueItem = IssueInput & { readonly build: (statusIndex: number) => BuiltCredential };

export interface RevokeInput {
  readonly tenantId: string;
  readonly id: string;
  /** The credential's list: revocations are batched per list. */
  readonly statusListId: string;
  readonly at: Date;
}
type RevokeItem = RevokeInput & { readonly anchor: (record: FamilyBCredentialRecord) => AnchorRequest };

/**
 * Per-tenant admission of database write work (the services' FairGate). Batches take one slot of
 * their tenant for their transaction, so a tenant's share of connections is counted in batches,
 * not requests: the requests themselves wait in the sequencer, holding nothing.
 */
export interface WriteGate {
  run<T>(owner: string, fn: () => Promise<T>): Promise<T>;
}

const UNGATED: WriteGate = { run: (_owner, fn) => fn() };

/** Appends each log's entries in one batch (a batch of one status list normally has one log). Returns the logs touched. */
async function appendByLog(tx: Prisma.TransactionClient, ledger: Ledger, anchors: readonly AnchorRequest[]): Promise<string[]> {
  const byLog = new Map<string, AnchorRequest[]>();
  for (const a of anchors) byLog.set(a.logId, [...(byLog.get(a.logId) ?? []), a]);
  // Sorted, so two batches touching the same logs lock them in the same order.
  const logs = [...byLog.keys()].sort();
  for (const logId of logs) await ledger.appendBatch(tx, logId, byLog.get(logId)!);
  return logs;
}

/** One status bit as read for a verification: the list's issuer and the bit (null: index out of range). */
export interface StatusBit {
  readonly issuerDidId: string;
  readonly revoked: boolean | null;
}

/** Largest byte offset PostgreSQL's get_byte takes (int4). */
const MAX_BYTE_INDEX = 2 ** 31 - 1;

/**
 * Family B credentials and the issuers' status lists. Issuances and revocations go through a
 * per-status-list sequencer: concurrent requests of one issuer share one transaction.
 */
export class PrismaCredentialRepository {
  private readonly issuing: Sequencer<IssueItem, FamilyBCredentialRecord>;
  private readonly revoking: Sequencer<RevokeItem, FamilyBCredentialRecord | null>;
  /** issuer DID id -> its status list id: fixed once the list exists (lists are never re-created). */
  private readonly listOfIssuer: RecordCache<string>;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly ledger: Ledger,
    batch: SequencerOptions = { windowMs: 2, max: 128 },
    private readonly gate: WriteGate = UNGATED,
    cache: CacheOptions = { maxEntries: 0, bus: new LocalInvalidationBus() },
  ) {
    this.issuing = new Sequencer((key, items) => this.issueBatch(key, items), batch);
    this.revoking = new Sequencer((key, items) => this.revokeBatch(key, items), batch);
    this.listOfIssuer = new RecordCache('status-list-of-issuer', cache.maxEntries, cache.bus);
  }

  /** The issuer's revocation list, created empty on first use (race-safe on the unique issuer). */
  async ensureStatusList(tenantId: string, issuerDidId: string): Promise<string> {
    const found = await this.listOfIssuer.get(issuerDidId, async () => (await this.prisma.statusList.findUnique({ where: { issuerDidId }, select: { id: true } }))?.id ?? null);
    if (found) return found;
    try {
      const row = await this.prisma.statusList.create({
        data: { id: randomUUID(), tenantId, issuerDidId, purpose: 'revocation', bits: new Uint8Array(STATUS_LIST_BYTES), allocated: new Uint8Array(STATUS_LIST_BYTES) },
        select: { id: true },
      });
      return row.id;
    } catch (e) {
      if (!isUniqueViolation(e)) throw e;
      return (await this.prisma.statusList.findUniqueOrThrow({ where: { issuerDidId }, select: { id: true } })).id;
    }
  }

  /**
   * Issues one credential: queued with the other issuances of the same status list (the same
   * issuer, so the same credential log) and committed in one batch (see `issueBatch`). Resolves
   * once the batch committed and the log's signed head covering it is stored.
   *
   * @throws AppError CONFLICT when every slot of the issuer's list is taken.
   */
  issue(input: IssueInput, build: (statusIndex: number) => BuiltCredential): Promise<FamilyBCredentialRecord> {
    return this.issuing.submit(input.statusListId, { ...input, build });
  }

  /**
   * One transaction for a batch of one status list: lock the list row once, draw a free slot at
   * random for each credential, build and sign each for its slot, insert them in one statement,
   * anchor their hashes in the issuer's log in one append, and update the list once. A credential
   * that cannot be built (or finds the list full) fails alone; the others commit.
   */
  private async issueBatch(statusListId: string, items: readonly IssueItem[]): Promise<Settled<FamilyBCredentialRecord>[]> {
    // One list belongs to one issuer DID, so to one tenant: every item shares it.
    const outcome = await this.gate.run(items[0]!.tenantId, () => retryTransaction(() => this.prisma.$transaction(async (tx) => {
      const [slot] = await tx.$queryRaw<{ next_index: number; allocated: Uint8Array }[]>`SELECT next_index, allocated FROM status_lists WHERE id = ${statusListId}::uuid FOR UPDATE`;
      if (!slot) throw new Error('status list vanished');
      let allocated: Uint8Array = slot.allocated;
      let taken = slot.next_index;
      const results: Settled<FamilyBCredentialRecord>[] = [];
      const rows: FamilyBCredentialRecord[] = [];
      const anchors: AnchorRequest[] = [];
      for (const item of items) {
        const index = taken >= allocated.length * 8 ? null : pickFreeSlot(allocated);
        if (index === null) {
          results.push({ error: new AppError('CONFLICT', `the issuer's status list is full (${allocated.length * 8} credentials): issue from another issuer DID`) });
          continue;
        }
        let built: BuiltCredential;
        try {
          built = item.build(index);
        } catch (error) {
          results.push({ error });
          continue;
        }
        allocated = markSlot(allocated, index);
        taken++;
        const record: FamilyBCredentialRecord = {
          id: built.id,
          tenantId: item.tenantId,
          templateId: item.templateId,
          issuerDidId: item.issuerDidId,
          holder: built.holder,
          document: built.document,
          credentialHash: Buffer.from(built.credentialHash),
          statusListId,
          statusIndex: index,
          status: 'issued',
          revokedAt: null,
          expiresAt: built.expiresAt,
        };
        rows.push(record);
        anchors.push(built.anchor);
        results.push({ value: record });
      }
      if (rows.length === 0) return { results, heads: [] };
      await tx.credential.createMany({
        data: rows.map((r) => ({ ...r, document: r.document as Prisma.InputJsonObject, credentialHash: Buffer.from(r.credentialHash) })),
      });
      const logs = await appendByLog(tx, this.ledger, anchors);
      // nextIndex counts the slots handed out; `version` (the public bits) does not move on issuance.
      await tx.statusList.update({ where: { id: statusListId }, data: { nextIndex: taken, allocated: Buffer.from(allocated) } });
      return { results, heads: await this.signHeads(tx, logs) };
    }, TX)));
    this.ledger.committed(outcome.heads);
    return outcome.results;
  }

  async findForTenant(tenantId: string, id: string): Promise<FamilyBCredentialRecord | null> {
    const row = await this.prisma.credential.findFirst({ where: { tenantId, id } });
    return row ? toRecord(row) : null;
  }

  /** Any tenant's credential by id: derived proofs (ZKP tokens) are checked against it wherever they are shown. */
  async findById(id: string): Promise<FamilyBCredentialRecord | null> {
    const row = await this.prisma.credential.findUnique({ where: { id } });
    return row ? toRecord(row) : null;
  }

  /**
   * Sets the status bit, marks the record revoked and anchors the revocation; idempotent. Queued
   * with the other revocations of the same status list and committed in one batch. Null when the
   * tenant has no such credential.
   */
  revoke(input: RevokeInput, anchor: (record: FamilyBCredentialRecord) => AnchorRequest): Promise<FamilyBCredentialRecord | null> {
    return this.revoking.submit(input.statusListId, { ...input, anchor });
  }

  /**
   * One transaction for a batch of one status list: lock the list row once, read the credentials,
   * set their bits, bump the list version once, mark them revoked in one statement and anchor the
   * revocations in one append. All revocations of a batch share one `revokedAt` (the latest
   * requested time), so one statement can write them.
   */
  private async revokeBatch(statusListId: string, items: readonly RevokeItem[]): Promise<Settled<FamilyBCredentialRecord | null>[]> {
    const outcome = await this.gate.run(items[0]!.tenantId, () => retryTransaction(() => this.prisma.$transaction(async (tx) => {
      const [list] = await tx.$queryRaw<{ bits: Uint8Array }[]>`SELECT bits FROM status_lists WHERE id = ${statusListId}::uuid FOR UPDATE`;
      if (!list) throw new Error('status list vanished');
      const found = await tx.credential.findMany({ where: { id: { in: items.map((i) => i.id) }, statusListId } });
      const byId = new Map(found.map((r) => [r.id, toRecord(r)]));
      const at = new Date(Math.max(...items.map((i) => i.at.getTime())));
      const bits = Buffer.from(list.bits);
      const changed: FamilyBCredentialRecord[] = [];
      const anchors: AnchorRequest[] = [];
      const results = items.map((item): Settled<FamilyBCredentialRecord | null> => {
        const row = byId.get(item.id);
        if (!row || row.tenantId !== item.tenantId) return { value: null };
        if (row.status === 'revoked') return { value: row };
        const record: FamilyBCredentialRecord = { ...row, status: 'revoked', revokedAt: at };
        let entry: AnchorRequest;
        try {
          entry = item.anchor(record);
        } catch (error) {
          return { error };
        }
        // W3C Bitstring Status List: bit 0 is the most significant bit of byte 0.
        bits[row.statusIndex >> 3]! |= 0x80 >> (row.statusIndex & 7);
        byId.set(row.id, record);
        changed.push(record);
        anchors.push(entry);
        return { value: record };
      });
      if (changed.length === 0) return { results, heads: [] };
      await tx.statusList.update({ where: { id: statusListId }, data: { bits, version: { increment: 1 } } });
      await tx.credential.updateMany({ where: { id: { in: changed.map((r) => r.id) } }, data: { status: 'revoked', revokedAt: at } });
      const heads = await this.signHeads(tx, await appendByLog(tx, this.ledger, anchors));
      return { results, heads };
    }, TX)));
    this.ledger.committed(outcome.heads);
    return outcome.results;
  }

  /**
   * Signs and stores the head of each log the batch appended to, inside the batch's transaction
   * (which holds the log row locks already): the credentials, their leaves, the head covering them
   * and its anchor outbox row commit together, in one disk flush, so an answered credential is
   * always covered by a stored head. A head refused for integrity fails the whole batch (nothing of
   * it is written to a log that no longer extends its signed head).
   */
  private async signHeads(tx: Prisma.TransactionClient, logs: readonly string[]): Promise<LedgerCheckpoint[]> {
    const heads: LedgerCheckpoint[] = [];
    for (const logId of logs) heads.push(await this.ledger.settleInTransaction(tx, logId));
    return heads;
  }

  /** Batch counters of the issuance and revocation sequencers (tests and benchmarks). */
  stats(): { issue: SequencerStats; revoke: SequencerStats } {
    return { issue: this.issuing.stats(), revoke: this.revoking.stats() };
  }

  /** Shutdown: refuses new requests, commits what is queued and waits for every batch in flight. */
  async drain(): Promise<void> {
    await Promise.all([this.issuing.drain(), this.revoking.drain()]);
  }

  /**
   * One bit of a list, read fresh on every call (revocation is never served from a cache), as one
   * small statement: the byte holding the bit, not the 16 KiB list. W3C Bitstring Status List
   * numbers bits from the most significant bit of byte 0. Null when there is no such list.
   */
  async statusBit(listId: string, index: number): Promise<StatusBit | null> {
    const byte = Math.floor(index / 8);
    const at = Number.isSafeInteger(index) && index >= 0 && byte <= MAX_BYTE_INDEX ? byte : -1;
    const [row] = await this.prisma.$queryRaw<{ issuer_did_id: string; byte: number | null }[]>`
      SELECT issuer_did_id::text, CASE WHEN ${at}::int >= 0 AND ${at}::int < octet_length(bits) THEN get_byte(bits, ${at}::int) END AS byte
      FROM status_lists WHERE id = ${listId}::uuid`;
    if (!row) return null;
    return { issuerDidId: row.issuer_did_id, revoked: row.byte === null ? null : ((row.byte >> (7 - (index & 7))) & 1) === 1 };
  }

  async statusList(id: string): Promise<StatusListRecord | null> {
    const row = await this.prisma.statusList.findUnique({ where: { id } });
    return row ? { id: row.id, tenantId: row.tenantId, issuerDidId: row.issuerDidId, purpose: row.purpose, bits: row.bits, version: row.version, updatedAt: row.updatedAt } : null;
  }

  /** The stored signed document when it is of the list's current version; null otherwise (or no such list). */
  async signedStatusList(id: string): Promise<Record<string, unknown> | null> {
    const row = await this.prisma.statusList.findUnique({ where: { id }, select: { version: true, signedVersion: true, signedDocument: true } });
    return row && row.signedVersion === row.version && row.signedDocument !== null ? (row.signedDocument as Record<string, unknown>) : null;
  }

  /** Stores the signed document of `version`, unless the bits moved on meanwhile (then the next read re-signs). */
  async storeSignedStatusList(id: string, version: number, document: Record<string, unknown>): Promise<void> {
    await this.prisma.statusList.updateMany({ where: { id, version }, data: { signedDocument: document as Prisma.InputJsonObject, signedVersion: version } });
  }
}
