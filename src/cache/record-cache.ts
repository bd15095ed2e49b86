import type { InvalidationBus } from './invalidation';
import { LruCache } from './lru';
import { onPrimary } from '../db/read-replica/scope';

/**
 * A bounded read-through cache of one kind of record, dropped key by key on invalidation notices
 * of its topic. A load that raced with an invalidation is not stored: `generation` counts the
 * invalidations, and a value is kept only when none arrived while it was being read (else it may
 * predate the change the notice announced). Absent records (null) are never cached. Entries are
 * shared by every caller, so they are frozen. A load reads from the primary even inside a
 * read-only operation that may use the read replica: a value a lagging replica returned after an
 * invalidation would be kept past the change the notice announced.
 */
export class RecordCache<V> {
  private readonly lru: LruCache<string, V>;
  private generation = 0;

  constructor(
    readonly topic: string,
    maxEntries: number,
    private readonly bus: InvalidationBus,
  ) {
    this.lru = new LruCache(maxEntries);
    bus.subscribe((topic, key) => {
      if (topic === '*') this.clear();
      else if (topic === this.topic) this.invalidate(key);
    });
  }

  async get(key: string, load: () => Promise<V | null>): Promise<V | null> {
    if (!this.bus.live) return load();
    const hit = this.lru.get(key);
    if (hit !== undefined) return hit;
    const generation = this.generation;
    const value = await onPrimary(load);
    if (value !== null && this.bus.live && generation === this.generation) this.lru.set(key, Object.freeze(value));
    return value;
  }

  /** Called by the writer right after its change committed (its own notice arrives later). */
  invalidate(key: string): void {
    this.generation++;
    this.lru.delete(key);
  }

  clear(): void {
    this.generation++;
    this.lru.clear();
  }
}

/** What the repositories need to cache: the bound on entries and the invalidation bus. */
export interface CacheOptions {
  readonly maxEntries: number;
  readonly bus: InvalidationBus;
}

