import { randomBytes } from 'node:crypto';
import type { DatabaseConfig } from '../../src/config';
import { type StartOptions, type TestServer, startTestServer } from './harness';
import { type TestDatabase, createTestDatabase } from './test-db';

export interface CliDatabase {
  /** The environment the compiled CLI reads to reach this database. */
  readonly env: Record<string, string>;
  /** An in-process server on the same database and master key, to check what the CLI did. */
  startServer(options?: Pick<StartOptions, 'env' | 'port'>): Promise<TestServer>;
}

/**
 * A scratch database for the CLI suites (PostgreSQL unless `kind` says otherwise): created before
 * the file's tests, dropped after them. Call at the top level of a test file. With PGlite the CLI
 * and a server cannot have the database open at once: close the server before running the CLI.
 */
export function cliDatabase(kind: DatabaseConfig['kind'] = 'postgres'): CliDatabase {
  const masterKey = randomBytes(32);
  let db: TestDatabase | undefined;
  let env: Record<string, string> = {};
  beforeAll(async () => {
    db = await createTestDatabase(kind);
    // PGlite: the CLI finds the database in the data folder (CREDGATE_DATA_DIR/pgdata), as the test database keeps it.
    env = { ...(db.config.kind === 'postgres' ? { DATABASE_URL: db.config.url } : {}), CREDGATE_MASTER_KEY: masterKey.toString('hex'), CREDGATE_DATA_DIR: db.dataDir };
  });
  afterAll(async () => {
    await db?.drop();
  });
  return {
    get env() {
      return env;
    },
    startServer: (options = {}) => {
      if (!db) throw new Error('cliDatabase: the database is created in beforeAll');
      return startTestServer({ ...options, db, masterKey });
    },
  };
}
