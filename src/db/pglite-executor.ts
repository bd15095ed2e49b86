import type { PGlite, Transaction } from '@electric-sql/pglite';
import type { SqlExecutor } from './sql-executor';

type PgliteLike = Pick<PGlite, 'exec' | 'query'> | Transaction;

class PgliteTxExecutor implements SqlExecutor {
  constructor(private readonly db: PgliteLike) {}

  async exec(sql: string): Promise<void> {
    await this.db.exec(sql);
  }

  async query<T>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    const res = await this.db.query<T>(sql, params as unknown[]);
    return res.rows;
  }

  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return fn(this);
  }
}

/** SqlExecutor over an embedded PGlite database (single connection, in-process). */
export class PgliteExecutor extends PgliteTxExecutor {
  constructor(private readonly pglite: PGlite) {
    super(pglite);
  }

  override transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return this.pglite.transaction((tx) => fn(new PgliteTxExecutor(tx)));
  }
}
