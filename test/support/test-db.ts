import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync, utimesSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Client, Pool } from 'pg';
import type { DatabaseConfig } from '../../src/config';
import { type Database, openDatabase } from '../../src/db/database';
import { type Migration, migrate, readMigrations } from '../../src/db/migrator';
import { PgExecutor } from '../../src/db/pg-executor';
import { PgliteExecutor } from '../../src/db/pglite-executor';

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

export interface TestDatabaseOptions {
  /**
   * false: an empty database, for tests of the migrator itself. By default the database is a
   * copy of one migrated template (every migration in prisma/migrations applied, nothing else):
   * what a service's first start would leave, without paying for it in every test file.
   */
  readonly migrated?: boolean;
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

function urlOf(database: string): string {
  const url = new URL(ADMIN_DATABASE_URL);
  url.pathname = `/${database}`;
  return url.toString();
}

/**
 * Names a template by what it holds: the migrations the migrator would apply (names and
 * checksums, so editing, adding or renaming one names a new template) and, for PGlite, the
 * engine version that wrote the files. A stale template is never reused: it is simply not found.
 */
export function templateFingerprint(kind: DatabaseConfig['kind'], migrations: readonly Migration[] = readMigrations()): string {
  const hash = createHash('sha256').update(`credgate-test-template/1/${kind}\n`);
  for (const m of migrations) hash.update(`${m.name} ${m.checksum}\n`);
  if (kind === 'pglite') {
    // The package exports no package.json: read it beside its entry point (dist/index.cjs).
    const pkgFile = path.resolve(path.dirname(require.resolve('@electric-sql/pglite')), '..', 'package.json');
    const pkg = JSON.parse(readFileSync(pkgFile, 'utf8')) as { version: string };
    hash.update(`pglite ${pkg.version}\n`);
  }
  return hash.digest('hex').slice(0, 16);
}

const TEMPLATE_PREFIX = 'credgate_tpl_';
/** LIKE patterns (underscore escaped): every template, and the ones a builder left unfinished. */
const TEMPLATE_LIKE = 'credgate\\_tpl\\_%';
const BUILDING_LIKE = `${TEMPLATE_LIKE}\\_building\\_%`;
/** Session-level advisory lock held while a template is checked or built: workers start together. */
const TEMPLATE_LOCK = 0x63677470; // "cgtp"
/** Templates of other migration sets unused this long are dropped: another checkout may still use one. */
const STALE_TEMPLATE_MS = 60 * 60 * 1000;

/** A migrated template: a database name (PostgreSQL) or a data folder (PGlite), and whether this call built it. */
export interface MigratedTemplate {
  readonly template: string;
  readonly built: boolean;
}

/** The template every migrated test database is copied from (built when missing). */
export function migratedTemplate(kind: DatabaseConfig['kind'], migrations: readonly Migration[] = readMigrations()): Promise<MigratedTemplate> {
  return kind === 'pglite' ? pgliteTemplate(migrations) : postgresTemplate(migrations);
}

/**
 * The migrated PostgreSQL template for the current migrations, built at most once per migration
 * set (it outlives the run, so the next run reuses it). Built under a different name and renamed
 * when complete, so a worker that dies half-way never leaves a half-migrated template under the
 * real name; the advisory lock makes concurrent workers wait for one builder instead of racing.
 */
async function postgresTemplate(migrations: readonly Migration[]): Promise<MigratedTemplate> {
  const name = `${TEMPLATE_PREFIX}${templateFingerprint('postgres', migrations)}`;
  // When it was last used, so a clean-up by another checkout (dropStaleTemplates) leaves it.
  const stamp = (): string => `COMMENT ON DATABASE ${name} IS 'credgate test template, used ${new Date().toISOString()}'`;
  return withAdmin(async (c) => {
    await c.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK]);
    try {
      const found = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (found.rowCount) {
        await c.query(stamp());
        return { template: name, built: false };
      }
      // Left by a builder that died: nobody builds without the lock, which we hold.
      const orphans = await c.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [BUILDING_LIKE]);
      for (const o of orphans.rows) await c.query(`DROP DATABASE IF EXISTS ${o.datname} WITH (FORCE)`);
      const building = `${name}_building_${randomBytes(4).toString('hex')}`;
      await c.query(`CREATE DATABASE ${building}`);
      try {
        const pool = new Pool({ connectionString: urlOf(building), max: 1 });
        try {
          await migrate(new PgExecutor(pool), migrations);
        } finally {
          await pool.end();
        }
        await c.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
        await c.query(stamp());
      } catch (e) {
        await c.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
        throw e;
      }
      await dropStaleTemplates(c, name);
      return { template: name, built: true };
    } finally {
      await c.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK]);
    }
  });
}

