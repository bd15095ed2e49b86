/**
 * The shared counters behind the rate limits (src/services/rate-limit.service.ts): the service uses
 * them, the PostgreSQL adapter implements them. Declared here, below both.
 */

/** The count of one bucket after a hit, and when its window ends. */
export interface WindowHit {
  readonly hits: number;
  readonly retryAfterSeconds: number;
  /** The window the hit was counted in (epoch seconds of its start), for `release`. */
  readonly windowStart: number;
}

/** Shared counters (PostgreSQL, src/db/repositories/rate-limit.repository.ts). */
export interface RateLimitStore {
  /** Counts `by` hits (default 1) in one atomic step and returns the new count. */
  hit(key: string, windowSeconds: number, by?: number): Promise<WindowHit>;
  /** Takes back one hit counted in the window starting at `windowStart` (a no-op once that window is over). */
  release(key: string, windowStart: number): Promise<void>;
  prune(olderThanSeconds: number): Promise<number>;
}
