import type { SqlExecutor } from '../db/sql-executor';
import { ARCHIVE_TABLES, ArchiveError, SOFT_REFERENCES } from './archive-format';

interface Reference {
  readonly table: string;
  readonly columns: readonly string[];
  readonly parent: string;
  /** SQL over the parent alias `p`, one per column, equal to the child's columns when the reference holds. */
  readonly parentKeys: readonly string[];
}

const ident = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/**
 * Every foreign key declared on an archived table, read from the catalogue so a table or column
 * added later is checked without anyone remembering to list it here.
 */
async function declaredForeignKeys(tx: SqlExecutor): Promise<Reference[]> {
  const rows = await tx.query<{ child: string; parent: string; child_cols: string; parent_cols: string }>(
    `SELECT cl.relname AS child, pl.relname AS parent,
            (SELECT string_agg(a.attname, ',' ORDER BY k.o) FROM unnest(c.conkey) WITH ORDINALITY AS k(n, o)
               JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n) AS child_cols,
            (SELECT string_agg(a.attname, ',' ORDER BY k.o) FROM unnest(c.confkey) WITH ORDINALITY AS k(n, o)
               JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.n) AS parent_cols
       FROM pg_constraint c
       JOIN pg_class cl ON cl.oid = c.conrelid
       JOIN pg_class pl ON pl.oid = c.confrelid
      WHERE c.contype = 'f' AND cl.relnamespace = current_schema()::regnamespace AND cl.relname = ANY($1::text[])
      ORDER BY cl.relname, c.conname`,
    [ARCHIVE_TABLES.map((t) => t.name)],
  );
  return rows.map((r) => ({
    table: r.child,
    columns: r.child_cols.split(','),
    parent: r.parent,
    parentKeys: r.parent_cols.split(',').map((c) => `p.${ident(c)}`),
  }));
}

/**
 * Refuses an import in which a row of the imported tenant points at a row that is not the
 * tenant's. The database's own foreign keys only check that the parent exists: a crafted
 * credential naming another tenant's status list satisfies them, and revoking it would then flip
 * a bit of that tenant's list. Runs in the import's transaction after every row is in, so the
 * tenant's rows are exactly the imported ones (the tenant and its logs did not exist before).
 */
export async function checkReferences(tx: SqlExecutor, tenantId: string): Promise<void> {
  const references: Reference[] = [
    ...(await declaredForeignKeys(tx)),
    ...SOFT_REFERENCES.map((s) => ({ table: s.table, columns: [s.column], parent: s.parent, parentKeys: [s.parentKey] })),
  ];
  const scope = (table: string): string | undefined => ARCHIVE_TABLES.find((t) => t.name === table)?.where;
  for (const ref of references) {
    const childWhere = scope(ref.table)!;
    const parentWhere = scope(ref.parent);
    const present = ref.columns.map((c) => `c.${ident(c)} IS NOT NULL`).join(' AND ');
    const joined = ref.columns.map((c, i) => `${ref.parentKeys[i]} = c.${ident(c)}`).join(' AND ');
    // A parent table the archive does not carry holds no row of the tenant: any reference into it points outside.
    const outside = parentWhere === undefined ? 'TRUE' : `NOT EXISTS (SELECT 1 FROM (SELECT * FROM ${ident(ref.parent)} WHERE ${parentWhere}) p WHERE ${joined})`;
    const found = await tx.query<{ id: string | null; value: string | null }>(
      `SELECT to_jsonb(c.*) ->> 'id' AS id, to_jsonb(c.*) ->> $2 AS value
         FROM (SELECT * FROM ${ident(ref.table)} WHERE ${childWhere}) c
        WHERE ${present} AND ${outside} LIMIT 1`,
      [tenantId, ref.columns[0]],
    );
    const bad = found[0];
    if (bad) {
      const row = bad.id === null ? `a ${ref.table} row` : `${ref.table} ${bad.id}`;
      throw new ArchiveError(
        `${row}: ${ref.columns.join(', ')} (${bad.value ?? 'null'}) names a ${ref.parent} row that is not the imported tenant's; the archive was crafted or damaged: nothing was imported`,
      );
    }
  }
}
