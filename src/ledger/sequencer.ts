import { RetryLaterError } from '../errors';

/**
 * Commits one batch: every result in the order of `items`. Throwing fails the batch as a whole;
 * the sequencer then retries its members one by one, so only the guilty request fails.
 * Per-item failures that do not abort the transaction are returned as `{ error }`.
 */
export type BatchCommit<Item, Result> = (key: string, items: readonly Item[]) => Promise<ReadonlyArray<Settled<Result>>>;

export type Settled<Result> = { readonly value: Result } | { readonly error: unknown };

export interface SequencerOptions {
  /** How long the first request of an idle key waits for company (ms); 0 = only what queued meanwhile. */
  readonly windowMs: number;
  /** Largest batch; a full queue is committed without waiting out the window. */
  readonly max: number;
}

/** What the sequencer did so far: tests and the benchmark read it; it never drives behaviour. */
export interface SequencerStats {
  readonly requests: number;
  readonly batches: number;
  /** Batches that failed as a whole and were retried member by member. */
  readonly splits: number;
  /** batch size -> number of batches of that size (the retried singles included). */
  readonly sizes: ReadonlyMap<number, number>;
}

interface Waiting<Item, Result> {
  readonly item: Item;
  resolve(value: Result): void;
  reject(error: unknown): void;
}

interface Lane<Item, Result> {
  queue: Waiting<Item, Result>[];
  timer: NodeJS.Timeout | null;
  /** The batch being committed, if any: one per key at a time, since they would serialise on its row locks anyway. */
  running: Promise<void> | null;
}

/**
 * A per-key group committer, as transparency logs integrate queued leaves (Trillian's sequencer):
 * requests for one key (one log and status list) queue for a short window or until `max` are
 * waiting, then commit together in one transaction. While a batch commits, the next one fills,
 * so the batch size follows the load without tuning. Each caller's promise settles only when
 * its batch is durable (and whatever `commit` does after the commit, like storing the signed head).
 *
 * Keys are independent: batches of different keys run concurrently (on PGlite, the adapter
 * serialises their transactions on its one connection; no batch waits on another's lock while
 * holding its own, so there is nothing to deadlock on).
 */
export class Sequencer<Item, Result> {
  private readonly lanes = new Map<string, Lane<Item, Result>>();
  private closed = false;
  private requests = 0;
  private batches = 0;
  private splits = 0;
  private readonly sizes = new Map<number, number>();

  constructor(
    private readonly commit: BatchCommit<Item, Result>,
    private readonly options: SequencerOptions,
  ) {}

  submit(key: string, item: Item): Promise<Result> {
    if (this.closed) return Promise.reject(new RetryLaterError('SERVICE_UNAVAILABLE', 'the service is shutting down', 1));
    this.requests++;
    return new Promise<Result>((resolve, reject) => {
      const lane = this.lane(key);
      lane.queue.push({ item, resolve, reject });
      this.schedule(key, lane);
    });
  }

  stats(): SequencerStats {
    return { requests: this.requests, batches: this.batches, splits: this.splits, sizes: new Map(this.sizes) };
  }

  /** Refuses new requests, commits everything queued now (no window) and waits for every batch. */
  async drain(): Promise<void> {
    this.closed = true;
    for (;;) {
      const busy = [...this.lanes.entries()].filter(([, l]) => l.running || l.queue.length > 0);
      if (busy.length === 0) return;
      for (const [key, lane] of busy) this.flush(key, lane);
      await Promise.all(busy.map(([, l]) => l.running));
    }
  }

  private lane(key: string): Lane<Item, Result> {
    let lane = this.lanes.get(key);
    if (!lane) {
      lane = { queue: [], timer: null, running: null };
      this.lanes.set(key, lane);
    }
    return lane;
  }

  private schedule(key: string, lane: Lane<Item, Result>): void {
    // A running batch picks the queue up when it ends; a full queue goes now; otherwise the window.
    if (lane.running) return;
    if (lane.queue.length >= this.options.max || this.closed) {
      this.flush(key, lane);
    } else if (!lane.timer) {
      lane.timer = setTimeout(() => this.flush(key, lane), this.options.windowMs);
    }
  }

  private flush(key: string, lane: Lane<Item, Result>): void {
    if (lane.timer) {
      clearTimeout(lane.timer);
      lane.timer = null;
    }
    if (lane.running || lane.queue.length === 0) return;
    const batch = lane.queue.splice(0, this.options.max);
    lane.running = this.run(key, batch).finally(() => {
      lane.running = null;
      if (lane.queue.length > 0) this.flush(key, lane);
      else if (!lane.timer) this.lanes.delete(key);
    });
  }

  private async run(key: string, batch: Waiting<Item, Result>[]): Promise<void> {
    try {
      this.deliver(batch, await this.attempt(key, batch));
    } catch (e) {
      if (batch.length === 1) return batch[0]!.reject(e);
      // The transaction failed as a whole: find the guilty member(s) by committing one at a time.
      this.splits++;
      for (const member of batch) {
        try {
          this.deliver([member], await this.attempt(key, [member]));
        } catch (e) {
          member.reject(e);
        }
      }
    }
  }

  private async attempt(key: string, batch: Waiting<Item, Result>[]): Promise<ReadonlyArray<Settled<Result>>> {
    this.batches++;
    this.sizes.set(batch.length, (this.sizes.get(batch.length) ?? 0) + 1);
    const results = await this.commit(key, batch.map((w) => w.item));
    if (results.length !== batch.length) throw new Error('batch commit returned the wrong number of results');
    return results;
  }

  private deliver(batch: Waiting<Item, Result>[], results: ReadonlyArray<Settled<Result>>): void {
    batch.forEach((w, i) => {
      const r = results[i]!;
      if ('error' in r) w.reject(r.error);
      else w.resolve(r.value);
    });
  }
}
