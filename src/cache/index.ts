export { LruCache } from './lru';
export { RecordCache, type CacheOptions } from './record-cache';
export { CACHE_CHANNEL, type Invalidation, type InvalidationBus, LocalInvalidationBus, PgInvalidationBus } from './invalidation';
export { notifyInTransaction } from './notify';
export { cachedSchemas } from './schema-cache';
