import type { RateLimitStore, WindowHit } from '../../domain/rate-limit.port';
import type { SqlExecutor } from '../sql-executor';

/**
 * The hits of many callers on many buckets, in ONE statement: per distinct key the summed count is
 * added atomically (the same upsert as PrismaRateLimitRepository.hit, row by row), and the new
 * count comes back. Keys are sorted, so two instances' batches lock shared rows in one order and
 * cannot deadlock; ON CONFLICT cannot touch one row twice, so keys are distinct.
 */
const HIT_MANY = `
  INSERT INTO rate_limit_counters AS c (key, window_start, hits)
  SELECT t.key, to_timestamp(floor(extract(epoch FROM clock_timestamp()) / $3::int) * $3::int), t.hits
  FROM unnest($1::text[], $2::int[]) AS t(key, hits)
  ON CONFLICT (key) DO UPDATE SET
    hits = CASE WHEN c.window_start >= EXCLUDED.window_start THEN c.hits + EXCLUDED.hits ELSE EXCLUDED.hits END,
    window_start = GREATEST(c.window_start, EXCLUDED.window_start)
  RETURNING key, hits, ceil(extract(epoch FROM (window_start + make_interval(secs => $3::int)) - clock_timestamp()))::int AS retry_after,
    extract(epoch FROM window_start)::bigint AS window_epoch`;

interface Waiter {
  readonly by: number;
  resolve(hit: WindowHit): void;
  reject(e: unknown): void;
}

/**
 * Rate-limit counters flushed in batches WITHOUT loosening any budget (issue 19).
 *
 * Hits are group-committed: while one batch statement is in flight, the hits that arrive wait and
 * go together in the next one (at most one in flight per window length). Each key's hits are
 * summed, added in one atomic step on the shared row, and handed back to the callers in arrival
 * order as if they had been counted one by one: with n hits of one key and the row at H after the
 * statement, the callers see H - n + 1, ..., H. That is exactly what n separate upserts would have
 * returned had they run back to back, so every budget stays exact and shared across instances
 * (each statement is atomic on each row, whoever sends it).
 *
 * Why not a slice of the budget reserved per instance and spent from memory: a slice one instance
 * holds unused is refused to the others (a budget of 6 split 3 + 3 refuses the 4th call on one
 * instance while the other sits idle), and the per-credential budgets are single digits in
 * practice; the refusals already come from memory once a bucket is exhausted (RateLimitService).
 *
 * Under sequential load nothing changes (one statement per hit, as before); under concurrency the
 * statements per request fall with the batch size. `release` and `prune` are left to `single`.
 */
export class BatchedRateLimitStore implements RateLimitStore {
  /** Per window length: key -> waiters, in arrival order. */
  private readonly pending = new Map<number, Map<string, Waiter[]>>();
  private readonly inFlight = new Set<number>();

  constructor(
    private readonly sql: SqlExecutor,
    private readonly single: RateLimitStore,
  ) {}

  hit(key: string, windowSeconds: number, by = 1): Promise<WindowHit> {
    return new Promise<WindowHit>((resolve, reject) => {
      let keys = this.pending.get(windowSeconds);
      if (!keys) this.pending.set(windowSeconds, (keys = new Map()));
      const waiters = keys.get(key);
      if (waiters) waiters.push({ by, resolve, reject });
      else keys.set(key, [{ by, resolve, reject }]);
      if (!this.inFlight.has(windowSeconds)) void this.flush(windowSeconds);
    });
  }

  release(key: string, windowStart: number): Promise<void> {
    return this.single.release(key, windowStart);
  }

  prune(olderThanSeconds: number): Promise<number> {
    return this.single.prune(olderThanSeconds);
  }

  private async flush(windowSeconds: number): Promise<void> {
    this.inFlight.add(windowSeconds);
    try {
      // Hits of the same turn of the event loop join before the statement leaves.
      await new Promise<void>((resolve) => setImmediate(resolve));
      for (;;) {
        const batch = this.pending.get(windowSeconds);
        this.pending.delete(windowSeconds);
        if (!batch || batch.size === 0) return;
        await this.send(windowSeconds, batch);
      }
    } finally {
      this.inFlight.delete(windowSeconds);
    }
  }

  private async send(windowSeconds: number, batch: Map<string, Waiter[]>): Promise<void> {
    const keys = [...batch.keys()].sort();
    const sums = keys.map((k) => batch.get(k)!.reduce((n, w) => n + w.by, 0));
    let rows: { key: string; hits: number; retry_after: number; window_epoch: bigint | number | string }[];
    try {
      rows = await this.sql.query(HIT_MANY, [keys, sums, windowSeconds], 'credgate_rate_limit_hit_many');
    } catch (e) {
      for (const waiters of batch.values()) for (const w of waiters) w.reject(e);
      return;
    }
    const byKey = new Map(rows.map((r) => [r.key, r]));
    keys.forEach((key, i) => {
      const waiters = batch.get(key)!;
      const row = byKey.get(key);
      if (!row) {
        for (const w of waiters) w.reject(new Error('rate limit counter not returned'));
        return;
      }
      const retryAfterSeconds = Number(row.retry_after);
      const windowStart = Number(row.window_epoch);
      let hits = Number(row.hits) - sums[i]!;
      for (const w of waiters) {
        hits += w.by;
        w.resolve({ hits, retryAfterSeconds, windowStart });
      }
    });
  }
}
