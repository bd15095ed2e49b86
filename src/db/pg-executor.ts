import type { Pool, PoolClient } from 'pg';
import type { SqlExecutor } from './sql-executor';

class PgClientExecutor implements SqlExecutor {
  constructor(private readonly client: PoolClient) {}

  async exec(sql: string): Promise<void> {
    await this.client.query(sql);
  }

  async query<T>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    const res = await this.client.query(sql, params as unknown[]);
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

  async query<T>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    const res = await this.pool.query(sql, params as unknown[]);
    return res.rows as T[];
  }

  async transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const out = await fn(new PgClientExecutor(client));
      await client.query('COMMIT');
      return out;
    } catch (e) {
      await client.query('ROLLBACK');
      throw e;
    } finally {
      client.release();
    }
  }
}
