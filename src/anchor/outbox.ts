import type { Prisma, PrismaClient } from '../db/database';
import { bytesToBase64 } from '../domain/encoding';
import type { AnchorReceipt, AnchorStatus } from './anchor.port';

/** A head to anchor, as the transaction that stored it knows it. */
export interface OutboxEntry {
  readonly logId: string;
  readonly treeSize: number;
  /** Raw 32-byte Merkle root. */
  readonly rootHash: Uint8Array;
  /** The signed checkpoint note, for adapters that publish it. */
  readonly note?: string;
}

/**
 * Records, inside the caller's transaction, that this signed head must be anchored. Always
 * written, whatever CREDGATE_ANCHOR says: the write path stays the same on every instance, and
 * whichever instance runs a relay anchors the backlog. Idempotent on (logId, treeSize).
 */
export async function enqueueAnchor(tx: Prisma.TransactionClient, entry: OutboxEntry): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO anchor_outbox (log_id, tree_size, root_hash, note)
    VALUES (${entry.logId}, ${entry.treeSize}, ${Uint8Array.from(entry.rootHash)}, ${entry.note ?? null})
    ON CONFLICT (log_id, tree_size) DO NOTHING`;
}

/** A row a relay claimed: it holds the lease until `leaseMs` after the claim. */
export interface ClaimedRow {
  readonly logId: string;
  readonly treeSize: number;
  /** base64 */
  readonly rootHash: string;
  readonly note: string | null;
  /** Including this claim: 1 means nothing was ever submitted for this row. */
  readonly attempts: number;
}

interface OutboxRow {
  log_id: string;
  tree_size: number;
  root_hash: Uint8Array;
  status: 'pending' | 'anchored' | 'failed';
  attempts: number;
  receipt: AnchorReceipt | null;
  last_error: string | null;
}

/**
 * The `anchor_outbox` queries of the relay and of status reads. Times come from the database
 * (now()), so instances with skewed clocks agree on what is due and which leases expired.
 */
export class AnchorOutbox {
  constructor(private readonly prisma: PrismaClient) {}

  /**
   * Claims up to `limit` due rows in one short statement: the inner SELECT … FOR UPDATE SKIP
   * LOCKED passes over rows another relay is claiming at this moment, and the lease (plus the
   * attempts counter) marks the claimed rows in flight after the statement commits, so the
   * submission happens outside any lock.
   */
  async claim(owner: string, limit: number, leaseMs: number): Promise<ClaimedRow[]> {
    const rows = await this.prisma.$queryRaw<{ log_id: string; tree_size: number; root_hash: Uint8Array; note: string | null; attempts: number }[]>`
      UPDATE anchor_outbox o
      SET lease_owner = ${owner}, lease_until = now() + make_interval(secs => ${leaseMs / 1000}::float8), attempts = o.attempts + 1
      FROM (
        SELECT log_id, tree_size FROM anchor_outbox
        WHERE status = 'pending' AND next_attempt_at <= now() AND (lease_until IS NULL OR lease_until < now())
        ORDER BY next_attempt_at, log_id, tree_size
        LIMIT ${limit}
        FOR UPDATE SKIP LOCKED
      ) due
      WHERE o.log_id = due.log_id AND o.tree_size = due.tree_size
      RETURNING o.log_id, o.tree_size, o.root_hash, o.note, o.attempts`;
    return rows.map((r) => ({ logId: r.log_id, treeSize: Number(r.tree_size), rootHash: bytesToBase64(r.root_hash), note: r.note, attempts: Number(r.attempts) }));
  }

  /** Records the receipt. Any relay may record it while the row is pending: the ledger said it is anchored. */
  async anchored(row: Pick<ClaimedRow, 'logId' | 'treeSize'>, receipt: AnchorReceipt): Promise<void> {
    await this.prisma.$executeRaw`
      UPDATE anchor_outbox
      SET status = 'anchored', receipt = ${JSON.stringify(receipt)}::jsonb, anchored_at = now(), lease_owner = NULL, lease_until = NULL, last_error = NULL
      WHERE log_id = ${row.logId} AND tree_size = ${row.treeSize} AND status = 'pending'`;
  }

  /** Schedules another attempt after `delayMs`, or gives up (`failed`) when `final`. Only by the lease holder. */
  async attemptFailed(owner: string, row: Pick<ClaimedRow, 'logId' | 'treeSize'>, error: string, delayMs: number, final: boolean): Promise<void> {
    await this.prisma.$executeRaw`
      UPDATE anchor_outbox
      SET status = ${final ? 'failed' : 'pending'}, last_error = ${error},
          next_attempt_at = now() + make_interval(secs => ${delayMs / 1000}::float8), lease_owner = NULL, lease_until = NULL
      WHERE log_id = ${row.logId} AND tree_size = ${row.treeSize} AND status = 'pending' AND lease_owner = ${owner}`;
  }

  /** Gives the lease back without counting the attempt (the relay is stopping before it submitted). */
  async release(owner: string, row: Pick<ClaimedRow, 'logId' | 'treeSize'>): Promise<void> {
    await this.prisma.$executeRaw`
      UPDATE anchor_outbox SET lease_owner = NULL, lease_until = NULL, attempts = attempts - 1
      WHERE log_id = ${row.logId} AND tree_size = ${row.treeSize} AND status = 'pending' AND lease_owner = ${owner}`;
  }

  /** The anchoring of one head, or null when no such head was ever signed. */
  async status(logId: string, treeSize: number): Promise<AnchorStatus | null> {
    const rows = await this.prisma.$queryRaw<OutboxRow[]>`
      SELECT log_id, tree_size, root_hash, status, attempts, receipt, last_error
      FROM anchor_outbox WHERE log_id = ${logId} AND tree_size = ${treeSize}`;
    const r = rows[0];
    if (!r) return null;
    return {
      logId: r.log_id,
      treeSize: Number(r.tree_size),
      rootHash: bytesToBase64(r.root_hash),
      status: r.status,
      attempts: Number(r.attempts),
      receipt: r.receipt,
      lastError: r.last_error,
    };
  }
}
