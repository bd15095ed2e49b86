import type { SchemaRecord, SchemaRepository } from '../domain/ports';
import type { CacheOptions } from './record-cache';
import { RecordCache } from './record-cache';

/**
 * Family A schemas are immutable once written (a change is a new version), so a schema by id or
 * by (tenant, name, version) is cached with no invalidation at all. The latest version and the
 * listings move with every new version: they are read through.
 */
export function cachedSchemas(repo: SchemaRepository, cache: CacheOptions): SchemaRepository {
  const byId = new RecordCache<SchemaRecord>('schema', cache.maxEntries, cache.bus);
  const byVersion = new RecordCache<SchemaRecord>('schema-version', cache.maxEntries, cache.bus);
  const cached = Object.create(repo) as SchemaRepository;
  cached.findById = (id) => byId.get(id, () => repo.findById(id));
  // JSON keeps the three parts apart whatever characters a name holds.
  cached.findVersion = (tenantId, name, version) => byVersion.get(JSON.stringify([tenantId, name, version]), () => repo.findVersion(tenantId, name, version));
  return cached;
}
