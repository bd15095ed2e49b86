import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { type Database, openDatabase } from '../../src/db/database';
import { Prisma } from '../../src/generated/prisma/client';
import { DEFAULT_MIGRATIONS_DIR, migrate, readMigrations } from '../../src/db/migrator';
import { expectedUdt, foreignKeyTarget, parentsFirst, parsePrismaSchema, type PrismaField, type PrismaModel } from '../support/prisma-schema';
import { type TestDatabase, createTestDatabase } from '../support/test-db';

let tdb: TestDatabase;
let db: Database;

beforeAll(async () => {
  // Empty: these tests apply the migrations themselves (other suites start from the migrated template).
  tdb = await createTestDatabase(undefined, { migrated: false });
  db = await openDatabase(tdb.config);
});

afterAll(async () => {
  await db?.close();
  await tdb?.drop();
});

describe('migrator', () => {
  test('applies every migration once, recorded as prisma migrate records them', async () => {
    const migrations = readMigrations();
    expect(migrations.length).toBeGreaterThan(0);
    // Two concurrent runs (two replicas starting together) apply each migration exactly once.
    const [a, b] = await Promise.all([migrate(db.sql, migrations), migrate(db.sql, migrations)]);
    expect([...a, ...b].sort()).toEqual(migrations.map((m) => m.name));
    expect(await migrate(db.sql, migrations)).toEqual([]);

    const rows = await db.sql.query<{ migration_name: string; checksum: string; finished_at: Date | null; applied_steps_count: number; rolled_back_at: Date | null }>(
      'SELECT migration_name, checksum, finished_at, applied_steps_count, rolled_back_at FROM "_prisma_migrations" ORDER BY migration_name',
    );
    expect(rows.map((r) => r.migration_name)).toEqual(migrations.map((m) => m.name));
    for (const r of rows) {
      const sql = readFileSync(path.join(DEFAULT_MIGRATIONS_DIR, r.migration_name, 'migration.sql'));
      expect(r.checksum).toBe(createHash('sha256').update(sql).digest('hex'));
      expect(r.finished_at).not.toBeNull();
      expect(r.rolled_back_at).toBeNull();
      expect(r.applied_steps_count).toBe(1);
    }
  });

  test('refuses a migration edited after it was applied, and changes nothing', async () => {
    const migrations = readMigrations();
    const edited = migrations.map((m, i) => (i === 0 ? { ...m, checksum: 'f'.repeat(64) } : m));
    await expect(migrate(db.sql, edited)).rejects.toThrow(/modified after it was applied/);
  });

  test('a failing migration rolls back whole and is not recorded', async () => {
    const bad = { name: '99999999999999_broken', sql: 'CREATE TABLE broken_probe (id int); SELECT no_such_function();', checksum: 'a'.repeat(64) };
    await expect(migrate(db.sql, [...readMigrations(), bad])).rejects.toThrow();
    const probe = await db.sql.query(`SELECT 1 FROM information_schema.tables WHERE table_name = 'broken_probe'`);
    expect(probe).toEqual([]);
    const recorded = await db.sql.query(`SELECT 1 FROM "_prisma_migrations" WHERE migration_name = $1`, [bad.name]);
    expect(recorded).toEqual([]);
  });

  test('migration files follow Prisma layout, with the lock file', () => {
    const lock = readFileSync(path.join(DEFAULT_MIGRATIONS_DIR, 'migration_lock.toml'), 'utf8');
    expect(lock).toMatch(/provider = "postgresql"/);
    for (const m of readMigrations()) expect(m.name).toMatch(/^\d{14}_[a-z0-9_]+$/);
  });
});

