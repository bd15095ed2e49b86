import { randomBytes } from 'node:crypto';
import { type Database, openDatabase } from '../../src/db/database';
import { BatchedRateLimitStore } from '../../src/db/repositories/rate-limit-batch.repository';
import { PrismaRateLimitRepository } from '../../src/db/repositories/rate-limit.repository';
import { type TestDatabase, createTestDatabase } from '../support/test-db';
import { StatementCounter } from '../support/statement-counter';

/**
 * Rate-limit hits flushed in batches must count exactly what one upsert per hit counted: every
 * caller of a bucket sees a distinct count, the counts are 1..n in all (no hit lost, none
 * doubled), the shared row ends at n, and this holds with two stores (two instances) writing the
 * same buckets at once. Attack: a burst of concurrent calls spread over instances must not get
 * more calls under the budget than the budget. Counted at the driver: fewer statements than hits.
 */
const WINDOW = 86_400;
let tdb: TestDatabase;
let db: Database;
const counter = new StatementCounter();

beforeAll(async () => {
  tdb = await createTestDatabase();
  db = await openDatabase(tdb.config);
  counter.install();
});

afterAll(async () => {
  counter.uninstall();
  await db?.close();
  await tdb?.drop();
});

const store = () => new BatchedRateLimitStore(db.sql, new PrismaRateLimitRepository(db.prisma));
const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const range = (n: number, from = 1) => Array.from({ length: n }, (_, i) => from + i);

async function rowOf(key: string): Promise<number | undefined> {
  const [row] = await db.sql.query<{ hits: number }>('SELECT hits FROM rate_limit_counters WHERE key = $1', [key]);
  return row?.hits;
}

test('a concurrent burst on one bucket: counts 1..n, each once, in fewer statements than hits', async () => {
  const key = `rb:${randomBytes(4).toString('hex')}`;
  const s = store();
  const { result, statements } = await counter.during(() => Promise.all(range(60).map(() => s.hit(key, WINDOW))));
  expect(sorted(result.map((h) => h.hits))).toEqual(range(60));
  expect(await rowOf(key)).toBe(60);
  process.stdout.write(`60 concurrent hits of one bucket: ${statements} statements\n`);
  expect(statements).toBeLessThan(60);
  for (const h of result) expect(h.retryAfterSeconds).toBeGreaterThan(0);
  expect(new Set(result.map((h) => h.windowStart)).size).toBe(1);
});

test('hits of several sizes on several buckets at once add up per bucket, in arrival order', async () => {
  const a = `rb-a:${randomBytes(4).toString('hex')}`;
  const b = `rb-b:${randomBytes(4).toString('hex')}`;
  const s = store();
  const [a1, b1, a2, a3, b2] = await Promise.all([s.hit(a, WINDOW), s.hit(b, WINDOW, 10), s.hit(a, WINDOW, 3), s.hit(a, WINDOW), s.hit(b, WINDOW)]);
  // As if counted one by one in the order asked: a 1, then +3 = 4, then 5; b 10, then 11.
  expect([a1!.hits, a2!.hits, a3!.hits]).toEqual([1, 4, 5]);
  expect([b1!.hits, b2!.hits]).toEqual([10, 11]);
  expect(await rowOf(a)).toBe(5);
  expect(await rowOf(b)).toBe(11);
  // Sequential calls keep working and keep counting on.
  expect((await s.hit(a, WINDOW)).hits).toBe(6);
});

test('two instances on the same buckets at once: one exact shared count, no deadlock', async () => {
  const keys = range(5).map((i) => `rb-two-${i}:${randomBytes(3).toString('hex')}`);
  const [x, y] = [store(), store()];
  // Each instance sends its keys in a different order; the store sorts them.
  const hits = await Promise.all(range(40, 0).flatMap((i) => [x.hit(keys[i % 5]!, WINDOW), y.hit(keys[4 - (i % 5)]!, WINDOW)]));
  expect(hits).toHaveLength(80);
  for (const key of keys) expect(await rowOf(key)).toBe(16);
  // Per bucket, the counts handed out across both instances are exactly 1..16.
  const perKey = new Map<string, number[]>();
  range(40, 0).forEach((i, j) => {
    for (const [k, h] of [[keys[i % 5]!, hits[2 * j]!], [keys[4 - (i % 5)]!, hits[2 * j + 1]!]] as const) perKey.set(k, [...(perKey.get(k) ?? []), h.hits]);
  });
  for (const key of keys) expect(sorted(perKey.get(key)!)).toEqual(range(16));
});

test('a failing statement fails its callers only; the next batch is counted', async () => {
  const s = store();
  const key = `rb-ok:${randomBytes(4).toString('hex')}`;
  // A window of 0 seconds divides by zero in the database: the statement fails.
  await expect(s.hit(`rb-bad:${randomBytes(4).toString('hex')}`, 0)).rejects.toThrow();
  expect((await s.hit(key, WINDOW)).hits).toBe(1);
});
