import type { Pool, PoolClient, QueryResult } from 'pg';
import { InFlight } from './in-flight';
import type { SqlExecutor, TxExecutor } from './sql-executor';

class PgClientExecutor implements TxExecutor {
  /** Statements sent by `queryAtCommit`, answered before (or with) the COMMIT. */
  private readonly inFlight = new InFlight();

  constructor(private readonly client: PoolClient) {}

  async exec(sql: string): Promise<void> {
    await this.client.query(sql);
  }

  async query<T>(sql: string, params: readonly unknown[] = [], name?: string): Promise<T[]> {
    return (await this.send(sql, params, name)).rows as T[];
  }

  queryAtCommit(sql: string, params: readonly unknown[], name?: string): void {
    this.inFlight.add(this.send(sql, params, name));
  }

  /** Waits for every statement sent by `queryAtCommit`; throws the first failure. */
  settled(): Promise<void> {
    return this.inFlight.settled();
  }

  transaction<T>(fn: (tx: TxExecutor) => Promise<T>): Promise<T> {
    return fn(this);
  }

  private send(sql: string, params: readonly unknown[], name?: string): Promise<QueryResult> {
    return name ? this.client.query({ name, text: sql, values: params as unknown[] }) : this.client.query(sql, params as unknown[]);
  }
}

/**
 * SqlExecutor over a node-postgres pool (the same pool Prisma's adapter uses). Its clients run in
 * node-postgres' pipeline mode (src/db/session-settings.ts): a statement is written as soon as it
 * is issued instead of after the previous answer, so BEGIN needs no round trip of its own, and a
 * transaction's last write and its COMMIT share one (`queryAtCommit`). Under load every round trip
 * also waits its turn on the busy event loop, several ms for a Family B tick (issue 19).
 */
export class PgExecutor implements SqlExecutor {
  constructor(private readonly pool: Pool) {}

  async exec(sql: string): Promise<void> {
    await this.pool.query(sql);
  }

  async query<T>(sql: string, params: readonly unknown[] = [], name?: string): Promise<T[]> {
    const res = name ? await this.pool.query({ name, text: sql, values: params as unknown[] }) : await this.pool.query(sql, params as unknown[]);
    return res.rows as T[];
  }

  async transaction<T>(fn: (tx: TxExecutor) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    // Set when the connection itself failed: the pool then discards the client instead of reusing it.
    let broken: Error | undefined;
    // A checked-out client has no pool listener: a connection lost between two statements would be
    // an unhandled 'error' event and end the process. The next statement reports it instead.
    const onError = (e: Error): void => {
      broken = e;
    };
    client.on('error', onError);
    const tx = new PgClientExecutor(client);
    // Not awaited: it goes out with fn's first statement. A BEGIN that fails (a lost connection)
    // fails that statement too, so fn never runs on without its transaction unnoticed.
    const begun = client.query('BEGIN');
    begun.catch(() => undefined);
    let commit: Promise<QueryResult> | undefined;
    try {
      const out = await fn(tx);
      commit = client.query('COMMIT');
      commit.catch(() => undefined);
      await begun;
      // A failed statement aborts the transaction: PostgreSQL then answers COMMIT with ROLLBACK
      // (not an error), so the statement's own failure is what is thrown.
      await tx.settled();
      const ended = await commit;
      if (ended.command !== 'COMMIT') throw new Error(`the transaction ended in ${ended.command ?? 'nothing'} instead of COMMIT`);
      return out;
    } catch (e) {
      // A statement left in flight that failed came first: what fn met after it was only the
      // aborted transaction (25P02), so its error is the one that says what happened.
      const first = await tx.settled().then(
        () => e,
        (failed: unknown) => failed,
      );
      // A COMMIT that was answered ended the transaction (PostgreSQL answers it with ROLLBACK in a
      // failed one): nothing is left to roll back.
      const ended = commit ? await commit.then(() => true, () => false) : false;
      // On a lost connection the ROLLBACK fails too (the server rolls back on its own); the first
      // error says what happened, so it is the one thrown.
      if (!ended) {
        await client.query('ROLLBACK').catch((rollbackError: unknown) => {
          broken = rollbackError instanceof Error ? rollbackError : new Error('ROLLBACK failed');
        });
      }
      throw first;
    } finally {
      client.off('error', onError);
      client.release(broken);
    }
  }
}
