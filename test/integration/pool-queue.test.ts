/**
 * A burst larger than the pool, on a healthy server, waits for pooled connections instead of
 * failing after the connect timeout: node-postgres uses one option for both waits, and Credgate
 * gives the pool the queue bound and its clients the connect bound (src/db/session-settings.ts).
 * Before that split, 200 parallel transactions on a pool of 10 failed with "timeout exceeded when
 * trying to connect" after 2 s.
 */
import { Pool } from 'pg';
import { DB_TIMEOUT_DEFAULTS } from '../../src/config/limits';
import { sessionSettings } from '../../src/db/session-settings';
import { createTestDatabase, type TestDatabase } from '../support/test-db';

let db: TestDatabase;
let pool: Pool;

beforeAll(async () => {
  db = await createTestDatabase('postgres');
  if (db.config.kind !== 'postgres') throw new Error('needs PostgreSQL');
  // A connect bound far below the time the queue needs to drain.
  pool = new Pool({ connectionString: db.config.url, ...sessionSettings({ ...DB_TIMEOUT_DEFAULTS, poolSize: 2, connectTimeoutMs: 200 }) });
});

afterAll(async () => {
  await pool?.end();
  await db?.drop();
});

test('60 queries that each hold a connection for 50 ms all succeed on a pool of 2 with a 200 ms connect timeout', async () => {
  const results = await Promise.allSettled(Array.from({ length: 60 }, (_, i) => pool.query<{ n: number }>('SELECT $1::int AS n, pg_sleep(0.05)', [i])));
  expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
  expect(results.map((r) => (r.status === 'fulfilled' ? r.value.rows[0]!.n : -1))).toEqual(Array.from({ length: 60 }, (_, i) => i));
});