/** Templates of other migration sets, once no run can still be copying them (see STALE_TEMPLATE_MS). */
async function dropStaleTemplates(c: Client, current: string): Promise<void> {
  const rows = await c.query<{ datname: string; note: string | null }>(
    `SELECT d.datname, shobj_description(d.oid, 'pg_database') AS note FROM pg_database d WHERE d.datname LIKE $1 AND d.datname <> $2`,
    [TEMPLATE_LIKE, current],
  );
  for (const r of rows.rows) {
    const used = /used (\S+)$/.exec(r.note ?? '')?.[1];
    if (used !== undefined && Date.now() - Date.parse(used) < STALE_TEMPLATE_MS) continue;
    // Without FORCE: a template being copied right now is left for a later run.
    await c.query(`DROP DATABASE IF EXISTS ${r.datname}`).catch(() => undefined);
  }
}

/** Where the PGlite template folders live (outside the repository, shared by every checkout's runs). */
const PGLITE_TEMPLATES = path.join(os.tmpdir(), 'credgate-test-templates');

/**
 * The migrated PGlite data folder for the current migrations. Built in a folder of its own and
 * renamed into place once PGlite closed it; two workers that build at once both succeed, the
 * second rename loses and its copy is removed (a rename never exposes a half-written folder).
 */
async function pgliteTemplate(migrations: readonly Migration[]): Promise<MigratedTemplate> {
  const final = path.join(PGLITE_TEMPLATES, `pglite-${templateFingerprint('pglite', migrations)}`);
  if (existsSync(final)) {
    // Marks it in use, so another checkout's clean-up (dropStalePgliteTemplates) leaves it.
    const now = new Date();
    utimesSync(final, now, now);
    return { template: final, built: false };
  }
  mkdirSync(PGLITE_TEMPLATES, { recursive: true });
  const work = mkdtempSync(`${final}.build-`);
  try {
    const pgdata = path.join(work, 'pgdata');
    mkdirSync(pgdata);
    const lite = await PGlite.create(pgdata);
    try {
      await migrate(new PgliteExecutor(lite), migrations);
    } finally {
      await lite.close();
    }
    try {
      renameSync(pgdata, final);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (!(code === 'ENOTEMPTY' || code === 'EEXIST') || !existsSync(final)) throw e;
      return { template: final, built: false };
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  dropStalePgliteTemplates(final);
  return { template: final, built: true };
}

/** Folders of earlier migration sets (or PGlite versions), and builds that died, once surely unused. */
function dropStalePgliteTemplates(current: string): void {
  for (const name of readdirSync(PGLITE_TEMPLATES)) {
    const folder = path.join(PGLITE_TEMPLATES, name);
    if (folder === current) continue;
    const age = Date.now() - (statSync(folder, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
    if (age > STALE_TEMPLATE_MS) rmSync(folder, { recursive: true, force: true });
  }
}

export async function createTestDatabase(kind: DatabaseConfig['kind'] = TEST_DB_KIND, options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const migrated = options.migrated ?? true;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'credgate-test-'));
  if (kind === 'pglite') {
    const pgdata = path.join(dataDir, 'pgdata');
    if (migrated) cpSync((await migratedTemplate('pglite')).template, pgdata, { recursive: true });
    return {
      config: { kind: 'pglite', dataDir: pgdata },
      dataDir,
      async drop() {
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const name = `credgate_t_${randomBytes(6).toString('hex')}`;
  const template = migrated ? (await migratedTemplate('postgres')).template : undefined;
  await withAdmin((c) => c.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`));
  return {
    config: { kind: 'postgres', url: urlOf(name) },
    dataDir,
    async drop() {
      await withAdmin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A migrated database of the suite's kind, opened before the suite's tests and closed and dropped
 * after them (call at describe or file level). `db` is set once `beforeAll` ran.
 */
export function useMigratedDatabase(): { readonly db: Database } {
  const handle: { db: Database; tdb?: TestDatabase } = { db: undefined as unknown as Database };
  beforeAll(async () => {
    handle.tdb = await createTestDatabase();
    handle.db = await openDatabase(handle.tdb.config);
  });
  afterAll(async () => {
    await handle.db?.close();
    await handle.tdb?.drop();
  });
  return handle;
}
