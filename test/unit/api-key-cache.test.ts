import { randomUUID } from 'node:crypto';
import { ApiKeyCache } from '../../src/cache/api-key-cache';
import { type InvalidationBus, LocalInvalidationBus, PgInvalidationBus } from '../../src/cache/invalidation';
import type { ApiKeyRecord } from '../../src/domain/ports';

/**
 * The rules of the in-process API key cache that the two-instance e2e test
 * (test/e2e/api-key-revocation.e2e.test.ts) cannot reach directly: a read that raced an
 * invalidation is not kept, absent keys are not kept, nothing is kept while the bus is not
 * listening or with a TTL of 0, and an entry past its TTL is read again.
 */
const record = (id: string, revokedAt: Date | null = null): ApiKeyRecord => ({
  id,
  tenantId: randomUUID(),
  tenantSlug: 't',
  name: null,
  secretHash: '0'.repeat(64),
  scopes: ['verifier'],
  createdAt: new Date(0),
  lastUsedAt: null,
  revokedAt,
  holderDid: null,
});

/** A loader that counts its calls and answers what `next` says. */
function loader(next: () => ApiKeyRecord | null) {
  const calls = { n: 0 };
  return { calls, load: async () => (calls.n++, next()) };
}

const cacheOf = (ttlMs = 60_000, bus: InvalidationBus = new LocalInvalidationBus()) => new ApiKeyCache({ maxEntries: 100, bus, ttlMs });

test('a record is served from memory until invalidated; then read again', async () => {
  const id = randomUUID();
  const cache = cacheOf();
  let current = record(id);
  const { calls, load } = loader(() => current);
  await cache.get(id, load);
  await cache.get(id, load);
  expect(calls.n).toBe(1);
  current = record(id, new Date());
  cache.invalidate(id);
  expect((await cache.get(id, load))?.revokedAt).not.toBeNull();
  expect(calls.n).toBe(2);
});

test('an absent key is never remembered: created a moment later, it is found', async () => {
  const id = randomUUID();
  const cache = cacheOf();
  let current: ApiKeyRecord | null = null;
  const { calls, load } = loader(() => current);
  expect(await cache.get(id, load)).toBeNull();
  current = record(id);
  expect(await cache.get(id, load)).toEqual(current);
  expect(calls.n).toBe(2);
});

test('a read that raced an invalidation is not kept (it may predate the revocation)', async () => {
  const id = randomUUID();
  const cache = cacheOf();
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const stale = cache.get(id, async () => {
    await gate;
    return record(id);
  });
  cache.invalidate(id);
  release();
  await stale;
  const { calls, load } = loader(() => record(id, new Date()));
  expect((await cache.get(id, load))?.revokedAt).not.toBeNull();
  expect(calls.n).toBe(1);
});

test('past its TTL an entry is read again', async () => {
  const id = randomUUID();
  const cache = cacheOf(1);
  const { calls, load } = loader(() => record(id));
  await cache.get(id, load);
  await new Promise((r) => setTimeout(r, 20));
  await cache.get(id, load);
  expect(calls.n).toBe(2);
});

test('TTL 0, or a bus that is not listening: every request reads its key', async () => {
  const id = randomUUID();
  const notListening = new PgInvalidationBus('postgresql://127.0.0.1:1/none');
  expect(notListening.live).toBe(false);
  for (const cache of [cacheOf(0), cacheOf(60_000, notListening)]) {
    const { calls, load } = loader(() => record(id));
    await cache.get(id, load);
    await cache.get(id, load);
    expect(calls.n).toBe(2);
  }
  await notListening.close();
});

test('entries are frozen: a caller cannot change what the next request is served', async () => {
  const id = randomUUID();
  const cache = cacheOf();
  const first = await cache.get(id, async () => record(id));
  expect(Object.isFrozen(first)).toBe(true);
});
