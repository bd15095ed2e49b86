import { RetryLaterError } from '../errors';
import type { SequencerOptions, SequencerStats, Settled } from './sequencer';

/** The work of one key (one status list, one log) in a tick. */
export interface LaneBatch<Item> {
  readonly key: string;
  readonly items: readonly Item[];
}

/**
 * Commits one tick: every lane's batch in ONE transaction. Returns, per lane in the order given,
 * every result in the order of its items. Throwing fails the tick as a whole; the sequencer then
 * retries lane by lane, then member by member, so only the guilty request fails.
 */
export type GroupCommit<Item, Result> = (lanes: readonly LaneBatch<Item>[]) => Promise<ReadonlyArray<ReadonlyArray<Settled<Result>>>>;

interface Waiting<Item, Result> {
  readonly item: Item;
  resolve(value: Result): void;
  reject(error: unknown): void;
}

type Taken<Item, Result> = { readonly key: string; readonly members: Waiting<Item, Result>[] };

/**
 * Ticks that may commit at once. Each key is in at most one of them (its rows would serialise
 * the ticks on their locks anyway), so a second tick only ever carries keys the running ones do
 * not: a tick stuck on a lock (another instance, a held row) holds up its own keys, never every
 * issuer of the deployment.
 */
export const CONCURRENT_TICKS = 4;
/**
 * How long a running tick holds everyone else's requests before another tick may start for them.
 * Normally the next tick waits for the running one, which keeps ticks large (one commit for many
 * issuers, the point of the group); only a tick running this long, i.e. stuck on a lock, lets a
 * second one go. The value is a scheduling choice, not a correctness one.
 */
export const DEFAULT_STALL_MS = 250;

/**
 * A group committer across keys: requests queue per key (one issuer's status list and log), and
 * each tick commits every key that has work in one transaction, so ten issuers share one commit
 * (one disk flush, one round trip per statement) instead of paying ten. Each key still gets its
 * own rows, leaves, nodes and signed head; only the transaction is shared.
 *
 * One tick runs at a time; while it commits, the next fills (the batch size follows the load). A
 * tick running longer than `stallMs` (stuck on a lock) lets another start for the keys it does not
 * hold (up to CONCURRENT_TICKS), so one stuck issuer does not stall the others.
 * Fairness: a tick takes at most `max` requests, drawn round-robin across the keys with work, so
 * a key with a thousand queued requests adds at most its share and a key with one request is in
 * the very next tick: one tenant's flood cannot starve another's issuer. `maxQueued` bounds each
 * key's queue (503 + Retry-After beyond it), as in the per-key `Sequencer`.
 */
export class GroupSequencer<Item, Result> {
  private readonly queues = new Map<string, Waiting<Item, Result>[]>();
  /** Keys in a running tick: their queues wait for it to end. */
  private readonly busy = new Set<string>();
  private readonly running = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | null = null;
  private stallTimer: NodeJS.Timeout | null = null;
  /** When each running tick started (ms, monotonic enough for a scheduling hint). */
  private readonly started = new Map<Promise<void>, number>();
  private closed = false;
  private requests = 0;
  private batches = 0;
  private splits = 0;
  private readonly sizes = new Map<number, number>();
  /** Where the round-robin draw starts next tick, so no key is always first in line. */
  private turn = 0;

  constructor(
    private readonly commit: GroupCommit<Item, Result>,
    private readonly options: SequencerOptions,
    private readonly stallMs: number = DEFAULT_STALL_MS,
  ) {}

