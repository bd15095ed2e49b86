import { parseConfig, ConfigError } from '../../src/config';
import { formatLsn, parseLsn } from '../../src/db/read-replica/lsn';
import { ReplicaMonitor, type ReplicaProbe } from '../../src/db/read-replica/replica-monitor';
import { isPlainSelect } from '../../src/db/read-replica/routing-client';
import { ReadRouter } from '../../src/db/read-replica/read-router';
import { withRequest } from '../../src/db/read-replica/scope';
import type { Logger } from '../../src/logging/logger';

const BASE = { DATABASE_URL: 'postgres://u@127.0.0.1:5432/db', CREDGATE_MASTER_KEY: '00'.repeat(32) };

describe('CREDGATE_READ_DATABASE_URL', () => {
  test('absent: no replica; present: its URL and the lag bounds, with defaults', () => {
    expect(parseConfig(BASE).readReplica).toBeUndefined();
    expect(parseConfig({ ...BASE, CREDGATE_READ_DATABASE_URL: 'postgresql://u@127.0.0.1:5433/db' }).readReplica).toEqual({ url: 'postgresql://u@127.0.0.1:5433/db', maxLagMs: 1000, waitMs: 50, checkMs: 200 });
    expect(parseConfig({ ...BASE, CREDGATE_READ_DATABASE_URL: 'postgres://r/db', CREDGATE_READ_MAX_LAG_MS: '250', CREDGATE_READ_WAIT_MS: '0', CREDGATE_READ_CHECK_MS: '20' }).readReplica).toMatchObject({ maxLagMs: 250, waitMs: 0, checkMs: 20 });
  });

  test('refused with a clear message: no PostgreSQL primary, not a postgres URL, bounds out of range', () => {
    expect(() => parseConfig({ CREDGATE_READ_DATABASE_URL: 'postgres://r/db' })).toThrow(/needs DATABASE_URL/);
    expect(() => parseConfig({ ...BASE, CREDGATE_READ_DATABASE_URL: 'mysql://r/db' })).toThrow(ConfigError);
    expect(() => parseConfig({ ...BASE, CREDGATE_READ_DATABASE_URL: 'not a url' })).toThrow(/not a valid URL/);
    expect(() => parseConfig({ ...BASE, CREDGATE_READ_DATABASE_URL: 'postgres://r/db', CREDGATE_READ_MAX_LAG_MS: '5' })).toThrow(/CREDGATE_READ_MAX_LAG_MS/);
  });
});

test('WAL positions are compared as 64-bit numbers and printed back as PostgreSQL does', () => {
  expect(parseLsn('9/FFFFFFFF')! < parseLsn('10/0')!).toBe(true);
  expect(formatLsn(parseLsn('16/b374d848')!)).toBe('16/B374D848');
  for (const bad of ['', '16', '16/', '/1', 'x/1', '123456789/0', '1/2/3', '0x1/2']) expect(parseLsn(bad)).toBeNull();
});

test('only plain SELECTs are read from the replica', () => {
  expect(isPlainSelect('SELECT bits FROM status_lists WHERE id = $1')).toBe(true);
  expect(isPlainSelect('  select 1')).toBe(true);
  for (const sql of ['INSERT INTO t VALUES (1) RETURNING id', 'WITH x AS (DELETE FROM t RETURNING *) SELECT * FROM x', 'SELECT * FROM t FOR UPDATE', 'SELECT * FROM t FOR NO KEY UPDATE', 'SELECT * FROM t for share']) {
    expect(isPlainSelect(sql)).toBe(false);
  }
});

