import { createHash, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import type { SqlExecutor } from './sql-executor';

export interface Migration {
  readonly name: string;
  readonly sql: string;
  /** SHA-256 hex of the script, the value `prisma migrate` records, so both tools agree. */
  readonly checksum: string;
}

/** The lock key `prisma migrate` uses, so this migrator and Prisma's never run at once. */
const PRISMA_ADVISORY_LOCK = 72707369;

// Prisma's own bookkeeping table, created exactly as `prisma migrate deploy` creates it.
const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

export const DEFAULT_MIGRATIONS_DIR = path.resolve(__dirname, '../../prisma/migrations');

export function readMigrations(dir: string = DEFAULT_MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(path.join(dir, d.name, 'migration.sql')))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(path.join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

export class MigrationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MigrationError';
  }
}

/**
 * Applies pending migrations in name order, each in its own transaction under Prisma's advisory
 * lock, recording them in `_prisma_migrations`. Idempotent; refuses to continue past a migration
 * that was edited after being applied or that a previous run left failed. `onApply` hears each
 * migration's name as it starts (a first start on PGlite takes seconds: users see progress).
 */
export async function migrate(db: SqlExecutor, migrations: readonly Migration[], onApply?: (name: string) => void): Promise<string[]> {
  const applied: string[] = [];
  for (;;) {
    const next = await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [PRISMA_ADVISORY_LOCK]);
      await tx.exec(CREATE_MIGRATIONS_TABLE);
      const rows = await tx.query<AppliedRow>(
        'SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations"',
      );
      const done = new Map<string, AppliedRow>();
      for (const r of rows) {
        if (r.rolled_back_at !== null) continue;
        if (r.finished_at === null) {
          throw new MigrationError(`migration ${r.migration_name} failed earlier; resolve it before migrating`);
        }
        done.set(r.migration_name, r);
      }
      for (const m of migrations) {
        const row = done.get(m.name);
        if (row && row.checksum !== m.checksum) {
          throw new MigrationError(`migration ${m.name} was modified after it was applied`);
        }
      }
      const pending = migrations.find((m) => !done.has(m.name));
      if (!pending) return undefined;
      onApply?.(pending.name);
      await tx.exec(pending.sql);
      await tx.query(
        `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, started_at, applied_steps_count)
         VALUES ($1, $2, now(), $3, now(), 1)`,
        [randomUUID(), pending.checksum, pending.name],
      );
      return pending.name;
    });
    if (next === undefined) return applied;
    applied.push(next);
  }
}
