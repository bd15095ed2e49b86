import { randomInt, randomUUID } from 'node:crypto';
import { AppError } from '../../errors';
import type { AnchorRequest, FamilyBCredentialRecord, StatusListRecord } from '../../domain/ports';
import type { FoundEntry, Ledger, LedgerCheckpoint } from '../../ledger/ledger.port';
import { type CacheOptions, LocalInvalidationBus, RecordCache } from '../../cache';
import type { Database, Prisma, PrismaClient } from '../database';
import { type SequencerOptions, type SequencerStats, type Settled, Sequencer } from '../../ledger/sequencer';
import { GroupSequencer, type LaneBatch } from '../../ledger/group-sequencer';
import { HeadsBehindError } from '../../ledger/group-append';
import type { SqlExecutor, TxExecutor } from '../sql-executor';
import { hex, run, runAtCommit } from '../sql/statement';
import { type CredentialRow, credentialById, credentialForTenant, statusByte, verificationReads } from '../sql/family-b.sql';
import { PROBES_PER_SLOT, lockAndPickSlots, lockListsAndLogs, writeIssueTick } from '../sql/family-b-issue.sql';
import { checkEntryHash, logNotFound } from '../../ledger/batch-append';
import { parseLedgerId } from '../../ledger/log-id';
import { bytesToBase64 } from '../../domain/encoding';
import { isUniqueViolation } from '../prisma-errors';
import { retryTransaction } from '../transaction-retry';

/** 16 KiB: the W3C minimum, so a list does not reveal how few credentials an issuer has. */
export const STATUS_LIST_BYTES = 16 * 1024;
/** Slot probes are drawn in [0, 2^31) (int4) and reduced modulo the list's size, a power of two dividing 2^31: uniform. */
const SLOT_PROBE_RANGE = 2 ** 31;

/** Issues wait on two row locks (status list, log head); give queued transactions room. */
const TX = { maxWait: 60_000, timeout: 60_000 } as const;
/**
 * The write-gate owner of a tick that spans tenants: one tick runs at a time, so it holds one
 * connection whoever's credentials it carries; the tick itself shares out its places round-robin
 * per issuer (GroupSequencer), which is where one tenant's flood is kept from starving another.
 */
const MIXED_TICK_OWNER = 'credgate:issuance-tick';

