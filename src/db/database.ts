import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import { Pool } from 'pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { type DatabaseConfig, type DbTimeouts } from '../config';
import { DB_TIMEOUT_DEFAULTS } from '../config/limits';
import { sessionSettings } from './session-settings';
import { PrismaClient } from '../generated/prisma/client';
import { lockDataFolder } from './folder-lock';
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
  mkdirSync(path.dirname(dataDir), { recursive: true });
  // One process per folder: taken before PGlite touches the files, released after it closed.
  const lock = lockDataFolder(dataDir);
  let pglite: PGlite;
  try {
    mkdirSync(dataDir, { recursive: true });
    pglite = await PGlite.create(dataDir);
  } catch (e) {
    lock.release();
    throw e;
  }
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
  return {
    kind: 'pglite',
    prisma,
    sql: new PgliteExecutor(pglite),
    close: once(async () => {
      try {
        await prisma.$disconnect();
        await pglite.close();
      } finally {
        lock.release();
      }
    }),
  };
}

export function openDatabase(config: DatabaseConfig, timeouts: DbTimeouts = DB_TIMEOUT_DEFAULTS): Promise<Database> {
  return config.kind === 'postgres' ? openPostgres(config.url, timeouts) : openPglite(config.dataDir);
}
