import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { Client } from 'pg';
import { type Database, openDatabase } from '../../src/db/database';
import { type Migration, migrate, readMigrations } from '../../src/db/migrator';
import { ADMIN_DATABASE_URL, TEST_DB_KIND, createTestDatabase, migratedTemplate, templateFingerprint } from '../support/test-db';

/**
 * Test databases are copies of one migrated template, named by the migrations it holds. A copy
 * must be exactly what migrating an empty database gives, a change to the migrations must name
 * another template, and workers starting together must not race building it.
 */
const kind = TEST_DB_KIND;

async function applied(db: Database): Promise<string[]> {
  const rows = await db.sql.query<{ migration_name: string; checksum: string }>('SELECT migration_name, checksum FROM "_prisma_migrations" ORDER BY migration_name');
  return rows.map((r) => `${r.migration_name} ${r.checksum}`);
}

async function withDatabase<T>(options: Parameters<typeof createTestDatabase>[1], fn: (db: Database) => Promise<T>): Promise<T> {
  const tdb = await createTestDatabase(kind, options);
  const db = await openDatabase(tdb.config);
  try {
    return await fn(db);
  } finally {
    await db.close();
    await tdb.drop();
  }
}

test('a test database comes migrated: every migration recorded with its checksum, none left to apply', async () => {
  const migrations = readMigrations();
  await withDatabase({}, async (db) => {
    expect(await applied(db)).toEqual(migrations.map((m) => `${m.name} ${m.checksum}`));
    expect(await migrate(db.sql, migrations)).toEqual([]);
  });
});

test('migrated: false gives an empty database, which the migrator migrates in full', async () => {
  const migrations = readMigrations();
  await withDatabase({ migrated: false }, async (db) => {
    const tables = await db.sql.query(`SELECT 1 FROM information_schema.tables WHERE table_schema = current_schema()`);
    expect(tables).toEqual([]);
    expect(await migrate(db.sql, migrations)).toEqual(migrations.map((m) => m.name));
  });
});

test('the template is named by the migrations: an edited, an added or a removed migration names another one', () => {
  const migrations = readMigrations();
  const base = templateFingerprint(kind, migrations);
  expect(templateFingerprint(kind, readMigrations())).toBe(base);
  const edited = migrations.map((m, i) => (i === migrations.length - 1 ? { ...m, checksum: 'f'.repeat(64) } : m));
  const added = [...migrations, { name: '99999999999999_probe', sql: 'SELECT 1', checksum: 'a'.repeat(64) }];
  const removed = migrations.slice(0, -1);
  const prints = [base, ...[edited, added, removed].map((set) => templateFingerprint(kind, set))];
  expect(new Set(prints).size).toBe(prints.length);
});

describe('a template for a new migration set', () => {
  // A migration set of its own (the real one plus a probe table), so this run builds it here.
  const probe = `template_probe_${randomBytes(4).toString('hex')}`;
  const migrations: Migration[] = [...readMigrations(), { name: '99999999999999_template_probe', sql: `CREATE TABLE ${probe} (id int)`, checksum: randomBytes(32).toString('hex') }];
  let template: string | undefined;

  afterAll(async () => {
    if (!template) return;
    if (kind === 'pglite') rmSync(template, { recursive: true, force: true });
    else {
      const c = new Client({ connectionString: ADMIN_DATABASE_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`).finally(() => c.end());
    }
  });

  test('workers asking at once all get the same complete template' + (kind === 'postgres' ? ', built exactly once' : ''), async () => {
    const results = await Promise.all([1, 2, 3].map(() => migratedTemplate(kind, migrations)));
    template = results[0]!.template;
    expect(results.map((r) => r.template)).toEqual([template, template, template]);
    // PostgreSQL: the advisory lock lets one worker build while the others wait. PGlite has no
    // server to lock on: concurrent builders may each build, and the renames keep one copy.
    if (kind === 'postgres') expect(results.filter((r) => r.built)).toHaveLength(1);
    else expect(results.filter((r) => r.built).length).toBeGreaterThanOrEqual(1);
    const again = await migratedTemplate(kind, migrations);
    expect(again).toEqual({ template, built: false });
    // On PGlite the three may each build the whole set in this one process (each an in-process
    // PostgreSQL): beside the CI's other worker that took 113 s once, past the default 60 s.
  }, 240_000);

  test('the template holds every migration of its set', async () => {
    expect(template).toBeDefined();
    const config =
      kind === 'pglite'
        ? { kind: 'pglite' as const, dataDir: template! }
        : { kind: 'postgres' as const, url: Object.assign(new URL(ADMIN_DATABASE_URL), { pathname: `/${template!}` }).toString() };
    const db = await openDatabase(config);
    try {
      expect(await applied(db)).toEqual(migrations.map((m) => `${m.name} ${m.checksum}`));
      expect(await db.sql.query(`SELECT 1 FROM information_schema.tables WHERE table_name = $1`, [probe])).toHaveLength(1);
    } finally {
      await db.close();
    }
  });
});
