/**
 * The generic bounded LRU lives with its first user (public-key KeyObjects in src/domain/keys);
 * the record caches use the same one. A bound of 0 keeps nothing (caching off).
 */
export { LruCache } from '../domain/keys/key-object-cache';