describe('ReplicaMonitor', () => {
  /** A probe whose positions the test sets, and a clock the test moves. */
  function world() {
    const w = { primary: 100n, replay: 100n as bigint | null, fail: false, now: 0, primaryQueries: 0 };
    const probe: ReplicaProbe = {
      primaryLsn: async () => (w.primaryQueries++, w.primary),
      replayLsn: async () => {
        if (w.fail) throw new Error('connection refused');
        return w.replay;
      },
    };
    const monitor = new ReplicaMonitor(probe, { maxLagMs: 1000, checkMs: 100, now: () => w.now });
    return { w, monitor };
  }

  test('lag is the age of the oldest primary position the replica has not replayed', async () => {
    const { w, monitor } = world();
    await monitor.check();
    expect(monitor.state()).toEqual({ state: 'ok', lagMs: 0 });
    w.primary = 200n;
    await monitor.check(); // the primary is at 200 from t=0 on; the replica stays at 100
    w.now = 600;
    await monitor.check();
    expect(monitor.state()).toEqual({ state: 'ok', lagMs: 600 });
    w.now = 1001;
    await monitor.check();
    expect(monitor.state()).toEqual({ state: 'lagging', lagMs: 1001 });
    expect(monitor.usable()).toBe(false);
    w.replay = 200n;
    await monitor.check();
    expect(monitor.state()).toEqual({ state: 'ok', lagMs: 0 });
  });

  test('a replica that fails, is not a standby, or has not answered for longer than the bound is not used', async () => {
    const { w, monitor } = world();
    await monitor.check();
    expect(monitor.usable()).toBe(true);
    w.fail = true;
    await monitor.check();
    expect(monitor.state().state).toBe('down');
    w.fail = false;
    await monitor.check();
    expect(monitor.usable()).toBe(true);
    w.now = 5000; // no check answered since t=0
    expect(monitor.state().state).toBe('down');
    w.replay = null;
    await monitor.check();
    expect(monitor.state().state).toBe('not-a-standby');
    expect(await monitor.hasReplayed(0n, 0)).toBe(false);
  });

  test('hasReplayed waits for the position, and gives up once the wait is over', async () => {
    const { w, monitor } = world();
    await monitor.check();
    expect(await monitor.hasReplayed(100n, 0)).toBe(true);
    expect(await monitor.hasReplayed(150n, 0)).toBe(false);
    w.replay = 150n;
    expect(await monitor.hasReplayed(150n, 0)).toBe(true);
  });

  test("a fresh primary position is read by a query that started after the caller arrived, shared by those who wait", async () => {
    const { w, monitor } = world();
    const first = monitor.freshPrimaryLsn();
    w.primary = 300n; // committed while the first query runs: later callers must see it
    const [a, b] = [monitor.freshPrimaryLsn(), monitor.freshPrimaryLsn()];
    expect(await first).toBe(100n);
    expect(await a).toBe(300n);
    expect(await b).toBe(300n);
    expect(w.primaryQueries).toBe(2);
  });
});

describe('ReadRouter', () => {
  /** A router over a monitor whose probe the test drives (the database boundary). */
  function routed(options: { primary?: bigint; replay?: bigint } = {}) {
    const w = { primary: options.primary ?? 100n, replay: options.replay ?? 100n };
    const monitor = new ReplicaMonitor({ primaryLsn: async () => w.primary, replayLsn: async () => w.replay }, { maxLagMs: 60_000, checkMs: 100 });
    const logger = { warn: () => undefined } as unknown as Logger;
    return { w, monitor, router: new ReadRouter(monitor, 0, logger) };
  }
  const where = (source: string) => Promise.resolve(source);

  test('outside a read-only operation every read is the primary', async () => {
    const { monitor, router } = routed();
    await monitor.check();
    expect(await router.read(where, true)).toBe('primary');
    expect(router.stats).toEqual({ replica: 0, primary: 0, fallbacks: 0 });
  });

  test('fenced: the replica only once it has replayed the primary position taken after the operation started', async () => {
    const { w, monitor, router } = routed();
    await monitor.check();
    expect(await router.run('fenced', () => router.read(where, true))).toBe('replica');
    w.primary = 200n; // a commit the replica has not replayed
    expect(await router.run('fenced', () => router.read(where, true))).toBe('primary');
    w.replay = 200n;
    expect(await router.run('fenced', () => router.read(where, true))).toBe('replica');
  });

  test("session: the replica unless the client's Credgate-LSN is ahead of it; a miss there is asked of the primary", async () => {
    const { w, monitor, router } = routed();
    await monitor.check();
    w.primary = 200n;
    expect(await router.run('session', () => router.read(where, true))).toBe('replica');
    const state = { clientLsn: 150n, readOnly: false };
    expect(await withRequest(state, () => router.run('session', () => router.read(where, true)))).toBe('primary');
    expect(state.readOnly).toBe(true);
    const missing = (source: string) => Promise.resolve(source === 'replica' ? null : 'found');
    expect(await router.run('session', () => router.read(missing, false))).toBe('found');
    w.replay = 200n; // caught up: a fenced read's null is final (the replica has everything the request must see)
    expect(await router.run('fenced', () => router.read(missing, false))).toBe(null);
  });

  test('a failed replica read is answered by the primary; a connection failure stops replica reads, a statement that cannot run there does not', async () => {
    const { monitor, router } = routed();
    await monitor.check();
    const failing = (error: unknown) => (source: string) => (source === 'replica' ? Promise.reject(error) : Promise.resolve('primary'));
    expect(await router.run('fenced', () => router.read(failing(Object.assign(new Error('read-only'), { code: '25006' })), true))).toBe('primary');
    expect(monitor.usable()).toBe(true);
    expect(await router.run('fenced', () => router.read(failing(new Error('Connection terminated unexpectedly')), true))).toBe('primary');
    expect(monitor.usable()).toBe(false);
    expect(await router.run('fenced', () => router.read(where, true))).toBe('primary');
    expect(router.stats.fallbacks).toBe(2);
  });

  test('one decision per operation, kept for all of its reads', async () => {
    const { w, monitor, router } = routed();
    await monitor.check();
    const sources = await router.run('fenced', async () => {
      const first = await router.read(where, true);
      w.primary = 300n; // commits after the operation started do not move it
      return [first, await router.read(where, true)];
    });
    expect(sources).toEqual(['replica', 'replica']);
  });
});
