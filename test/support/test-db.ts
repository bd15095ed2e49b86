import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import type { DatabaseConfig } from '../../src/config';

/**
 * Which database the integration and e2e suites run on: a real PostgreSQL (default) or the
 * embedded PGlite (`CREDGATE_TEST_DB=pglite`). Each test file gets a database of its own.
 */
export const TEST_DB_KIND: DatabaseConfig['kind'] = process.env.CREDGATE_TEST_DB === 'pglite' ? 'pglite' : 'postgres';

/** The server the per-file PostgreSQL databases are created on. */
export const ADMIN_DATABASE_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  readonly config: DatabaseConfig;
  /** A data folder of its own (PGlite lives in it; the master key file may too). */
  readonly dataDir: string;
  drop(): Promise<void>;
}

async function withAdmin<T>(fn: (c: Client) => Promise<T>): Promise<T> {
  const c = new Client({ connectionString: ADMIN_DATABASE_URL });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

export async function createTestDatabase(kind: DatabaseConfig['kind'] = TEST_DB_KIND): Promise<TestDatabase> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'credgate-test-'));
  if (kind === 'pglite') {
    return {
      config: { kind: 'pglite', dataDir: path.join(dataDir, 'pgdata') },
      dataDir,
      async drop() {
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const name = `credgate_t_${randomBytes(6).toString('hex')}`;
  await withAdmin((c) => c.query(`CREATE DATABASE ${name}`));
  const url = new URL(ADMIN_DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    config: { kind: 'postgres', url: url.toString() },
    dataDir,
    async drop() {
      await withAdmin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
