import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import { Pool } from 'pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { type DatabaseConfig, type DbTimeouts } from '../config';
import { DB_TIMEOUT_DEFAULTS } from '../config/limits';
import { sessionSettings } from './session-settings';
import { PrismaClient } from '../generated/prisma/client';
import { PgExecutor } from './pg-executor';
import { PgliteExecutor } from './pglite-executor';
import type { SqlExecutor } from './sql-executor';

export type { PrismaClient };
export type { Prisma } from '../generated/prisma/client';

/** Makes close() safe to call twice (shutdown paths and tests may both close). */
function once(fn: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () => (done ??= fn());
}

/** An open database: Prisma for the repositories, raw SQL for the migrator and health checks. */
export interface Database {
  readonly kind: DatabaseConfig['kind'];
  readonly prisma: PrismaClient;
  readonly sql: SqlExecutor;
  close(): Promise<void>;
}

async function openPostgres(url: string, timeouts: DbTimeouts): Promise<Database> {
  const pool = new Pool({ connectionString: url, ...sessionSettings(timeouts) });
  // An idle client error (server restart) must not crash the process; queries will report it.
  pool.on('error', () => undefined);
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  return {
    kind: 'postgres',
    prisma,
    sql: new PgExecutor(pool),
    close: once(async () => {
      await prisma.$disconnect();
      await pool.end();
    }),
  };
}

async function openPglite(dataDir: string): Promise<Database> {
  mkdirSync(dataDir, { recursive: true });
  const pglite = await PGlite.create(dataDir);
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
  return {
    kind: 'pglite',
    prisma,
    sql: new PgliteExecutor(pglite),
    close: once(async () => {
      await prisma.$disconnect();
      await pglite.close();
    }),
  };
}

export function openDatabase(config: DatabaseConfig, timeouts: DbTimeouts = DB_TIMEOUT_DEFAULTS): Promise<Database> {
  return config.kind === 'postgres' ? openPostgres(config.url, timeouts) : openPglite(config.dataDir);
}
