import { RetryLaterError } from '../errors';
import { formatLedgerId } from '../domain/dids/service-did';
import type { PrismaClient } from '../db/database';
import type { Logger } from '../logging/logger';
import type { LedgerCheckpoint } from './ledger.port';
import type { PgLogHeads } from './log-heads';

/**
 * How long a head read from the database is served from memory. Another instance may store a
 * newer head meanwhile; serving the older one is still correct (it is signed, and the log only
 * extends it), and a caller that needs a larger head (a leaf it just found) forces a read.
 */
const CACHE_TTL_MS = 1000;
/** Logs whose head is cached; beyond it the oldest entry goes (a head is one small object). */
const CACHE_LOGS = 10_000;

interface Cached {
  readonly head: LedgerCheckpoint;
  readonly readAt: number;
}

/**
 * Who stores signed tree heads, and how reads get them without signing.
 *
 * Writers call `settle` after their commit (the sequencer once per batch, single appends once per
 * transaction): it is the one place a head is signed and stored (`PgLogHeads.advance`), so a
 * witness cosignature hooks in here. Reads call `read`, which serves the latest stored head from a
 * short cache and never signs. A log that has grown beyond its stored head (a crash between a
 * commit and its head, or a head refused for integrity) is repaired off the read path: `read`
 * schedules one background `settle` for it, and `settleAll` runs at start-up. Until then a read
 * that needs the missing part gets 503 with Retry-After, never an unsigned or fresh-signed answer.
 */
export class HeadKeeper {
  private readonly cache = new Map<string, Cached>();
  /** Background repairs in flight, one per log. */
  private readonly repairs = new Map<string, Promise<void>>();

  constructor(
    private readonly heads: PgLogHeads,
    private readonly prisma: PrismaClient,
    private readonly logger: Logger | undefined,
    /** Told before every settle (the callers', the repairs', start-up's): the ledger forgets the log's remembered frontier. */
    private readonly onSettle: (logId: string) => void = () => {},
  ) {}

  /** Signs and stores a head covering everything committed to the log (no-op when it already does). */
  async settle(logId: string): Promise<LedgerCheckpoint> {
    this.onSettle(logId);
    const head = await this.heads.advance(logId);
    this.remember(head);
    return head;
  }

  /** A batch's transaction signs its log's head itself (`PgLogHeads.advanceIn`); after its commit it hands the heads here. */
  committed(heads: readonly LedgerCheckpoint[]): void {
    for (const head of heads) {
      this.remember(head);
      this.heads.announce(head);
    }
  }

  /**
   * The latest stored head, never signing. `minSize`: the caller needs a head of at least this
   * size (a leaf at index minSize - 1 it just found, or a size it learned elsewhere): a smaller
   * cached head is re-read, and a smaller stored one, while the log does hold that many leaves,
   * is SERVICE_UNAVAILABLE until the background repair has run.
   */
  async read(logId: string, minSize = 0): Promise<LedgerCheckpoint> {
    const cached = this.cache.get(logId);
    if (cached && cached.head.treeSize >= minSize && Date.now() - cached.readAt < CACHE_TTL_MS) return cached.head;
    const { size, head } = await this.heads.stored(logId);
    if (!head || head.treeSize < size) this.repair(logId);
    // Leaves the log holds but no stored head covers yet: retry once repaired. A size beyond the
    // log itself is the caller's mistake, left to its own range check against the head returned.
    if (!head || (head.treeSize < minSize && minSize <= size)) {
      throw new RetryLaterError('SERVICE_UNAVAILABLE', 'the ledger log has no signed head covering this entry yet; retry shortly', 1);
    }
    this.remember(head);
    return head;
  }

  /** Start-up: heads for every log that grew beyond its head (or never had one). Failures are logged, not thrown. */
  async settleAll(): Promise<number> {
    const lagging = await this.prisma.$queryRaw<{ seq: bigint }[]>`
      SELECT g.seq FROM ledger_logs g LEFT JOIN ledger_heads h ON h.log_seq = g.seq
      WHERE h.tree_size IS NULL OR h.tree_size < g.tree_size ORDER BY g.seq`;
    for (const { seq } of lagging) await this.trySettle(formatLedgerId(seq));
    return lagging.length;
  }

  /** Waits for the background repairs (shutdown). */
  async idle(): Promise<void> {
    while (this.repairs.size > 0) await Promise.all(this.repairs.values());
  }

  private repair(logId: string): void {
    if (this.repairs.has(logId)) return;
    const work = this.trySettle(logId).finally(() => this.repairs.delete(logId));
    this.repairs.set(logId, work);
  }

  private async trySettle(logId: string): Promise<void> {
    try {
      await this.settle(logId);
    } catch (e) {
      // An integrity refusal is already logged loudly by PgLogHeads; anything else is worth a line.
      this.logger?.warn({ logId, err: e instanceof Error ? e.message : String(e) }, 'could not store a signed head for a ledger log');
    }
  }

  /** Keeps the largest head seen: the cache never moves backwards. */
  private remember(head: LedgerCheckpoint): void {
    const cached = this.cache.get(head.logId);
    if (cached && cached.head.treeSize > head.treeSize) return;
    this.cache.delete(head.logId);
    if (this.cache.size >= CACHE_LOGS) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(head.logId, { head, readAt: Date.now() });
  }
}
