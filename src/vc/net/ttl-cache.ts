/**
 * A bounded cache of remote lookups (DID documents, status lists) with per-entry expiry, and
 * coalescing: concurrent misses for one key share a single load. Failures the loader marks as
 * cacheable are remembered briefly (negative caching) so a hostile or dead host is not asked again
 * on every request; others (timeouts, outages) are not cached at all.
 */
export interface TtlCacheOptions {
  /** Most entries kept; the oldest inserted is dropped first. 0 turns caching off (coalescing stays). */
  readonly maxEntries: number;
  /** Clock in milliseconds; injectable so expiry is tested without waiting. */
  readonly now?: () => number;
  /**
   * Most total weight kept (e.g. bytes of the documents held), oldest dropped first; unbounded
   * when absent. Entry counts alone let 1000 status lists of 1 MiB each hold a gigabyte.
   */
  readonly maxWeight?: number;
}

type Entry<V> = ({ readonly ok: true; readonly value: V } | { readonly ok: false; readonly error: unknown }) & { readonly expires: number; readonly weight: number };

export interface Loaded<V> {
  readonly value: V;
  /** How long the value may be served from the cache; 0 or less: not cached. */
  readonly ttlMs: number;
  /** What the value weighs against maxWeight (default 0). */
  readonly weight?: number;
}

export class TtlCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly inflight = new Map<string, Promise<V>>();
  private readonly now: () => number;
  private weight = 0;

  constructor(private readonly options: TtlCacheOptions) {
    this.now = options.now ?? Date.now;
  }

  /**
   * The cached value of `key`, or the result of `load` (shared with concurrent callers).
   * `negativeTtlMs(error)` says how long a failure is remembered (0: not at all).
   */
  async get(key: string, load: () => Promise<Loaded<V>>, negativeTtlMs: (error: unknown) => number): Promise<V> {
    const hit = this.entries.get(key);
    if (hit) {
      if (hit.expires > this.now()) {
        if (hit.ok) return hit.value;
        throw hit.error;
      }
      this.drop(key);
    }
    const pending = this.inflight.get(key);
    if (pending) return pending;
    const promise = (async () => {
      try {
        const loaded = await load();
        this.store(key, { ok: true, value: loaded.value, expires: this.now() + loaded.ttlMs, weight: loaded.weight ?? 0 }, loaded.ttlMs);
        return loaded.value;
      } catch (error) {
        const ttl = negativeTtlMs(error);
        this.store(key, { ok: false, error, expires: this.now() + ttl, weight: 0 }, ttl);
        throw error;
      } finally {
        this.inflight.delete(key);
      }
    })();
    this.inflight.set(key, promise);
    return promise;
  }

  /** Entries held (expired ones included until touched or pushed out). */
  get size(): number {
    return this.entries.size;
  }

  /** Total weight held. */
  get totalWeight(): number {
    return this.weight;
  }

  clear(): void {
    this.entries.clear();
    this.weight = 0;
  }

  private drop(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.weight -= entry.weight;
    this.entries.delete(key);
  }

  private store(key: string, entry: Entry<V>, ttlMs: number): void {
    if (ttlMs <= 0 || this.options.maxEntries <= 0) return;
    const maxWeight = this.options.maxWeight ?? Infinity;
    if (entry.weight > maxWeight) return;
    this.drop(key);
    while (this.entries.size >= this.options.maxEntries || this.weight + entry.weight > maxWeight) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.drop(oldest.value);
    }
    this.entries.set(key, entry);
    this.weight += entry.weight;
  }
}