describe('the migrated database matches prisma/schema.prisma', () => {
  const models = parsePrismaSchema();

  test('the schema parser sees every model the generated client knows', () => {
    expect(models.map((m) => m.name).sort()).toEqual(Object.keys(Prisma.ModelName).sort());
  });

  test.each(parsePrismaSchema().map((m) => [m.name, m] as const))('%s: columns, types, nullability, defaults', async (_name, model) => {
    const cols = await db.sql.query<{ column_name: string; udt_name: string; is_nullable: string; column_default: string | null }>(
      `SELECT column_name, udt_name, is_nullable, column_default FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1`,
      [model.table],
    );
    const scalars = model.fields.filter((f) => !f.isRelation);
    expect(cols.map((c) => c.column_name).sort()).toEqual(scalars.map((f) => f.column).sort());
    for (const f of scalars) {
      const c = cols.find((x) => x.column_name === f.column)!;
      expect({ column: f.column, udt: c.udt_name }).toEqual({ column: f.column, udt: expectedUdt(f) });
      // Prisma lists are nullable columns; everything else follows `?`.
      expect({ column: f.column, nullable: c.is_nullable === 'YES' }).toEqual({ column: f.column, nullable: f.optional || f.list });
      expect({ column: f.column, hasDefault: c.column_default !== null }).toEqual({ column: f.column, hasDefault: f.hasDefault });
    }
  });

  test.each(parsePrismaSchema().map((m) => [m.name, m] as const))('%s: primary key, unique constraints and indexes', async (_name, model) => {
    const idx = await db.sql.query<{ indexdef: string }>(`SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename = $1`, [model.table]);
    const colsOf = (def: string): string[] => /\(([^)]+)\)\s*$/.exec(def)![1]!.split(',').map((s) => s.trim().replace(/"/g, ''));
    const unique = idx.filter((i) => /CREATE UNIQUE INDEX/.test(i.indexdef)).map((i) => colsOf(i.indexdef).join(','));
    const plain = idx.filter((i) => !/CREATE UNIQUE INDEX/.test(i.indexdef)).map((i) => colsOf(i.indexdef).join(','));
    const pk = model.primaryKey.map((n) => model.fields.find((f) => f.name === n)!.column).join(',');
    expect(unique.sort()).toEqual([pk, ...model.uniques.map((u) => u.join(','))].sort());
    expect(plain.sort()).toEqual(model.indexes.map((u) => u.join(',')).sort());
  });

  test('every model and every field is usable through the generated client', async () => {
    const created = new Map<string, Record<string, unknown>>();
    // Columns a CHECK constraint of the migrations narrows (Prisma's schema cannot express one):
    // the sample must be an allowed value.
    const CHECKED: Record<string, unknown> = { 'VcTemplate.proofSuite': 'bbs-2023' };
    const valueFor = (model: PrismaModel, f: PrismaField): unknown => {
      const target = foreignKeyTarget(model, f.name);
      if (target) return created.get(target.model)![target.field];
      if (`${model.name}.${f.name}` in CHECKED) return CHECKED[`${model.name}.${f.name}`];
      if (f.list) return ['a', 'b'];
      switch (f.type) {
        case 'String':
          return f.nativeType === 'Uuid' ? randomUUID() : f.nativeType?.startsWith('Char') ? 'c'.repeat(64) : `${model.name}-${f.name}-${randomBytes(4).toString('hex')}`;
        case 'Int':
          return 7;
        case 'BigInt':
          return 9_007_199_254_740_993n;
        case 'DateTime':
          return new Date('2026-01-02T03:04:05.678Z');
        case 'Bytes':
          return new Uint8Array([0, 1, 2, 255]);
        case 'Boolean':
          return true;
        case 'Json':
          return { nested: ['json', 1, null, true] };
        default:
          throw new Error(`no sample for ${f.type}`);
      }
    };
    for (const model of parentsFirst(models)) {
      const name = model.name;
      const data = Object.fromEntries(model.fields.filter((f) => !f.isRelation).map((f) => [f.name, valueFor(model, f)]));
      const delegate = (db.prisma as unknown as Record<string, { create(a: unknown): Promise<Record<string, unknown>>; findFirstOrThrow(a: unknown): Promise<Record<string, unknown>> }>)[name[0]!.toLowerCase() + name.slice(1)]!;
      const row = await delegate.create({ data });
      created.set(name, row);
      const back = await delegate.findFirstOrThrow({ where: Object.fromEntries(model.primaryKey.map((k) => [k, row[k]])) });
      for (const [k, v] of Object.entries(data)) {
        expect({ field: `${name}.${k}`, value: back[k] instanceof Uint8Array ? [...(back[k] as Uint8Array)] : back[k] }).toEqual({
          field: `${name}.${k}`,
          value: v instanceof Uint8Array ? [...v] : v,
        });
      }
    }
    expect(created.size).toBe(models.length);
  });
});
