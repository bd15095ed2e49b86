import { AppError, invalidInput } from '../errors';
import { bytesToBase64 } from '../domain/encoding';
import { consistencyProof, inclusionProof, isValidKeyName, type NodeReader } from '../domain/merkle';
import { type Clock, systemClock } from '../domain/ports';
import type { Prisma, PrismaClient } from '../db/database';
import type { Logger } from '../logging/logger';
import type { AppendResult, FoundEntry, Ledger, LedgerCheckpoint, LedgerEntry, LockedLogSizes } from './ledger.port';
import { appendEntries, checkEntryHash, logNotFound } from './batch-append';
import { type LogAppend, type PreparedAppend, prepareGroupAppend } from './group-append';
import type { SqlExecutor } from '../db/sql-executor';
import { findLeaf } from '../db/sql/ledger.sql';
import { hex, run } from '../db/sql/statement';
import { FrontierCache } from './frontier-cache';
import { HeadKeeper } from './head-keeper';
import { type LogHeadOptions, PgLogHeads } from './log-heads';
import { parseLedgerId } from './log-id';
import { ProofNodeCache } from './pg-node-reader';
import { retryTransaction } from '../db/transaction-retry';

export interface LedgerOptions {
  /** 32-byte Ed25519 seed of the deployment-wide log key (see `deriveLedgerSeed`). Never stored. */
  readonly seed: Uint8Array;
  /**
   * Log origin base, e.g. `credgate.test/ledger`. It is the signed-note key name, and each log's
   * checkpoint origin line is `<origin>/<logId>`, so one verifier key covers every log.
   */
  readonly origin: string;
  /** Stamps `signedAt` of new heads (default: the system clock). */
  readonly clock?: Clock;
  /** Receives the error-level line when a log fails its integrity check. */
  readonly logger?: Logger;
  /** Told of every stored head after `advance` (witness cosigning); must not block. */
  readonly onSigned?: LogHeadOptions['onSigned'];
  /**
   * The pg/PGlite executor of the same database: a verification's leaf lookup (`findEntry`) runs
   * as a prepared statement on it (src/db/sql/ledger.sql.ts) instead of a Prisma query. Without
   * it (tools and tests with only a Prisma client) the lookup goes through Prisma.
   */
  readonly sql?: SqlExecutor;
}

/** Most leaf hashes one `leafHashes` call returns. */
export const MAX_LEAF_RANGE = 10_000;
/**
 * Appends to one log queue on its row lock while holding a pooled connection, so a burst of
 * appends needs longer than Prisma's defaults (2 s to start, 5 s to finish).
 */
const APPEND_TX = { maxWait: 15_000, timeout: 30_000 } as const;

function checkCount(field: string, n: number): void {
  if (!Number.isSafeInteger(n) || n < 0) throw invalidInput(`${field} must be a non-negative integer`, [{ field, message: 'non-negative integer' }]);
}

/**
 * The `Ledger` port on PostgreSQL (or PGlite): one RFC 9162 tree per `ledger_logs` row. Leaves
 * live in `ledger_leaves`; `ledger_nodes` holds every perfect-subtree node (level 0 = leaf
 * hashes), each written once, in the transaction that appends its last leaf, and never updated.
 * Any historical root and proof is therefore recomputed from O(log n) immutable rows, and reads
 * need no transaction: a size at or below the committed head only touches committed nodes.
 *
 * Stored hashes are served as stored, never "repaired": a tampered row shows up as a root or a
 * proof that no longer matches a checkpoint signed earlier, which is what clients verify against.
 * Checkpoints are the stored signed heads (`PgLogHeads`), stored by writers after their commit
 * (`settle`) and only read by readers (`HeadKeeper`): a read never signs; a larger head is signed
 * only after a consistency check against the stored one.
 * The rows themselves are append-only in the database (migration 20261123040001 triggers).
 */
export class PgLedger implements Ledger {
  /** Holds the signing key (in an ES-private field): the only signer of checkpoints. */
  readonly heads: PgLogHeads;
  private readonly keeper: HeadKeeper;
  private readonly sql: SqlExecutor | undefined;
  /** Proof nodes of heads already proven against (verification reads), per (log, size). */
  private readonly proofNodes = new ProofNodeCache();
  /** The frontiers this instance committed in group appends: the next tick on a log skips its read. */
  private readonly frontiers = new FrontierCache();

  constructor(
    private readonly prisma: PrismaClient,
    options: LedgerOptions,
  ) {
    if (!isValidKeyName(options.origin)) throw new Error('ledger origin must be a valid note key name (no spaces or "+")');
    if (options.seed.length !== 32) throw new Error('ledger seed must be 32 bytes');
    this.sql = options.sql;
    this.heads = new PgLogHeads(prisma, {
      seed: options.seed,
      origin: options.origin,
      clock: options.clock ?? systemClock,
      ...(options.logger ? { logger: options.logger } : {}),
      ...(options.onSigned ? { onSigned: options.onSigned } : {}),
    });
    // Settle and the repairs are other writers of a log's head: forget its frontier first. The size
    // check alone would catch any growth they find; this keeps the remembered state to our own ticks.
    this.keeper = new HeadKeeper(this.heads, prisma, options.logger, (logId) => this.frontiers.drop(parseLedgerId(logId).toString()));
  }

  // The Prisma append path grows a log outside the group append: the tree_size it leaves already
  // keeps a remembered frontier from being used, and dropping it here says so without relying on it.
  async appendInTransaction(tx: Prisma.TransactionClient, logId: string, entry: LedgerEntry): Promise<AppendResult> {
    const [result] = await this.appendBatch(tx, logId, [entry]);
    return result!;
  }

