/**
 * A small bounded LRU (insertion-ordered Map, re-inserted on hit). Used for public-key KeyObjects:
 * building one (DER/JWK import plus point validation) costs about as much as a verification, and
 * an issuer's key is verified against again and again. The bound keeps hostile callers presenting
 * endless fresh keys from growing memory; they only cost a cache miss each.
 */
export class LruCache<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(private readonly capacity: number) {}

  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }

  clear(): void {
    this.entries.clear();
  }
}
