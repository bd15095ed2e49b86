/**
 * Serialization failures are retried (issue 10, scale-out): two SERIALIZABLE transactions that
 * read and then write the same row collide on PostgreSQL (SQLSTATE 40001, Prisma P2034); without
 * a retry one of them fails, with `retryTransaction` both commit and the row counts both writes.
 * The classifier is pinned on the shapes the drivers really produce.
 */
import { isRetryableTransactionError, retryTransaction } from '../../src/db/transaction-retry';
import { openDatabase, type Database } from '../../src/db/database';
import { migrate, readMigrations } from '../../src/db/migrator';
import { DB_TIMEOUT_DEFAULTS } from '../../src/config/limits';
import { createTestDatabase, type TestDatabase } from '../support/test-db';

let tdb: TestDatabase;
let db: Database;

beforeAll(async () => {
  tdb = await createTestDatabase('postgres');
  db = await openDatabase(tdb.config, DB_TIMEOUT_DEFAULTS);
  await migrate(db.sql, readMigrations());
  await db.prisma.rateLimitCounter.create({ data: { key: 'race', windowStart: new Date(), hits: 0 } });
});

afterAll(async () => {
  await db?.close();
  await tdb?.drop();
});

/** Reads the counter, waits until the other transaction has read it too, then writes read + 1. */
function increment(bothRead: Promise<void>, iRead: () => void): () => Promise<void> {
  let first = true;
  return () =>
    db.prisma.$transaction(
      async (tx) => {
        const [row] = await tx.$queryRaw<{ hits: number }[]>`SELECT hits FROM rate_limit_counters WHERE key = 'race'`;
        if (first) {
          // Only the first attempt waits for the other: a retry runs alone and must commit.
          first = false;
          iRead();
          await bothRead;
        }
        await tx.$executeRaw`UPDATE rate_limit_counters SET hits = ${row!.hits + 1} WHERE key = 'race'`;
      },
      { isolationLevel: 'Serializable' },
    );
}

function collide(wrap: (run: () => Promise<void>) => Promise<void>): Promise<PromiseSettledResult<void>[]> {
  let reads = 0;
  let release!: () => void;
  const bothRead = new Promise<void>((r) => (release = r));
  const iRead = (): void => {
    if (++reads === 2) release();
  };
  return Promise.allSettled([wrap(increment(bothRead, iRead)), wrap(increment(bothRead, iRead))]);
}

const hits = async (): Promise<number> => (await db.prisma.rateLimitCounter.findUniqueOrThrow({ where: { key: 'race' } })).hits;

test('without a retry, one of two colliding SERIALIZABLE transactions fails with a retryable error', async () => {
  const before = await hits();
  const results = await collide((run) => run());
  const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
  expect(failed).toHaveLength(1);
  // Prisma wraps it: P2010 with meta.driverAdapterError.cause { kind: 'TransactionWriteConflict', originalCode: '40001' }.
  expect(isRetryableTransactionError(failed[0]!.reason)).toBe(true);
  expect(await hits()).toBe(before + 1);
});

test('with retryTransaction, both commit and both increments count', async () => {
  const before = await hits();
  const results = await collide((run) => retryTransaction(run));
  expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
  expect(await hits()).toBe(before + 2);
});

test('only races are retried: other errors are thrown at once, and the last attempt throws', async () => {
  let calls = 0;
  await expect(retryTransaction(async () => {
    calls++;
    throw Object.assign(new Error('unique violation'), { code: 'P2002' });
  })).rejects.toThrow('unique violation');
  expect(calls).toBe(1);
  calls = 0;
  await expect(retryTransaction(async () => {
    calls++;
    throw Object.assign(new Error('deadlock'), { code: '40P01' });
  }, { attempts: 3, baseDelayMs: 1 })).rejects.toThrow('deadlock');
  expect(calls).toBe(3);
  expect(isRetryableTransactionError({ message: 'x', cause: { kind: 'TransactionWriteConflict' } })).toBe(true);
  expect(isRetryableTransactionError({ code: 'P2034' })).toBe(true);
  expect(isRetryableTransactionError({ code: '55P03' })).toBe(false);
});
