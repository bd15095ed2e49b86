import type { Lsn } from './lsn';

/** The two positions the monitor compares; both are single trivial statements. */
export interface ReplicaProbe {
  /** The primary's WAL write position (pg_current_wal_lsn): every acknowledged commit is at or before it. */
  primaryLsn(): Promise<Lsn>;
  /** The replica's replay position (pg_last_wal_replay_lsn), or null when the server is not a standby. */
  replayLsn(): Promise<Lsn | null>;
}

export type ReplicaHealth = 'ok' | 'lagging' | 'down' | 'not-a-standby';

export interface ReplicaState {
  readonly state: ReplicaHealth;
  /** How long the oldest primary position the replica has not replayed has been waiting; null when unknown. */
  readonly lagMs: number | null;
}

export interface MonitorOptions {
  readonly maxLagMs: number;
  readonly checkMs: number;
  /** Monotonic milliseconds (tests may pass their own). */
  readonly now?: () => number;
}

const noop = (): void => undefined;
/** Samples of the primary's position kept to measure lag; the oldest unreplayed one is always kept. */
const MAX_SAMPLES = 256;

/**
 * Watches a streaming replica: how far behind the primary it is (in time, from samples of the
 * primary's position), whether it answers, and whether it has replayed a given position. A replica
 * that is down, not a standby, unreachable for longer than the lag bound, or lagging more than it,
 * is not read from (`usable()` is false) until a check finds it well again.
 */
export class ReplicaMonitor {
  private readonly now: () => number;
  private replayed: Lsn = -1n;
  private health: ReplicaHealth = 'down';
  private lastAnswerAt = Number.NEGATIVE_INFINITY;
  private samples: { at: number; lsn: Lsn }[] = [];
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;
  private primaryQuery: Promise<Lsn> | undefined;
  private queuedPrimary: Promise<Lsn> | undefined;
  private replayQuery: Promise<Lsn | null> | undefined;

  constructor(
    private readonly probe: ReplicaProbe,
    private readonly options: MonitorOptions,
  ) {
    this.now = options.now ?? (() => performance.now());
  }

  /** Checks once (so the first requests already know), then every `checkMs` in the background. */
  async start(): Promise<void> {
    await this.check();
    this.timer = setInterval(() => void this.check(), this.options.checkMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.ticking;
  }

  /** One check: sample the primary's position and the replica's replay position. Never throws. */
  check(): Promise<void> {
    return (this.ticking ??= (async () => {
      try {
        await this.freshPrimaryLsn().catch(noop); // a primary outage is not the replica's state
        await this.freshReplayLsn().catch(noop);
      } finally {
        this.ticking = undefined;
      }
    })());
  }

  /** Whether reads may go to the replica at all right now. */
  usable(): boolean {
    return this.state().state === 'ok';
  }

  state(): ReplicaState {
    const now = this.now();
    // An answer older than the lag bound says nothing about the lag now (a hung connection).
    if (this.health === 'ok' && now - this.lastAnswerAt > this.options.maxLagMs + this.options.checkMs) return { state: 'down', lagMs: null };
    if (this.health !== 'ok') return { state: this.health, lagMs: null };
    const lagMs = this.lagMs(now);
    return { state: lagMs > this.options.maxLagMs ? 'lagging' : 'ok', lagMs: Math.round(lagMs) };
  }

  /** A replica read failed: not read from again until a check gets an answer. */
  markDown(): void {
    this.health = 'down';
  }

  /**
   * The primary's position, read by a query that started after this call (so it covers every
   * commit acknowledged before the caller arrived). Concurrent callers share queries: at most one
   * runs and one waits behind it.
   */
  freshPrimaryLsn(): Promise<Lsn> {
    if (!this.primaryQuery) return this.startPrimaryQuery();
    return (this.queuedPrimary ??= this.primaryQuery.then(noop, noop).then(() => {
      this.queuedPrimary = undefined;
      return this.startPrimaryQuery();
    }));
  }

  /**
   * Whether the replica has replayed `target` (waiting up to `waitMs` for it). False when the
   * replica is not usable or stays behind: the caller then reads from the primary.
   */
  async hasReplayed(target: Lsn, waitMs: number): Promise<boolean> {
    if (this.replayed >= target) return this.usable();
    if (!this.usable()) return false;
    const deadline = this.now() + waitMs;
    for (;;) {
      const lsn = await this.freshReplayLsn().catch(() => null);
      if (lsn === null) return false;
      if (lsn >= target) return true;
      const left = deadline - this.now();
      if (left <= 0) return false;
      await new Promise((resolve) => setTimeout(resolve, Math.min(2, left)));
    }
  }

  private startPrimaryQuery(): Promise<Lsn> {
    const p: Promise<Lsn> = this.probe.primaryLsn().finally(() => {
      if (this.primaryQuery === p) this.primaryQuery = undefined;
    });
    this.primaryQuery = p;
    p.then((lsn) => this.sample(lsn), noop);
    return p;
  }

  /** The replica's replay position; callers waiting at the same time share one query. */
  private freshReplayLsn(): Promise<Lsn | null> {
    return (this.replayQuery ??= this.probe
      .replayLsn()
      .then(
        (lsn) => {
          this.lastAnswerAt = this.now();
          if (lsn === null) {
            this.health = 'not-a-standby';
            return null;
          }
          this.health = 'ok';
          if (lsn > this.replayed) this.replayed = lsn;
          return lsn;
        },
        (e: unknown) => {
          this.health = 'down';
          throw e;
        },
      )
      .finally(() => {
        this.replayQuery = undefined;
      }));
  }

  private sample(lsn: Lsn): void {
    const last = this.samples[this.samples.length - 1];
    if (last && last.lsn >= lsn) return;
    this.samples.push({ at: this.now(), lsn });
    // Keep the oldest unreplayed sample (it is the lag) and the newest ones.
    if (this.samples.length > MAX_SAMPLES) this.samples.splice(1, 1);
  }

  private lagMs(now: number): number {
    while (this.samples.length > 1 && this.samples[0]!.lsn <= this.replayed) this.samples.shift();
    const oldest = this.samples[0];
    return oldest === undefined || oldest.lsn <= this.replayed ? 0 : now - oldest.at;
  }
}
