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
  /** Runs `fn` inside one transaction on one connection. */
  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T>;
}