  submit(key: string, item: Item): Promise<Result> {
    if (this.closed) return Promise.reject(new RetryLaterError('SERVICE_UNAVAILABLE', 'the service is shutting down', 1));
    const queue = this.queues.get(key) ?? [];
    if (this.options.maxQueued !== undefined && queue.length >= this.options.maxQueued) {
      return Promise.reject(new RetryLaterError('SERVICE_UNAVAILABLE', 'too many requests of this issuer are waiting, retry later', 1));
    }
    this.requests++;
    return new Promise<Result>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      this.queues.set(key, queue);
      this.schedule();
    });
  }

  stats(): SequencerStats {
    return { requests: this.requests, batches: this.batches, splits: this.splits, sizes: new Map(this.sizes) };
  }

  /** Refuses new requests, commits everything queued now (no window) and waits for every tick. */
  async drain(): Promise<void> {
    this.closed = true;
    while (this.running.size > 0 || this.queues.size > 0) {
      this.tick();
      await Promise.race(this.running);
    }
  }

  /** Requests of keys not in a running tick: what a new tick could take now. */
  private ready(): number {
    let n = 0;
    for (const [key, queue] of this.queues) if (!this.busy.has(key)) n += queue.length;
    return n;
  }

  private schedule(): void {
    const ready = this.ready();
    // Work only of busy keys: their tick starts the next when it ends.
    if (ready === 0 || !this.mayStart()) return;
    if (ready >= this.options.max || this.closed) this.tick();
    else if (!this.timer) this.timer = setTimeout(() => this.tick(), this.options.windowMs);
  }

  /**
   * Whether a tick may start now: none is running, or (below CONCURRENT_TICKS) the running ones
   * have been running for `stallMs` (stuck). Otherwise the running tick starts the next when it
   * ends, and a timer re-checks when the oldest would count as stuck.
   */
  private mayStart(): boolean {
    if (this.running.size === 0 || this.closed) return true;
    if (this.running.size >= CONCURRENT_TICKS) return false;
    const wait = Math.min(...this.started.values()) + this.stallMs - Date.now();
    if (wait <= 0) return true;
    // A hint only (the running tick starts the next when it ends): it never keeps the process up.
    this.stallTimer ??= setTimeout(() => {
      this.stallTimer = null;
      this.schedule();
    }, wait).unref();
    return false;
  }

  private tick(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.ready() === 0 || !this.mayStart()) return;
    const taken = this.take();
    for (const lane of taken) this.busy.add(lane.key);
    const work: Promise<void> = this.run(taken).finally(() => {
      this.running.delete(work);
      this.started.delete(work);
      if (this.running.size === 0 && this.stallTimer) {
        clearTimeout(this.stallTimer);
        this.stallTimer = null;
      }
      for (const lane of taken) this.busy.delete(lane.key);
      // The ended tick's keys (and anyone waiting for a free tick) go now: no second window.
      if (this.ready() > 0) this.tick();
    });
    this.running.add(work);
    this.started.set(work, Date.now());
  }

  /** Up to `max` requests of keys not in a running tick, one per key in turn (round-robin), keys in a rotating order. */
  private take(): Taken<Item, Result>[] {
    const keys = [...this.queues.keys()].filter((k) => !this.busy.has(k));
    const start = this.turn++ % keys.length;
    const order = [...keys.slice(start), ...keys.slice(0, start)];
    const taken = new Map<string, Waiting<Item, Result>[]>();
    let budget = this.options.max;
    while (budget > 0) {
      let moved = false;
      for (const key of order) {
        const queue = this.queues.get(key);
        if (!queue || queue.length === 0 || budget === 0) continue;
        const members = taken.get(key) ?? [];
        members.push(queue.shift()!);
        taken.set(key, members);
        budget--;
        moved = true;
      }
      if (!moved) break;
    }
    for (const key of taken.keys()) if (this.queues.get(key)!.length === 0) this.queues.delete(key);
    return [...taken].map(([key, members]) => ({ key, members }));
  }

  private async run(lanes: Taken<Item, Result>[]): Promise<void> {
    try {
      this.deliver(lanes, await this.attempt(lanes));
    } catch (e) {
      if (lanes.length === 1 && lanes[0]!.members.length === 1) return lanes[0]!.members[0]!.reject(e);
      // The transaction failed as a whole: find the guilty lane, then the guilty member(s).
      this.splits++;
      for (const lane of lanes) await this.retryLane(lane, lanes.length > 1);
    }
  }

  private async retryLane(lane: Taken<Item, Result>, whole: boolean): Promise<void> {
    if (whole) {
      try {
        return this.deliver([lane], await this.attempt([lane]));
      } catch (e) {
        if (lane.members.length === 1) return lane.members[0]!.reject(e);
      }
    }
    for (const member of lane.members) {
      const one = { key: lane.key, members: [member] };
      try {
        this.deliver([one], await this.attempt([one]));
      } catch (e) {
        member.reject(e);
      }
    }
  }

  private async attempt(lanes: Taken<Item, Result>[]): Promise<ReadonlyArray<ReadonlyArray<Settled<Result>>>> {
    this.batches++;
    const size = lanes.reduce((n, l) => n + l.members.length, 0);
    this.sizes.set(size, (this.sizes.get(size) ?? 0) + 1);
    const results = await this.commit(lanes.map((l) => ({ key: l.key, items: l.members.map((m) => m.item) })));
    if (results.length !== lanes.length || results.some((r, i) => r.length !== lanes[i]!.members.length)) {
      throw new Error('group commit returned the wrong number of results');
    }
    return results;
  }

  private deliver(lanes: Taken<Item, Result>[], results: ReadonlyArray<ReadonlyArray<Settled<Result>>>): void {
    lanes.forEach((lane, l) =>
      lane.members.forEach((w, i) => {
        const r = results[l]![i]!;
        if ('error' in r) w.reject(r.error);
        else w.resolve(r.value);
      }),
    );
  }
}
