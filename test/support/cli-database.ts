import { randomBytes } from 'node:crypto';
import { type TestServer, startTestServer } from './harness';
import { type TestDatabase, createTestDatabase } from './test-db';

export interface CliDatabase {
  /** The environment the compiled CLI reads to reach this database. */
  readonly env: Record<string, string>;
  /** An in-process server on the same database and master key, to check what the CLI did. */
  startServer(): Promise<TestServer>;
}

/**
 * A PostgreSQL scratch database for the CLI suites: created before the file's tests, dropped after
 * them. Call at the top level of a test file.
 */
export function cliDatabase(): CliDatabase {
  const masterKey = randomBytes(32);
  let db: TestDatabase | undefined;
  let env: Record<string, string> = {};
  beforeAll(async () => {
    db = await createTestDatabase('postgres');
    if (db.config.kind !== 'postgres') throw new Error('expected PostgreSQL');
    env = { DATABASE_URL: db.config.url, CREDGATE_MASTER_KEY: masterKey.toString('hex'), CREDGATE_DATA_DIR: db.dataDir };
  });
  afterAll(async () => {
    await db?.drop();
  });
  return {
    get env() {
      return env;
    },
    startServer: () => {
      if (!db) throw new Error('cliDatabase: the database is created in beforeAll');
      return startTestServer({ db, masterKey });
    },
  };
}
