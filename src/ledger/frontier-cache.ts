import type { LedgerCheckpoint } from './ledger.port';

/** Logs whose frontier one Ledger instance remembers; beyond it the least recently used goes. */
export const FRONTIER_CACHE_LOGS = 4096;

/**
 * A log as this instance itself committed it: its size, the root it signed at that size, and the
 * frontier (the perfect tiles of [0, size), keyed `level/index`) the next append merges with.
 */
export interface Frontier {
  readonly size: number;
  readonly root: Uint8Array;
  readonly nodes: ReadonlyMap<string, Uint8Array>;
}

/**
 * The frontiers of the logs this instance grew in its own group appends, so the next tick on a log
 * can skip the read of its head, frontier nodes and present entries (the largest statement of a
 * tick). Only per process and only a hint: the group append uses an entry only when the locked log
 * is exactly at the remembered size (see src/ledger/group-append.ts for why that is sound).
 *
 * Life of an entry:
 * - `stage`: the group append computed a new frontier; it is held against the new head object
 *   (weakly: a tick that never commits just lets it go) and is NOT yet usable.
 * - `commit`: the caller's COMMIT returned and it handed the head to `Ledger.committed`; only then
 *   does the frontier become an entry. A rolled-back or ambiguous tick never gets here.
 * - `take`: a group append removes the entry of each log it locks, whether it can use it or not.
 *   So whatever happens to that tick afterwards (a failed write, a retried transaction, the
 *   sequencer's split into lanes and members), no later attempt sees the entry unless a commit put
 *   a new one back: every retry after a failure reads the log from the database.
 * - `drop`/`clear`: other writers of the same process (settle and repairs, Prisma appends).
 */
export class FrontierCache {
  private readonly entries = new Map<string, Frontier>();
  private readonly staged = new WeakMap<LedgerCheckpoint, { readonly seq: string; readonly frontier: Frontier }>();

  constructor(private readonly capacity: number = FRONTIER_CACHE_LOGS) {}

  /** Removes and returns the entry of a log (by seq), so no second attempt can use it. */
  take(seq: string): Frontier | undefined {
    const entry = this.entries.get(seq);
    if (entry) this.entries.delete(seq);
    return entry;
  }

  /** Holds `frontier` until `commit(head)`: the frontier of the tree `head` signs. */
  stage(head: LedgerCheckpoint, seq: string, frontier: Frontier): void {
    this.staged.set(head, { seq, frontier });
  }

  /**
   * After the COMMIT of the transaction that wrote `head`: its staged frontier becomes the log's
   * entry. A head not staged here (another path's, or a copy) changes nothing. A smaller size never
   * replaces a larger one (two ticks of this process committing out of order); either would be safe,
   * the size check decides, but the larger is the one the next tick can use.
   */
  commit(head: LedgerCheckpoint): void {
    const staged = this.staged.get(head);
    if (!staged) return;
    this.staged.delete(head);
    const current = this.entries.get(staged.seq);
    if (current && current.size > staged.frontier.size) return;
    this.entries.delete(staged.seq);
    if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(staged.seq, staged.frontier);
  }

  drop(seq: string): void {
    this.entries.delete(seq);
  }

  clear(): void {
    this.entries.clear();
  }

  /** How many logs are remembered (tests). */
  get size(): number {
    return this.entries.size;
  }
}
