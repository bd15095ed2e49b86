import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ALL_STATEMENTS, type ColumnType } from '../../src/db/sql';
import { useMigratedDatabase } from '../support/test-db';

/**
 * The hand-written statements of the hot paths (src/db/sql) cannot drift from the schema Prisma
 * owns: every (table, column, type) a statement declares must be in prisma/schema.prisma with
 * that type, and every statement must PREPARE against a database migrated from
 * prisma/migrations (PostgreSQL, or PGlite with CREDGATE_TEST_DB=pglite), which fails on any
 * table, column or type a statement names wrongly, declared or not.
 */

interface SchemaColumn {
  readonly model: string;
  readonly type: ColumnType | 'other';
}

/** Prisma scalar (and native @db attribute) -> the PostgreSQL type Prisma migrates it to. */
function columnType(prismaType: string, attributes: string): ColumnType | 'other' {
  if (/@db\.Uuid\b/.test(attributes)) return 'uuid';
  switch (prismaType) {
    case 'String':
      return 'text';
    case 'Int':
      return 'int4';
    case 'BigInt':
      return 'int8';
    case 'Bytes':
      return 'bytea';
    case 'Json':
      return 'jsonb';
    case 'DateTime':
      return 'timestamptz';
    case 'Boolean':
      return 'bool';
    default:
      return 'other';
  }
}

/** table -> column -> declared type, read from schema.prisma (models, @map, @@map, @db.*). */
function parsePrismaSchema(text: string): Map<string, Map<string, SchemaColumn>> {
  const tables = new Map<string, Map<string, SchemaColumn>>();
  for (const block of text.matchAll(/^model\s+(\w+)\s*\{([\s\S]*?)^\}/gm)) {
    const model = block[1]!;
    const body = block[2]!;
    const table = /@@map\("([^"]+)"\)/.exec(body)?.[1] ?? model;
    const columns = new Map<string, SchemaColumn>();
    for (const line of body.split('\n')) {
      const field = /^\s*(\w+)\s+(\w+)(\[\])?(\?)?\s*(.*)$/.exec(line.replace(/\/\/.*$/, ''));
      if (!field || field[1]!.startsWith('@@')) continue;
      const [, name, type, list, , attributes = ''] = field;
      // Relation fields (a model type, or a list) are not columns.
      if (list || /^[A-Z]/.test(type!) && !['String', 'Int', 'BigInt', 'Bytes', 'Json', 'DateTime', 'Boolean', 'Float', 'Decimal'].includes(type!)) continue;
      const column = /@map\("([^"]+)"\)/.exec(attributes)?.[1] ?? name!;
      columns.set(column, { model, type: columnType(type!, attributes) });
    }
    tables.set(table, columns);
  }
  return tables;
}

const schema = parsePrismaSchema(readFileSync(path.join(__dirname, '../../prisma/schema.prisma'), 'utf8'));

test('the schema parser reads what it must (a guard against a parser that finds nothing)', () => {
  expect(schema.get('credentials')?.get('credential_hash')).toEqual({ model: 'Credential', type: 'bytea' });
  expect(schema.get('ledger_logs')?.get('seq')).toEqual({ model: 'LedgerLog', type: 'int8' });
  expect(schema.get('status_lists')?.get('issuer_did_id')?.type).toBe('uuid');
  expect(schema.get('credentials')?.has('tenant')).toBe(false); // a relation, not a column
  expect(ALL_STATEMENTS.length).toBeGreaterThanOrEqual(5);
});

test('prepared statement names are unique (node-postgres refuses one name for two texts on a connection)', () => {
  const names = ALL_STATEMENTS.map((s) => s.name);
  expect(new Set(names).size).toBe(names.length);
});

describe.each(ALL_STATEMENTS.map((s) => [s.name, s] as const))('statement %s', (_name, s) => {
  test('declares only tables, columns and types that schema.prisma has', () => {
    const wrong: string[] = [];
    for (const [table, columns] of Object.entries(s.uses)) {
      const found = schema.get(table);
      if (!found) {
        wrong.push(`table ${table} is not in schema.prisma`);
        continue;
      }
      for (const [column, type] of Object.entries(columns)) {
        const col = found.get(column);
        if (!col) wrong.push(`${table}.${column} is not in schema.prisma`);
        else if (col.type !== type) wrong.push(`${table}.${column} is ${col.type} in schema.prisma, declared ${type}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  test('every table and column it declares appears in its text, and every table it writes or reads is declared', () => {
    for (const [table, columns] of Object.entries(s.uses)) {
      expect(s.text).toContain(table);
      for (const column of Object.keys(columns)) expect(s.text).toMatch(new RegExp(`\\b${column}\\b`));
    }
    // Names a WITH clause defines (`locked AS (...)`) are the statement's own, not tables.
    const ctes = new Set([...s.text.matchAll(/(?:\bWITH|,)\s+([a-z_]+)\s+AS\s+\(/g)].map((m) => m[1]!));
    const named = [...s.text.matchAll(/\b(?:FROM|JOIN|INTO|UPDATE)\s+([a-z_]+)\b/g)].map((m) => m[1]!).filter((t) => t !== 'unnest' && !ctes.has(t));
    for (const table of named) expect(Object.keys(s.uses)).toContain(table);
  });
});

describe('every statement prepares against a migrated database', () => {
  const suite = useMigratedDatabase();

  test.each(ALL_STATEMENTS.map((s) => [s.name, s] as const))('%s', async (_name, s) => {
    // PREPARE parses, resolves every name and type and plans the statement without running it.
    await suite.db.sql.transaction(async (tx) => {
      await tx.exec(`PREPARE credgate_drift_check AS ${s.text}`);
      await tx.exec('DEALLOCATE credgate_drift_check');
    });
  });

  test('a statement naming a column the schema does not have fails to prepare (the check can fail)', async () => {
    await expect(suite.db.sql.exec('PREPARE credgate_drift_bad AS SELECT no_such_column FROM credentials')).rejects.toThrow(/no_such_column/);
  });
});
