import type { PGlite, Transaction } from '@electric-sql/pglite';
import { InFlight } from './in-flight';
import type { SqlExecutor, TxExecutor } from './sql-executor';

type PgliteLike = Pick<PGlite, 'exec' | 'query'> | Transaction;

class PgliteTxExecutor implements TxExecutor {
  /** Statements sent by `queryAtCommit`, answered before the transaction commits. */
  private readonly inFlight = new InFlight();

  constructor(private readonly db: PgliteLike) {}

  async exec(sql: string): Promise<void> {
    await this.db.exec(sql);
  }

  async query<T>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    const res = await this.db.query<T>(sql, params as unknown[]);
    return res.rows;
  }

  queryAtCommit(sql: string, params: readonly unknown[]): void {
    this.inFlight.add(this.query(sql, params));
  }

  /** Waits for every statement sent by `queryAtCommit`; throws the first failure. */
  settled(): Promise<void> {
    return this.inFlight.settled();
  }

  transaction<T>(fn: (tx: TxExecutor) => Promise<T>): Promise<T> {
    return fn(this);
  }
}

/** SqlExecutor over an embedded PGlite database (single connection, in-process). */
export class PgliteExecutor extends PgliteTxExecutor {
  constructor(private readonly pglite: PGlite) {
    super(pglite);
  }

  override transaction<T>(fn: (tx: TxExecutor) => Promise<T>): Promise<T> {
    return this.pglite.transaction(async (tx) => {
      const inner = new PgliteTxExecutor(tx);
      let out: T;
      try {
        out = await fn(inner);
      } catch (e) {
        // As on PostgreSQL: a failed statement left in flight came first, so its error is thrown.
        throw await inner.settled().then(
          () => e,
          (failed: unknown) => failed,
        );
      }
      // In process there is no round trip to save: the statements left in flight are only
      // awaited here, so a failure rolls the transaction back as on PostgreSQL.
      await inner.settled();
      return out;
    });
  }
}
