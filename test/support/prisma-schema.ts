import { readFileSync } from 'node:fs';
import path from 'node:path';

/** Just enough of schema.prisma to state what the migrated database must contain. */
export interface PrismaField {
  name: string;
  column: string;
  type: string;
  optional: boolean;
  list: boolean;
  nativeType: string | undefined;
  hasDefault: boolean;
  isRelation: boolean;
  isId: boolean;
  isUnique: boolean;
}

export interface PrismaModel {
  name: string;
  table: string;
  fields: PrismaField[];
  /** Column lists of @@unique and @unique. */
  uniques: string[][];
  /** Column lists of @@index. */
  indexes: string[][];
}

export const SCHEMA_PATH = path.resolve(__dirname, '../../prisma/schema.prisma');

export function parsePrismaSchema(text = readFileSync(SCHEMA_PATH, 'utf8')): PrismaModel[] {
  const blocks = [...text.matchAll(/^model (\w+) \{([\s\S]*?)^\}/gm)];
  const modelNames = new Set(blocks.map((b) => b[1]!));
  return blocks.map(([, name, body]) => {
    const lines = body!.split('\n').map((l) => l.replace(/\/\/.*$/, '').trim()).filter((l) => l !== '');
    const fields: PrismaField[] = [];
    const uniques: string[][] = [];
    const indexes: string[][] = [];
    let table = name!;
    const pending: { kind: 'unique' | 'index'; names: string[] }[] = [];
    for (const line of lines) {
      if (line.startsWith('@@map(')) table = /@@map\("([^"]+)"\)/.exec(line)![1]!;
      else if (line.startsWith('@@unique(') || line.startsWith('@@index(')) {
        const names = /\[([^\]]+)\]/.exec(line)![1]!.split(',').map((s) => s.trim());
        pending.push({ kind: line.startsWith('@@unique') ? 'unique' : 'index', names });
      } else if (!line.startsWith('@@')) {
        const m = /^(\w+)\s+(\w+)(\[\])?(\?)?\s*(.*)$/.exec(line);
        if (!m) continue;
        const [, fname, type, list, opt, attrs] = m as unknown as string[];
        fields.push({
          name: fname!,
          column: /@map\("([^"]+)"\)/.exec(attrs!)?.[1] ?? fname!,
          type: type!,
          optional: opt === '?',
          list: list === '[]',
          nativeType: /@db\.(\w+(?:\([^)]*\))?)/.exec(attrs!)?.[1],
          hasDefault: /@default\(/.test(attrs!) || /@updatedAt/.test(attrs!),
          isRelation: modelNames.has(type!),
          isId: /@id\b/.test(attrs!),
          isUnique: /@unique\b/.test(attrs!),
        });
      }
    }
    const col = (n: string): string => fields.find((f) => f.name === n)?.column ?? n;
    for (const p of pending) (p.kind === 'unique' ? uniques : indexes).push(p.names.map(col));
    for (const f of fields) if (f.isUnique) uniques.push([f.column]);
    return { name: name!, table, fields, uniques, indexes };
  });
}

/** The PostgreSQL type (udt_name) Prisma maps a field to. */
export function expectedUdt(f: PrismaField): string {
  const native = f.nativeType?.replace(/\(.*\)$/, '');
  const base =
    native === 'Uuid' ? 'uuid'
    : native === 'Char' ? 'bpchar'
    : native === 'Timestamptz' ? 'timestamptz'
    : native === 'VarChar' ? 'varchar'
    : ({ String: 'text', Int: 'int4', BigInt: 'int8', DateTime: 'timestamp', Bytes: 'bytea', Boolean: 'bool', Json: 'jsonb', Float: 'float8' } as Record<string, string>)[f.type];
  if (!base) throw new Error(`no mapping for ${f.type} ${f.nativeType ?? ''}`);
  return f.list ? `_${base}` : base;
}
