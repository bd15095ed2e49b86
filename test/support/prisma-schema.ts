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
  /** For relation fields: the scalar fields that hold the foreign key, and what they reference. */
  relationFields: string[];
  relationReferences: string[];
}

export interface PrismaModel {
  name: string;
  table: string;
  fields: PrismaField[];
  /** Column lists of @@unique and @unique. */
  uniques: string[][];
  /** Column lists of @@index. */
  indexes: string[][];
  /** Field names of the primary key (@id, or @@id for a composite key). */
  primaryKey: string[];
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
    let compositeId: string[] | undefined;
    const pending: { kind: 'unique' | 'index'; names: string[] }[] = [];
    for (const line of lines) {
      if (line.startsWith('@@map(')) table = /@@map\("([^"]+)"\)/.exec(line)![1]!;
      else if (line.startsWith('@@id(')) compositeId = /\[([^\]]+)\]/.exec(line)![1]!.split(',').map((x) => x.trim());
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
          relationFields: (/@relation\([^)]*fields:\s*\[([^\]]+)\]/.exec(attrs!)?.[1] ?? '').split(',').map((x) => x.trim()).filter(Boolean),
          relationReferences: (/@relation\([^)]*references:\s*\[([^\]]+)\]/.exec(attrs!)?.[1] ?? '').split(',').map((x) => x.trim()).filter(Boolean),
        });
      }
    }
    const col = (n: string): string => fields.find((f) => f.name === n)?.column ?? n;
    for (const p of pending) (p.kind === 'unique' ? uniques : indexes).push(p.names.map(col));
    for (const f of fields) if (f.isUnique) uniques.push([f.column]);
    const primaryKey = compositeId ?? fields.filter((f) => f.isId).map((f) => f.name);
    return { name: name!, table, fields, uniques, indexes, primaryKey };
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

/** The model and field a scalar foreign-key field points to, if any. */
export function foreignKeyTarget(model: PrismaModel, fieldName: string): { model: string; field: string } | undefined {
  const rel = model.fields.find((f) => f.isRelation && f.relationFields.includes(fieldName));
  if (!rel) return undefined;
  return { model: rel.type, field: rel.relationReferences[rel.relationFields.indexOf(fieldName)] ?? 'id' };
}

/** Models ordered so that every model comes after the models its foreign keys point to. */
export function parentsFirst(models: PrismaModel[]): PrismaModel[] {
  const done = new Set<string>();
  const out: PrismaModel[] = [];
  while (out.length < models.length) {
    const ready = models.filter((m) => !done.has(m.name) && m.fields.every((f) => !f.isRelation || f.relationFields.length === 0 || f.type === m.name || done.has(f.type)));
    if (ready.length === 0) throw new Error('foreign keys form a cycle');
    for (const m of ready) {
      done.add(m.name);
      out.push(m);
    }
  }
  return out;
}
