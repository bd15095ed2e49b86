import type { ApiKeyRecord, ApiKeyRepository } from '../domain/ports';
import type { InvalidationBus } from './invalidation';
import { LruCache } from './lru';

/** Topic of the invalidation notices about API keys; the key is the API key id. */
export const API_KEY_TOPIC = 'api-key';
/** Default bound on how long a cached key record is trusted without hearing of it (CREDGATE_API_KEY_CACHE_TTL_MS). */
export const DEFAULT_API_KEY_CACHE_TTL_MS = 5_000;

interface Entry {
  readonly record: ApiKeyRecord;
  /** performance.now() when the read that produced it STARTED (see `get`). */
  readonly readAt: number;
}

export interface ApiKeyCacheOptions {
  readonly maxEntries: number;
  readonly bus: InvalidationBus;
  /** Longest a record is served from memory; 0 turns the cache off (every request reads its key). */
  readonly ttlMs: number;
}

/**
 * Every authenticated request needs its API key record (and every Bearer token re-reads its key):
 * it is answered from memory, with two bounds on staleness.
 *
 * - Invalidation: a revocation sends `pg_notify('credgate_cache', 'api-key:<id>')` in the same
 *   statement as the UPDATE (src/db/repositories/api-key.repository.ts), so every instance drops the
 *   record when the change commits, the CLI's revocations included. The revoking instance drops
 *   its own copy at once as well.
 * - TTL: a notice can be lost (a listener connection that died without a word is only noticed by
 *   its next probe; a row changed by hand in SQL sends none; revocation is the only change the
 *   service makes to a key row today, and any future one must send the same notice), so a record is never served more
 *   than `ttlMs` after the read that produced it began. The read's snapshot is taken after that
 *   instant, so a key revoked at time t is refused everywhere by t + ttlMs at the latest.
 *
 * While the bus is not live (not yet connected, reconnecting) nothing is served or stored: the
 * key is read per request, as without the cache. Absent keys are never cached (no negative
 * caching), so a key created a moment ago on another instance is accepted on its first use.
 */
export class ApiKeyCache {
  private readonly lru: LruCache<string, Entry>;
  /** Counts invalidations; a read that raced one is not stored (it may predate the change). */
  private generation = 0;

  constructor(private readonly options: ApiKeyCacheOptions) {
    this.lru = new LruCache(options.maxEntries);
    options.bus.subscribe((topic, key) => {
      if (topic === '*') this.clear();
      else if (topic === API_KEY_TOPIC) this.invalidate(key);
    });
  }

  get enabled(): boolean {
    return this.options.ttlMs > 0 && this.options.maxEntries > 0;
  }

  async get(id: string, load: () => Promise<ApiKeyRecord | null>): Promise<ApiKeyRecord | null> {
    if (!this.enabled || !this.options.bus.live) return load();
    const now = performance.now();
    const hit = this.lru.get(id);
    if (hit !== undefined) {
      if (now - hit.readAt < this.options.ttlMs) return hit.record;
      this.lru.delete(id);
    }
    const generation = this.generation;
    const record = await load();
    if (record !== null && this.options.bus.live && generation === this.generation) this.lru.set(id, { record: Object.freeze(record), readAt: now });
    return record;
  }

  /** This instance changed the key (its own notice arrives later). */
  invalidate(id: string): void {
    this.generation++;
    this.lru.delete(id);
  }

  clear(): void {
    this.generation++;
    this.lru.clear();
  }
}

/**
 * The repository with `findById` answered from an ApiKeyCache; a revocation made through it also
 * drops this instance's copy as soon as it committed. Other methods are inherited unchanged.
 */
export function cachedApiKeys(repo: ApiKeyRepository, options: ApiKeyCacheOptions): ApiKeyRepository {
  const cache = new ApiKeyCache(options);
  const cached = Object.create(repo) as ApiKeyRepository;
  cached.findById = (id) => cache.get(id, () => repo.findById(id));
  cached.revoke = async (tenantId, id, at) => {
    try {
      return await repo.revoke(tenantId, id, at);
    } finally {
      cache.invalidate(id);
    }
  };
  return cached;
}
