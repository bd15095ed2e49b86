import type { SqlExecutor, TxExecutor } from '../sql-executor';

/** A PostgreSQL column type as the hand-written statements bind and read it. */
export type ColumnType = 'text' | 'uuid' | 'bytea' | 'int4' | 'int8' | 'bool' | 'jsonb' | 'timestamptz';

/**
 * One hand-written statement of a hot path: its text, a stable prepared-statement name, and the
 * (table, column, type) it touches. `uses` is what test/integration/sql-statements.test.ts checks
 * against prisma/schema.prisma (Prisma stays the source of truth for the schema), and every
 * statement is PREPAREd there against a migrated database, so the two cannot drift apart.
 *
 * `P` is the parameter tuple, `R` the row. Conventions that keep node-postgres and PGlite alike:
 * bytea travels as hex text (decode/encode in SQL), bigint as text, timestamps as ISO text, and
 * arrays as arrays of those, unnested in SQL (one statement for any number of rows).
 */
export interface Statement<P extends readonly unknown[], R> {
  readonly name: string;
  readonly text: string;
  readonly uses: Readonly<Record<string, Readonly<Record<string, ColumnType>>>>;
  /** Phantom: the parameter and row types (never set). */
  readonly __types?: { params: P; row: R };
}

export function statement<P extends readonly unknown[], R>(name: string, uses: Statement<P, R>['uses'], text: string): Statement<P, R> {
  return { name, uses, text: text.replace(/\s+/g, ' ').trim() };
}

/** Runs a statement as a named (prepared) query on the executor's connection. */
export function run<P extends readonly unknown[], R>(db: SqlExecutor, s: Statement<P, R>, params: P): Promise<R[]> {
  return db.query<R>(s.text, params, s.name);
}

/**
 * Sends a statement as a transaction's last write without waiting for its answer: it travels with
 * the COMMIT, and its failure fails the transaction (`TxExecutor.queryAtCommit`).
 */
export function runAtCommit<P extends readonly unknown[], R>(tx: TxExecutor, s: Statement<P, R>, params: P): void {
  tx.queryAtCommit(s.text, params, s.name);
}

/** Lower-case hex of bytes, the wire form of bytea parameters in these statements. */
export const hex = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