type CredRow = Omit<FamilyBCredentialRecord, 'document' | 'status'> & { document: Prisma.JsonValue; status: string };
const toRecord = (r: CredRow | CredentialRow): FamilyBCredentialRecord => ({
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
  /**
   * The issuer's credential log (the one `build`'s anchor names), when known before the credential
   * is built: the tick then locks it with the status lists, one statement fewer.
   */
  readonly logId?: string;
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

type IssueOutcome = { results: Settled<FamilyBCredentialRecord>[][]; heads: readonly LedgerCheckpoint[] };

/** ledger_leaves' unique (log_seq, entry_hash), as node-postgres and PGlite report it (SQLSTATE 23505 on that table). */
function isLedgerLeafDuplicate(e: unknown): boolean {
  const o = e as { code?: unknown; table?: unknown } | null;
  return typeof o === 'object' && o !== null && o.code === '23505' && o.table === 'ledger_leaves';
}

/** One status bit as read for a verification: the list's issuer and the bit (null: index out of range). */
export interface StatusBit {
  readonly issuerDidId: string;
  readonly revoked: boolean | null;
}

/** Largest byte offset PostgreSQL's get_byte takes (int4). */
const MAX_BYTE_INDEX = 2 ** 31 - 1;

/** The byte holding bit `index`, or -1 (no byte: the statements answer null) for an index out of range. */
function byteOffset(index: number): number {
  const byte = Math.floor(index / 8);
  return Number.isSafeInteger(index) && index >= 0 && byte <= MAX_BYTE_INDEX ? byte : -1;
}

/** W3C Bitstring Status List numbers bits from the most significant bit of byte 0. */
function bitOf(row: { readonly issuerDidId: string; readonly byte: number | null }, index: number): StatusBit {
  return { issuerDidId: row.issuerDidId, revoked: row.byte === null ? null : ((row.byte >> (7 - (index & 7))) & 1) === 1 };
}

/**
 * Family B credentials and the issuers' status lists. Issuances and revocations go through a
 * per-status-list sequencer: concurrent requests of one issuer share one transaction.
 */
export class PrismaCredentialRepository {
  private readonly issuing: GroupSequencer<IssueItem, FamilyBCredentialRecord>;
  private readonly prisma: PrismaClient;
  private readonly sql: SqlExecutor;
  private readonly revoking: Sequencer<RevokeItem, FamilyBCredentialRecord | null>;
  /** issuer DID id -> its status list id: fixed once the list exists (lists are never re-created). */
  private readonly listOfIssuer: RecordCache<string>;

  constructor(
    db: Pick<Database, 'prisma' | 'sql'>,
    private readonly ledger: Ledger,
    batch: SequencerOptions = { windowMs: 2, max: 128 },
    private readonly gate: WriteGate = UNGATED,
    cache: CacheOptions = { maxEntries: 0, bus: new LocalInvalidationBus() },
  ) {
    this.prisma = db.prisma;
    this.sql = db.sql;
    this.issuing = new GroupSequencer((lanes) => this.issueTick(lanes), batch);
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
   * issuer, so the same credential log) and committed in the next tick together with every other
   * issuer's queued issuances (see `issueTick`). Resolves once the tick committed, with the log's
   * signed head covering it stored in the same transaction.
   *
   * @throws AppError CONFLICT when every slot of the issuer's list is taken.
   */
  issue(input: IssueInput, build: (statusIndex: number) => BuiltCredential): Promise<FamilyBCredentialRecord> {
    return this.issuing.submit(input.statusListId, { ...input, build });
  }

  /**
   * One transaction for every status list (issuer) with queued issuances, on `pg` (or PGlite)
   * directly with prepared statements: lock the lists (sorted), draw a free slot at random for each
   * credential and lock the issuers' logs in the same statement, build and sign each credential for
   * its slot, let the ledger read the logs' heads and frontiers (`prepareGroupAppend`), then write the
   * credentials, the lists' allocation maps, the leaves, nodes, sizes, signed heads and outbox rows
   * in ONE statement. Five statements per tick (BEGIN and COMMIT included) whatever the number of
   * issuers, four when every log of the tick is still where this instance's previous tick left it
   * (the ledger then builds from the frontier it remembered and skips the read, the largest
   * statement of a tick). On PostgreSQL those four are two round trips: BEGIN goes out with the
   * lock, and the write with the COMMIT. A credential that cannot be built (or finds its list full) fails alone;
   * the others commit.
   */
  private async issueTick(lanes: readonly LaneBatch<IssueItem>[]): Promise<Settled<FamilyBCredentialRecord>[][]> {
    const tenants = new Set(lanes.flatMap((l) => l.items.map((i) => i.tenantId)));
    const owner = tenants.size === 1 ? [...tenants][0]! : MIXED_TICK_OWNER;
    const outcome = await this.gate.run(owner, async () => {
      try {
        return await this.commitTick(lanes);
      } catch (e) {
        if (!(e instanceof HeadsBehindError)) throw e;
        // A log beyond its signed head (a crash between a commit and its head): the full check
        // (`settle`: re-derives every node since the head) stores its head, then the tick runs again.
        for (const logId of e.logIds) await this.ledger.settle(logId);
        return this.commitTick(lanes);
      }
    });
    // Only here, after the COMMIT returned: the ledger may remember the frontiers of this tick.
    this.ledger.committed(outcome.heads);
    return outcome.results;
  }

  /**
   * The tick's transaction, run again on a race (`retryTransaction`), and once more when a log built
   * from a remembered frontier met an entry it already held: that path did not read the present
   * entries, so the write refused the duplicate (unique entry hash) instead of answering it
   * `created: false`. The ledger forgot those logs' frontiers when it took them, so the run again
   * reads them and deduplicates as a tick always did; any other failure is the sequencer's to split.
   */
  private async commitTick(lanes: readonly LaneBatch<IssueItem>[]): Promise<IssueOutcome> {
    const attempt = { remembered: false };
    const once = (): Promise<IssueOutcome> => retryTransaction(() => this.sql.transaction((tx) => this.issueIn(tx, lanes, attempt)));
    try {
      return await once();
    } catch (e) {
      if (!attempt.remembered || !isLedgerLeafDuplicate(e)) throw e;
      return once();
    }
  }

  private async issueIn(tx: TxExecutor, lanes: readonly LaneBatch<IssueItem>[], attempt: { remembered: boolean }): Promise<IssueOutcome> {
    attempt.remembered = false;
    const { slotsOf, logSizes } = await this.pickSlots(tx, lanes);
    const rows: FamilyBCredentialRecord[] = [];
    const anchors = new Map<string, AnchorRequest[]>();
    const results = lanes.map((lane) => {
      const slots = slotsOf.get(lane.key);
      if (!slots) throw new Error('status list vanished');
      let next = 0;
      return lane.items.map((item): Settled<FamilyBCredentialRecord> => {
        const index = slots[next];
        if (index === undefined) return { error: new AppError('CONFLICT', `the issuer's status list is full (${STATUS_LIST_BYTES * 8} credentials): issue from another issuer DID`) };
        let built: BuiltCredential;
        try {
          built = item.build(index);
        } catch (error) {
          // Its slot stays free (only inserted rows mark slots) and goes to the next credential.
          return { error };
        }
        next++;
        const record: FamilyBCredentialRecord = {
          id: built.id,
          tenantId: item.tenantId,
          templateId: item.templateId,
          issuerDidId: item.issuerDidId,
          holder: built.holder,
          document: built.document,
          credentialHash: Buffer.from(built.credentialHash),
          statusListId: lane.key,
          statusIndex: index,
          status: 'issued',
          revokedAt: null,
          expiresAt: built.expiresAt,
        };
        rows.push(record);
        anchors.set(built.anchor.logId, [...(anchors.get(built.anchor.logId) ?? []), built.anchor]);
        return { value: record };
      });
    });
    if (rows.length === 0) return { results, heads: [] };
    const ledger = await this.ledger.prepareGroupAppend(tx, [...anchors].map(([logId, entries]) => ({ logId, entries })), logSizes);
    attempt.remembered = ledger.remembered.length > 0;
    // Sent with the COMMIT (one round trip for both); a failure still fails the whole tick.
    runAtCommit(tx, writeIssueTick, [
      rows.map((r) => r.id),
      rows.map((r) => r.tenantId),
      rows.map((r) => r.templateId),
      rows.map((r) => r.issuerDidId),
      rows.map((r) => r.holder),
      rows.map((r) => JSON.stringify(r.document)),
      rows.map((r) => hex(r.credentialHash)),
      rows.map((r) => r.statusListId),
      rows.map((r) => r.statusIndex),
      rows.map((r) => r.expiresAt.toISOString()),
      ...ledger.write,
    ]);
    return { results, heads: ledger.heads };
  }

  /**
   * Locks the tick's lists (in id order) and draws, in the database, a free slot for every queued
   * credential: each list's 16 KiB allocation map stays there (credgate_status_slots_pick). The
   * randomness is ours (CSPRNG probes, PROBES_PER_SLOT per credential), so a slot says nothing of
   * the issuance order. A list returns fewer slots than asked when it is full.
   *
   * When every queued issuance names its log (the service's always do), the same statement then
   * locks those logs (by seq, after every list: the order all writers of both keep) and returns
   * their sizes, so the ledger does not lock them in a statement of its own.
   */
  private async pickSlots(tx: SqlExecutor, lanes: readonly LaneBatch<IssueItem>[]): Promise<{ slotsOf: Map<string, readonly number[]>; logSizes: Map<string, number> | undefined }> {
    const listIds = [...new Set(lanes.map((l) => l.key))].sort();
    const wanted = new Map<string, number>();
    for (const lane of lanes) wanted.set(lane.key, (wanted.get(lane.key) ?? 0) + lane.items.length);
    const probes: number[] = [];
    const firsts: number[] = [];
    const lasts: number[] = [];
    for (const id of listIds) {
      firsts.push(probes.length + 1);
      for (let i = 0; i < wanted.get(id)! * PROBES_PER_SLOT; i++) probes.push(randomInt(SLOT_PROBE_RANGE));
      lasts.push(probes.length);
    }
    // next_index counts the slots handed out: never more than the list holds, whatever the map says.
    const free = (r: { next_index: number; slots: number[] }): number[] => r.slots.slice(0, Math.max(0, STATUS_LIST_BYTES * 8 - Number(r.next_index)));
    const logIds = lanes.flatMap((l) => l.items.map((i) => i.logId));
    if (logIds.some((id) => id === undefined)) {
      const rows = await run(tx, lockAndPickSlots, [listIds, probes, firsts, lasts]);
      return { slotsOf: new Map(rows.map((r) => [r.id, free(r)])), logSizes: undefined };
    }
    const seqs = [...new Set(logIds.map((id) => parseLedgerId(id!).toString()))];
    const slotsOf = new Map<string, readonly number[]>();
    const logSizes = new Map<string, number>();
    for (const r of await run(tx, lockListsAndLogs, [listIds, probes, firsts, lasts, seqs])) {
      if (r.seq !== null) logSizes.set(r.seq, Number(r.tree_size));
      else slotsOf.set(r.id!, free({ next_index: r.next_index!, slots: r.slots! }));
    }
    return { slotsOf, logSizes };
  }

  /** A prepared statement on pg (src/db/sql): VP creation and reads of one credential are hot paths. */
  async findForTenant(tenantId: string, id: string): Promise<FamilyBCredentialRecord | null> {
    const [row] = await run(this.sql, credentialForTenant, [id, tenantId]);
    return row ? toRecord(row) : null;
  }

  /** Any tenant's credential by id: derived proofs (ZKP tokens) are checked against it wherever they are shown. */
  async findById(id: string): Promise<FamilyBCredentialRecord | null> {
    const [row] = await run(this.sql, credentialById, [id]);
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
    const [row] = await run(this.sql, statusByte, [byteOffset(index), listId]);
    return row ? bitOf(row, index) : null;
  }

  /**
   * A verification's reads in one statement (src/db/sql/family-b.sql.ts, verificationReads): the
   * leaf of `entryHash` in log `logId`, answered exactly as `Ledger.findEntry` answers it
   * (INVALID_INPUT for a malformed log id or hash, NOT_FOUND for a log that does not exist), and,
   * when `status` is given, its bit as `statusBit` reads it, fresh. The ledger's rows live in this
   * database (the issue tick writes them in the same statement as the credentials), so both share
   * one round trip, and one snapshot, instead of two.
   */
  async verificationReads(logId: string, entryHash: Uint8Array, status: { readonly listId: string; readonly index: number } | null): Promise<{ entry: FoundEntry | null; bit: StatusBit | null }> {
    const seq = parseLedgerId(logId);
    const hash = checkEntryHash(entryHash);
    const index = status?.index ?? -1;
    const [row] = await run(this.sql, verificationReads, [seq.toString(), hex(hash), byteOffset(index), status?.listId ?? null]);
    if (!row) throw new AppError('INTERNAL', 'the verification read returned no row');
    // The leaf's columns are NOT NULL: all null means no such leaf.
    const entry: FoundEntry | null =
      row.index !== null && row.kind !== null && row.ref !== null && row.leafHash !== null ? { leafIndex: row.index, kind: row.kind, ref: row.ref, leafHash: bytesToBase64(row.leafHash) } : null;
    if (!entry && !row.logExists) throw logNotFound();
    const bit = status && row.issuerDidId !== null ? bitOf({ issuerDidId: row.issuerDidId, byte: row.byte }, index) : null;
    return { entry, bit };
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
