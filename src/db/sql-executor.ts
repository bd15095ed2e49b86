/**
 * The raw SQL surface the migrator and a few administrative checks need. Prisma cannot run
 * multi-statement migration scripts through a driver adapter, so the migrator talks to the
 * driver underneath through this port.
 */
export interface SqlExecutor {
  /** Runs a script of one or more statements (simple query protocol). */
  exec(sql: string): Promise<void>;
  /**
   * Runs one parameterised statement and returns its rows. `name`: a prepared statement name
   * (node-postgres parses and plans it once per connection, then only binds and executes).
   */
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[], name?: string): Promise<T[]>;
  /**
   * Runs `fn` inside one transaction on one connection. On PostgreSQL the connection pipelines:
   * BEGIN travels with `fn`'s first statement, and COMMIT with what `fn` left in flight
   * (`queryAtCommit`), so a transaction costs two round trips fewer than its statements.
   */
  transaction<T>(fn: (tx: TxExecutor) => Promise<T>): Promise<T>;
}

/** The executor of one open transaction. */
export interface TxExecutor extends SqlExecutor {
  /**
   * Sends a statement now without waiting for its answer: the transaction waits for it at COMMIT,
   * which is sent right behind it (one round trip for both). For a last write whose rows the caller
   * does not need. If it fails, nothing of the transaction commits and `transaction` throws its
   * error, as if it had been awaited.
   */
  queryAtCommit(sql: string, params: readonly unknown[], name?: string): void;
}
