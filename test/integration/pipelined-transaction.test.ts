import { Client } from 'pg';
import type { TxExecutor } from '../../src/db/sql-executor';
import { TEST_DB_KIND, useMigratedDatabase } from '../support/test-db';

/**
 * Issue 19: a transaction on the pg pool pipelines. BEGIN goes out with the first statement, and a
 * last write sent with `queryAtCommit` goes out with COMMIT, so a Family B tick of four statements
 * waits for two answers. What must not change: a failed statement, awaited or not, fails the whole
 * transaction and commits nothing; the connection goes back to the pool clean. Run on PostgreSQL
 * and on PGlite (CREDGATE_TEST_DB=pglite), where `queryAtCommit` is awaited before the commit.
 */
const handle = useMigratedDatabase();
const sql = () => handle.db.sql;

beforeAll(async () => {
  await sql().exec('CREATE TABLE pipelined_probe (id int PRIMARY KEY, note text NOT NULL)');
});

const ids = async (): Promise<number[]> => (await sql().query<{ id: number }>('SELECT id FROM pipelined_probe ORDER BY id')).map((r) => r.id);
const insert = 'INSERT INTO pipelined_probe (id, note) VALUES ($1, $2)';

beforeEach(async () => {
  await sql().exec('DELETE FROM pipelined_probe');
});

test('a statement sent with queryAtCommit commits with the transaction, and the transaction returns what fn returned', async () => {
  const out = await sql().transaction(async (tx) => {
    await tx.query(insert, [1, 'awaited']);
    tx.queryAtCommit(insert, [2, 'at commit']);
    return 'done';
  });
  expect(out).toBe('done');
  expect(await ids()).toEqual([1, 2]);
});

test('a failing queryAtCommit statement fails the transaction with its own error and commits nothing', async () => {
  await sql().query(insert, [5, 'already there']);
  const failed = sql().transaction(async (tx) => {
    await tx.query(insert, [6, 'awaited before']);
    tx.queryAtCommit(insert, [5, 'duplicate key']);
    return 'never';
  });
  await expect(failed).rejects.toMatchObject({ code: '23505' });
  // The awaited insert went with it: nothing of the transaction committed.
  expect(await ids()).toEqual([5]);
});

test('a queryAtCommit statement followed by a failing awaited one: the awaited failure is thrown, nothing commits', async () => {
  const failed = sql().transaction(async (tx) => {
    tx.queryAtCommit(insert, [7, 'sent first']);
    await tx.query('SELECT 1 / 0');
  });
  await expect(failed).rejects.toMatchObject({ code: '22012' });
  expect(await ids()).toEqual([]);
});

test('a failing queryAtCommit statement followed by an awaited one: its own failure is thrown, not the aborted transaction', async () => {
  await sql().query(insert, [8, 'already there']);
  const failed = sql().transaction(async (tx) => {
    tx.queryAtCommit(insert, [8, 'duplicate key']);
    // Runs after the failure, in the aborted transaction (25P02 on PostgreSQL).
    await tx.query(insert, [9, 'after it']);
  });
  await expect(failed).rejects.toMatchObject({ code: '23505' });
  expect(await ids()).toEqual([8]);
});

test('after failed transactions every pooled connection is clean: later transactions on all of them commit', async () => {
  for (let i = 0; i < 3; i++) {
    await expect(
      sql().transaction(async (tx) => {
        tx.queryAtCommit('SELECT 1 / 0', []);
      }),
    ).rejects.toMatchObject({ code: '22012' });
  }
  // More at once than a pool holds connections, so connections that served the failures serve these.
  await Promise.all(
    Array.from({ length: 24 }, (_, i) =>
      sql().transaction(async (tx: TxExecutor) => {
        await tx.query('SELECT 1');
        tx.queryAtCommit(insert, [100 + i, `after ${i}`]);
      }),
    ),
  );
  expect(await ids()).toHaveLength(24);
});

// The wire order is node-postgres' (PGlite runs in process, with no round trips to save); the
// PGlite pass runs the tests above.
if (TEST_DB_KIND === 'postgres') describe('on PostgreSQL (node-postgres in pipeline mode)', () => {
  /** Every Client#query call in order, with whether the earlier calls were answered when it was made. */
  function recordCalls(): { calls: { text: string; unansweredBefore: string[] }[]; undo: () => void } {
    const calls: { text: string; unansweredBefore: string[] }[] = [];
    const pending = new Map<object, string>();
    const original = Client.prototype.query;
    (Client.prototype as unknown as { query: unknown }).query = function (this: Client, ...args: unknown[]) {
      const first = args[0];
      const text = typeof first === 'string' ? first : (first as { text: string }).text;
      calls.push({ text, unansweredBefore: [...pending.values()] });
      const result = (original as (...a: unknown[]) => unknown).apply(this, args);
      if (result instanceof Promise) {
        const token = {};
        pending.set(token, text);
        result.then(
          () => pending.delete(token),
          () => pending.delete(token),
        );
      }
      return result;
    };
    return { calls, undo: () => (Client.prototype.query = original) };
  }

  test('BEGIN is not waited for before the first statement, nor the last write before COMMIT', async () => {
    const { calls, undo } = recordCalls();
    try {
      await sql().transaction(async (tx) => {
        await tx.query(insert, [20, 'first']);
        tx.queryAtCommit(insert, [21, 'last']);
      });
    } finally {
      undo();
    }
    expect(calls.map((c) => c.text)).toEqual(['BEGIN', insert, insert, 'COMMIT']);
    // The first statement was sent while BEGIN was still unanswered: one round trip for both.
    expect(calls[1]!.unansweredBefore).toContain('BEGIN');
    // COMMIT was sent while the last write was still unanswered: one round trip for both.
    expect(calls[3]!.unansweredBefore).toContain(insert);
    expect(await ids()).toEqual([20, 21]);
  });

  test('no pooled connection is left inside a transaction after failures at COMMIT', async () => {
    await Promise.all(
      Array.from({ length: 12 }, () =>
        expect(
          sql().transaction(async (tx) => {
            await tx.query('SELECT 1');
            tx.queryAtCommit('SELECT 1 / 0', []);
          }),
        ).rejects.toMatchObject({ code: '22012' }),
      ),
    );
    const open = await sql().query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'",
    );
    expect(open[0]!.n).toBe(0);
  });
});
