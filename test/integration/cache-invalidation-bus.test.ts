import { Client } from 'pg';
import { CACHE_CHANNEL, LISTENER_NAME, PgInvalidationBus } from '../../src/cache/invalidation';
import { RecordCache } from '../../src/cache';
import { type TestDatabase, createTestDatabase } from '../support/test-db';

/** The PostgreSQL side of the caches: notices from any connection drop entries; a lost listener empties them and reconnects. */
let db: TestDatabase;
let url: string;
let bus: PgInvalidationBus;
let admin: Client;

beforeAll(async () => {
  // LISTEN/NOTIFY across instances is a PostgreSQL matter whichever database the suite runs on.
  db = await createTestDatabase('postgres');
  url = (db.config as { url: string }).url;
  admin = new Client({ connectionString: url });
  await admin.connect();
});
afterAll(async () => {
  await bus?.close();
  await admin?.end();
  await db?.drop();
});

/** Waits (by polling, never by asserting on time) until `cond` holds; fails after many tries. */
async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !cond(); i++) await new Promise((r) => setTimeout(r, 25));
  expect(cond()).toBe(true);
}

test("a notice committed on another connection drops that key, after the barrier", async () => {
  bus = new PgInvalidationBus(url);
  await bus.start();
  expect(bus.live).toBe(true);
  const cache = new RecordCache<string>('template', 10, bus);
  let value = 'v1';
  const load = async () => value;
  await cache.get('a', load);
  await cache.get('b', load);
  value = 'v2';
  await admin.query('BEGIN');
  await admin.query('SELECT pg_notify($1, $2)', [CACHE_CHANNEL, 'template:a']);
  await bus.barrier();
  // Not committed yet: nothing was announced.
  expect(await cache.get('a', load)).toBe('v1');
  await admin.query('COMMIT');
  await bus.barrier();
  expect(await cache.get('a', load)).toBe('v2');
  expect(await cache.get('b', load)).toBe('v1');
});

test('a killed listener empties the caches, reads through, then listens again', async () => {
  const cache = new RecordCache<string>('did', 10, bus);
  let value = 'before';
  const load = async () => value;
  await cache.get('k', load);
  let cleared = 0;
  bus.subscribe((topic) => {
    if (topic === '*') cleared++;
  });
  await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()', [LISTENER_NAME]);
  await until(() => !bus.live);
  value = 'after';
  expect(await cache.get('k', load)).toBe('after');
  await until(() => bus.live);
  expect(cleared).toBeGreaterThanOrEqual(2); // on loss, and again on reconnection
  expect(await cache.get('k', load)).toBe('after');
  value = 'again';
  expect(await cache.get('k', load)).toBe('after'); // cached again now that it listens
  await admin.query('SELECT pg_notify($1, $2)', [CACHE_CHANNEL, 'did:k']);
  await bus.barrier();
  expect(await cache.get('k', load)).toBe('again');
});