  appendBatch(tx: Prisma.TransactionClient, logId: string, entries: readonly LedgerEntry[]): Promise<AppendResult[]> {
    const logSeq = parseLedgerId(logId);
    this.frontiers.drop(logSeq.toString());
    return appendEntries(tx, logSeq, entries);
  }

  prepareGroupAppend(tx: SqlExecutor, appends: readonly LogAppend[], locked?: LockedLogSizes): Promise<PreparedAppend> {
    return prepareGroupAppend(tx, this.heads, appends, this.frontiers, locked);
  }

  async append(logId: string, entry: LedgerEntry): Promise<AppendResult> {
    parseLedgerId(logId);
    const result = await retryTransaction(() => this.prisma.$transaction((tx) => this.appendInTransaction(tx, logId, entry), APPEND_TX));
    await this.settle(logId);
    return result;
  }

  async findEntry(logId: string, entryHash: Uint8Array): Promise<FoundEntry | null> {
    const logSeq = parseLedgerId(logId);
    const hash = checkEntryHash(entryHash);
    const row = this.sql
      ? (await run(this.sql, findLeaf, [logSeq.toString(), hex(hash)]))[0]
      : await this.prisma.ledgerLeaf.findUnique({ where: { logSeq_entryHash: { logSeq, entryHash: hash } }, select: { index: true, kind: true, ref: true, leafHash: true } });
    if (!row) {
      await this.head(logSeq);
      return null;
    }
    return { leafIndex: row.index, kind: row.kind, ref: row.ref, leafHash: bytesToBase64(row.leafHash) };
  }

  checkpoint(logId: string, minSize?: number): Promise<LedgerCheckpoint> {
    return this.keeper.read(logId, minSize);
  }

  settle(logId: string): Promise<LedgerCheckpoint> {
    return this.keeper.settle(logId);
  }

  async settleInTransaction(tx: Prisma.TransactionClient, logId: string): Promise<LedgerCheckpoint> {
    this.frontiers.drop(parseLedgerId(logId).toString());
    return this.heads.advanceIn(tx, logId);
  }

  committed(heads: readonly LedgerCheckpoint[]): void {
    // The caller's COMMIT returned: a group append's staged frontiers become usable (others: no-op).
    for (const head of heads) this.frontiers.commit(head);
    this.keeper.committed(heads);
  }

  settleAll(): Promise<number> {
    this.frontiers.clear();
    return this.keeper.settleAll();
  }

  close(): Promise<void> {
    return this.keeper.idle();
  }

  async inclusionProof(logId: string, leafIndex: number, treeSize: number): Promise<string[]> {
    const logSeq = parseLedgerId(logId);
    checkCount('leafIndex', leafIndex);
    checkCount('treeSize', treeSize);
    // A size already proven against is at or below the head (heads never shrink): no re-read.
    if (!this.proofNodes.knows(logSeq, treeSize)) {
      const head = await this.head(logSeq);
      if (treeSize > head) throw invalidInput(`treeSize must not exceed the current tree size ${head}`, [{ field: 'treeSize', message: 'beyond the head' }]);
    }
    if (leafIndex >= treeSize) throw invalidInput('leafIndex must be below treeSize', [{ field: 'leafIndex', message: 'not below treeSize' }]);
    return (await inclusionProof(leafIndex, treeSize, this.reader(logSeq, treeSize))).map(bytesToBase64);
  }

  async consistencyProof(logId: string, fromSize: number, toSize: number): Promise<string[]> {
    const logSeq = parseLedgerId(logId);
    checkCount('from', fromSize);
    checkCount('to', toSize);
    if (!this.proofNodes.knows(logSeq, toSize)) {
      const head = await this.head(logSeq);
      if (toSize > head) throw invalidInput(`to must not exceed the current tree size ${head}`, [{ field: 'to', message: 'beyond the head' }]);
    }
    if (fromSize === 0 || fromSize > toSize) throw invalidInput('consistency proofs need 0 < from <= to', [{ field: 'from', message: 'not in (0, to]' }]);
    return (await consistencyProof(fromSize, toSize, this.reader(logSeq, toSize))).map(bytesToBase64);
  }

  async leafHashes(logId: string, start: number, end: number): Promise<string[]> {
    const logSeq = parseLedgerId(logId);
    checkCount('start', start);
    checkCount('end', end);
    if (start > end) throw invalidInput('start must not exceed end', [{ field: 'start', message: 'after end' }]);
    if (end - start > MAX_LEAF_RANGE) throw invalidInput(`at most ${MAX_LEAF_RANGE} leaves per request`, [{ field: 'end', message: 'range too large' }]);
    const head = await this.head(logSeq);
    if (end > head) throw invalidInput(`end must not exceed the current tree size ${head}`, [{ field: 'end', message: 'beyond the head' }]);
    if (start === end) return [];
    const rows = await this.prisma.ledgerLeaf.findMany({
      where: { logSeq, index: { gte: start, lt: end } },
      orderBy: { index: 'asc' },
      select: { index: true, leafHash: true },
    });
    if (rows.length !== end - start || rows.some((r, i) => r.index !== start + i)) {
      throw new AppError('INTERNAL', 'ledger log is missing leaves');
    }
    return rows.map((r) => bytesToBase64(r.leafHash));
  }

  /** The committed tree size of a log; NOT_FOUND when the log does not exist. */
  private async head(logSeq: bigint): Promise<number> {
    const log = await this.prisma.ledgerLog.findUnique({ where: { seq: logSeq }, select: { treeSize: true } });
    if (!log) throw logNotFound();
    return log.treeSize;
  }

  /** Reads of committed nodes at a checked size, through the proof-node cache (src/ledger/pg-node-reader.ts). */
  private reader(logSeq: bigint, size: number): NodeReader {
    return this.proofNodes.reader(this.prisma, logSeq, size);
  }
}
