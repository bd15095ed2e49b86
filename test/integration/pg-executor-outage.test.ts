import { Pool } from 'pg';
import { databaseBusyError } from '../../src/db/busy-errors';
import { PgExecutor } from '../../src/db/pg-executor';
import { sessionSettings } from '../../src/db/session-settings';
import { HealthService } from '../../src/services/health.service';
import { DB_TIMEOUT_DEFAULTS } from '../../src/config/limits';
import { type TcpProxy, startTcpProxy, viaProxy } from '../support/tcp-proxy';
import { ADMIN_DATABASE_URL } from '../support/test-db';

/**
 * The raw SQL executor (migrator, health probe) over a pool whose connections die: a connection
 * lost between two statements of a transaction does not crash the process (an unhandled 'error'
 * event would), the transaction throws a connection error (not the failed ROLLBACK's) that maps
 * to 503, the dead client is dropped; a connect that gets no answer gives up after the connect timeout;
 * and once the database is back the same pool serves again. Always PostgreSQL: the proxy sits on
 * a TCP connection.
 */
let proxy: TcpProxy;
let pool: Pool;
let sql: PgExecutor;

beforeAll(async () => {
  const target = new URL(ADMIN_DATABASE_URL);
  proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  pool = new Pool({ connectionString: viaProxy(ADMIN_DATABASE_URL, proxy), ...sessionSettings({ ...DB_TIMEOUT_DEFAULTS, poolSize: 2, connectTimeoutMs: 500 }) });
  // As in src/db/database.ts: an idle client's error must not crash the process.
  pool.on('error', () => undefined);
  sql = new PgExecutor(pool);
});
afterAll(async () => {
  await pool?.end();
  await proxy?.close();
});

test('a transaction cut by an outage throws a 503-mapped error; the pool recovers without being recreated', async () => {
  expect(await sql.query<{ n: number }>('SELECT 1 AS n')).toEqual([{ n: 1 }]);
  const cut = sql.transaction(async (tx) => {
    await tx.query('SELECT 1');
    await proxy.stop();
    return tx.query('SELECT 2');
  });
  const error = await cut.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Error);
  expect((error as Error).message).not.toMatch(/ROLLBACK/i);
  expect(databaseBusyError(error)).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503 });
  // The dead client left the pool; new ones are refused while the proxy is down.
  expect(pool.totalCount).toBe(0);
  const refused = await sql.query('SELECT 1').then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(databaseBusyError(refused)).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });

  await proxy.start();
  expect(await sql.transaction((tx) => tx.query<{ n: number }>('SELECT 3 AS n'))).toEqual([{ n: 3 }]);
});

test('a server that accepts and never answers: connects give up after the connect timeout (503), the readiness probe says unreachable', async () => {
  // A pool of its own, with no connection yet: every query needs a new one.
  const fresh = new Pool({ connectionString: viaProxy(ADMIN_DATABASE_URL, proxy), ...sessionSettings({ ...DB_TIMEOUT_DEFAULTS, poolSize: 2, connectTimeoutMs: 500 }) });
  fresh.on('error', () => undefined);
  try {
    proxy.freeze();
    const timedOut = await fresh.query('SELECT 1').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(databaseBusyError(timedOut)).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503 });
    expect(await new HealthService(new PgExecutor(fresh), 500).databaseReachable()).toBe(false);
    proxy.thaw();
    expect(await new HealthService(new PgExecutor(fresh), 5000).databaseReachable()).toBe(true);
  } finally {
    proxy.thaw();
    await fresh.end();
  }
});
