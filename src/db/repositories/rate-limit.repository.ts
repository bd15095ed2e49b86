import type { RateLimitStore, WindowHit } from '../../domain/rate-limit.port';
import type { PrismaClient } from '../database';

/**
 * Fixed-window counters in PostgreSQL. One statement counts a hit atomically and returns the
 * new count, so every instance on the database sees the same number; the window boundaries come
 * from the database clock (clock_timestamp()), never from an instance's own clock, so instances
 * with skewed clocks still agree on which window a hit belongs to.
 */
export class PrismaRateLimitRepository implements RateLimitStore {
  constructor(private readonly prisma: PrismaClient) {}

  async hit(key: string, windowSeconds: number, by = 1): Promise<WindowHit> {
    const rows = await this.prisma.$queryRaw<{ hits: number; retry_after: number; window_epoch: bigint | number }[]>`
      INSERT INTO rate_limit_counters AS c (key, window_start, hits)
      VALUES (${key}, to_timestamp(floor(extract(epoch FROM clock_timestamp()) / ${windowSeconds}::int) * ${windowSeconds}::int), ${by}::int)
      ON CONFLICT (key) DO UPDATE SET
        hits = CASE WHEN c.window_start >= EXCLUDED.window_start THEN c.hits + EXCLUDED.hits ELSE EXCLUDED.hits END,
        window_start = GREATEST(c.window_start, EXCLUDED.window_start)
      RETURNING hits, ceil(extract(epoch FROM (window_start + make_interval(secs => ${windowSeconds}::int)) - clock_timestamp()))::int AS retry_after,
        extract(epoch FROM window_start)::bigint AS window_epoch`;
    const row = rows[0]!;
    return { hits: Number(row.hits), retryAfterSeconds: Number(row.retry_after), windowStart: Number(row.window_epoch) };
  }

  /**
   * Takes one hit back from the window it was counted in; a window that has since ended keeps its
   * count (it no longer matters) and the new window is never lowered below what it saw.
   */
  async release(key: string, windowStart: number): Promise<void> {
    await this.prisma.$executeRaw`
      UPDATE rate_limit_counters SET hits = hits - 1
      WHERE key = ${key} AND window_start = to_timestamp(${windowStart}::bigint) AND hits > 0`;
  }

  /** Drops counters of windows long gone (they would be reset on their next hit anyway). */
  async prune(olderThanSeconds: number): Promise<number> {
    return this.prisma.$executeRaw`DELETE FROM rate_limit_counters WHERE window_start < clock_timestamp() - make_interval(secs => ${olderThanSeconds}::int)`;
  }
}
