import type { Pool, PoolClient } from 'pg';
import type { SqlExecutor } from './sql-executor';

class PgClientExecutor implements SqlExecutor {
  constructor(private readonly client: PoolClient) {}

  async exec(sql: string): Promise<void> {
    await this.client.query(sql);
  }

  async query<T>(sql: string, params: readonly unknown[] = [], name?: string): Promise<T[]> {
    const res = name ? await this.client.query({ name, text: sql, values: params as unknown[] }) : await this.client.query(sql, params as unknown[]);
    return res.rows as T[];
  }

  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return fn(this);
  }
}

/** SqlExecutor over a node-postgres pool (the same pool Prisma's adapter uses). */
export class PgExecutor implements SqlExecutor {
  constructor(private readonly pool: Pool) {}

  async exec(sql: string): Promise<void> {
    await this.pool.query(sql);
  }

  async query<T>(sql: string, params: readonly unknown[] = [], name?: string): Promise<T[]> {
    const res = name ? await this.pool.query({ name, text: sql, values: params as unknown[] }) : await this.pool.query(sql, params as unknown[]);
    return res.rows as T[];
  }

  async transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    // Set when the connection itself failed: the pool then discards the client instead of reusing it.
    let broken: Error | undefined;
    // A checked-out client has no pool listener: a connection lost between two statements would be
    // an unhandled 'error' event and end the process. The next statement reports it instead.
    const onError = (e: Error): void => {
      broken = e;
    };
    client.on('error', onError);
    try {
      await client.query('BEGIN');
      const out = await fn(new PgClientExecutor(client));
      await client.query('COMMIT');
      return out;
    } catch (e) {
      // On a lost connection the ROLLBACK fails too (the server rolls back on its own); the first
      // error says what happened, so it is the one thrown.
      await client.query('ROLLBACK').catch((rollbackError: unknown) => {
        broken = rollbackError instanceof Error ? rollbackError : new Error('ROLLBACK failed');
      });
      throw e;
    } finally {
      client.off('error', onError);
      client.release(broken);
    }
  }
}
