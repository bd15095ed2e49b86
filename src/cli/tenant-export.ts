import { createWriteStream, rmSync } from 'node:fs';
import { once } from 'node:events';
import type { Database } from '../db/database';
import type { SqlExecutor } from '../db/sql-executor';
import { bytesToBase64 } from '../domain/encoding';
import { publicKeyOf } from '../domain/merkle';
import { AppError } from '../errors';
import { type Kek, type Keyring, seal } from '../kms/envelope';
import { openManagedKey } from '../kms/key-custody';
import { EnvelopeSecretBox } from '../kms/secret-box';
import { sealedSubjectContext } from '../services/family-a/credentials.service';
import { ARCHIVE_FORMAT, ARCHIVE_TABLES, ARCHIVE_VERSION, type ArchiveHeader, type ArchiveTable, LineMac, archiveAad, deriveArchiveKeys, newKdfParams } from './archive-format';
import type { Progress } from './progress';

/** Rows read per query. */
const PAGE = 500;

type Row = Record<string, unknown>;

/** `\x…` (bytea in to_jsonb) to bytes. */
export const byteaOf = (v: unknown): Buffer => Buffer.from(String(v).replace(/^\\x/, ''), 'hex');

/** Opens one sealed cell with the service's keyring (the plaintext is wiped by the caller). */
function openCell(keyring: Keyring, table: string, row: Row, envelope: Buffer): Buffer {
  if (table === 'managed_keys') {
    return openManagedKey(keyring, {
      id: String(row['id']),
      tenantId: String(row['tenant_id']),
      algorithm: String(row['algorithm']),
      publicKeyHex: String(row['public_key_hex']),
      encryptedPrivateKey: envelope,
    });
  }
  return Buffer.from(new EnvelopeSecretBox(keyring).open(envelope, sealedSubjectContext(String(row['id']))));
}

export interface ExportResult {
  readonly tenant: string;
  readonly lines: number;
  readonly rows: Readonly<Record<string, number>>;
}

/**
 * Writes a tenant's archive (format in archive-format.ts) from one REPEATABLE READ snapshot, so
 * rows written meanwhile are either all in or all out. The file is created, never overwritten.
 */
export async function exportTenant(
  db: Database,
  keys: { keyring: Keyring; ledgerSeed: Uint8Array },
  slug: string,
  passphrase: string,
  outFile: string,
  bar: Progress,
): Promise<ExportResult> {
  const found = await db.sql.query<{ id: string }>('SELECT id FROM tenants WHERE slug = $1', [slug]);
  if (!found[0]) throw new AppError('NOT_FOUND', `tenant ${slug} does not exist`);
  const tenantId = found[0].id;
  const kdf = newKdfParams();
  const archive = deriveArchiveKeys(passphrase, kdf);
  const mac = new LineMac(archive.macKey);
  const out = createWriteStream(outFile, { flags: 'wx', mode: 0o600 });
  await once(out, 'open');
  const write = async (line: string): Promise<void> => {
    mac.add(line);
    if (!out.write(line + '\n')) await once(out, 'drain');
  };
  const rows: Record<string, number> = {};
  try {
    const header: ArchiveHeader = {
      format: ARCHIVE_FORMAT,
      version: ARCHIVE_VERSION,
      tenant: slug,
      createdAt: new Date().toISOString(),
      kdf,
      ledgerPublicKey: bytesToBase64(publicKeyOf(keys.ledgerSeed)),
    };
    await write(JSON.stringify(header));
    await db.sql.transaction(async (tx) => {
      await tx.exec('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const counts = await Promise.all(ARCHIVE_TABLES.map((t) => count(tx, t, tenantId)));
      bar.start(`export ${slug}`, counts.reduce((a, b) => a + b, 0));
      for (const table of ARCHIVE_TABLES) {
        rows[table.name] = 0;
        for (let offset = 0; ; offset += PAGE) {
          const page = await tx.query<{ row: Row }>(`SELECT to_jsonb(t.*) AS row FROM "${table.name}" t WHERE ${rowsOf(table)} ORDER BY ${table.order} LIMIT ${PAGE} OFFSET ${offset}`, [tenantId]);
          for (const { row } of page) {
            if (table.sealed) reseal(keys.keyring, archive.kek, table, row);
            await write(JSON.stringify({ table: table.name, row }));
          }
          rows[table.name]! += page.length;
          bar.done(page.length);
          if (page.length < PAGE) break;
        }
      }
    });
    const end = mac.endLine();
    out.end(end + '\n');
    await once(out, 'finish');
  } catch (e) {
    // No half archive left behind to be mistaken for one (its missing end line would refuse it anyway).
    out.destroy();
    rmSync(outFile, { force: true });
    throw e;
  }
  bar.finish();
  return { tenant: slug, lines: mac.count + 1, rows };
}

/** The rows of a table export writes: the tenant's, narrowed by the table's export-only conditions. */
const rowsOf = (table: ArchiveTable): string => (table.exportOnly ? `(${table.where}) AND (${table.exportOnly})` : table.where);

async function count(tx: SqlExecutor, table: ArchiveTable, tenantId: string): Promise<number> {
  const r = await tx.query<{ n: string }>(`SELECT count(*)::text AS n FROM "${table.name}" WHERE ${rowsOf(table)}`, [tenantId]);
  return Number(r[0]!.n);
}

/** Replaces the service envelope in `row` by one under the archive KEK (base64); the plaintext never leaves this function. */
function reseal(keyring: Keyring, kek: Kek, table: ArchiveTable, row: Row): void {
  const { column, kekColumn } = table.sealed!;
  const plain = openCell(keyring, table.name, row, byteaOf(row[column]));
  try {
    row[column] = seal(kek, plain, archiveAad(table.name, column, String(row['id']))).toString('base64');
    if (kekColumn) row[kekColumn] = 'archive';
  } finally {
    plain.fill(0);
  }
}


