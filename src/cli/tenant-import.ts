import { createReadStream, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Database } from '../db/database';
import type { SqlExecutor } from '../db/sql-executor';
import { bytesToBase64 } from '../domain/encoding';
import type { NoteVerifier } from '../domain/merkle';
import { type Kek, type Keyring, open } from '../kms/envelope';
import { sealManagedKey } from '../kms/key-custody';
import { EnvelopeSecretBox } from '../kms/secret-box';
import { sealedSubjectContext } from '../services/family-a/credentials.service';
import { ARCHIVE_FORMAT, ARCHIVE_TABLES, ArchiveError, type ArchiveHeader, LineMac, READABLE_VERSIONS, archiveAad, deriveArchiveKeys } from './archive-format';
import { type ArchivedAnchor, type ArchivedHead, type LedgerCheck, checkArchivedAnchor, checkArchivedHead, checkImportedLogs } from './archive-ledger';
import { checkReferences } from './archive-references';
import type { Progress } from './progress';

type Row = Record<string, unknown>;

export interface ImportTarget {
  readonly keyring: Keyring;
  readonly ledgerSeed: Uint8Array;
  /** `<host>/ledger`, as the service names its log key (app.ts). */
  readonly ledgerOrigin: string;
}

export interface ImportResult {
  readonly tenant: string;
  /** The archive's format version (1: written before VC-API issuers, witness and anchor state travelled). */
  readonly version: number;
  readonly rows: Readonly<Record<string, number>>;
  /** What was recomputed from the imported leaves before any head was signed again. */
  readonly ledger: LedgerCheck;
}

interface ImportState {
  tenantId: string | undefined;
  readonly logs: Set<string>;
  tableIndex: number;
  /** Signed heads, one per log, held until their logs are recomputed (archive-ledger.ts). */
  readonly heads: Map<string, ArchivedHead>;
  /** Anchor outbox rows, held likewise: their roots are compared with the recomputed logs. */
  readonly anchors: ArchivedAnchor[];
  readonly version: number;
}

/** `ledger_logs.seq` as the database prints it, so log ids compare as text. */
const CANONICAL_SEQ = /^[1-9][0-9]{0,17}$/;

const parseLine = (line: string, n: number): Row => {
  try {
    const v = JSON.parse(line) as unknown;
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) return v as Row;
  } catch {
    // reported below
  }
  throw new ArchiveError(`line ${n} is not a JSON object: not a Credgate archive, or it was damaged`);
};

/**
 * Loads an archive in one transaction. Its MAC is checked as the lines stream in and compared at
 * the end line; a mismatch (or a missing end line) rolls everything back, so a tampered or cut-off
 * archive changes nothing. Sealed values are opened with the passphrase KEK and sealed again
 * under this database's master key.
 *
 * The MAC only proves the archive was written by someone holding the passphrase, so nothing else
 * in it is trusted: signed heads are checked under `sourceLogKey`, the exporter's log key taken
 * out of band (an archive naming another key is refused), every log is recomputed from its leaves
 * before its head is signed again with this deployment's key, and every reference of an imported
 * row must point into the imported tenant. Any failure rolls the whole import back.
 */
export async function importTenant(db: Database, target: ImportTarget, file: string, passphrase: string, sourceLogKey: NoteVerifier, bar: Progress): Promise<ImportResult> {
  const size = statSync(file).size;
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  const it = lines[Symbol.asyncIterator]();
  const first = await it.next();
  if (first.done) throw new ArchiveError('the archive is empty');
  const header = parseLine(first.value, 1) as unknown as ArchiveHeader;
  if (header.format !== ARCHIVE_FORMAT) throw new ArchiveError('not a Credgate tenant archive');
  if (!READABLE_VERSIONS.includes(header.version)) {
    throw new ArchiveError(`archive version ${String(header.version)} is not supported (this version reads ${READABLE_VERSIONS.join(' and ')}): import it with the Credgate release that wrote it`);
  }
  const keys = deriveArchiveKeys(passphrase, header.kdf);
  const mac = new LineMac(keys.macKey);
  mac.add(first.value);
  // Not a trust decision (the key given decides), but the clearest answer to a header rewritten with another key.
  if (header.ledgerPublicKey !== bytesToBase64(sourceLogKey.publicKey)) {
    throw new ArchiveError('the archive names another log key than --source-log-key: it was not exported by that deployment, or it was rewritten: nothing was imported');
  }
  const rows: Record<string, number> = {};
  bar.start(`import ${String(header.tenant)}`, size);
  bar.done(Buffer.byteLength(first.value) + 1);
  const state: ImportState = { tenantId: undefined, logs: new Set<string>(), tableIndex: 0, heads: new Map(), anchors: [], version: header.version };

  const ledger = await db.sql.transaction(async (tx) => {
    let ended = false;
    for (let r = await it.next(), n = 2; !r.done; r = await it.next(), n++) {
      const line = r.value;
      bar.done(Buffer.byteLength(line) + 1);
      if (ended) throw new ArchiveError(`line ${n} follows the end line`);
      const obj = parseLine(line, n);
      if (obj['end'] === true) {
        if (!mac.check(obj)) throw new ArchiveError('the archive failed its integrity check (a line was changed, added or removed, or the passphrase differs): nothing was imported');
        ended = true;
        continue;
      }
      mac.add(line);
      const table = String(obj['table']);
      const index = ARCHIVE_TABLES.findIndex((t) => t.name === table);
      if (index < state.tableIndex) throw new ArchiveError(`line ${n}: table ${table} is out of order or unknown`);
      // Only a forger writes a table into an archive of a version that did not carry it.
      if ((ARCHIVE_TABLES[index]!.since ?? 1) > state.version) throw new ArchiveError(`line ${n}: table ${table} is not part of archive version ${state.version}: nothing was imported`);
      state.tableIndex = index;
      const row = obj['row'] as Row;
      await insertRow(tx, state, target, keys.kek, sourceLogKey, table, row, n);
      rows[table] = (rows[table] ?? 0) + 1;
    }
    if (!ended) throw new ArchiveError('the archive is truncated (no end line): nothing was imported');
    if (!state.tenantId) throw new ArchiveError('the archive holds no tenant');
    const checked = await checkImportedLogs(tx, state.tenantId, state.heads, state.anchors, target, bar, (table, row, n) => insert(tx, table, row, n));
    await checkReferences(tx, state.tenantId);
    // Log ids (0.0.<seq>) are kept, as DIDs and credentials name them: move the sequence past them.
    await tx.query("SELECT setval(pg_get_serial_sequence('ledger_logs', 'seq'), GREATEST((SELECT max(seq) FROM ledger_logs), 1))");
    return checked;
  });
  bar.finish();
  return { tenant: String(header.tenant), version: header.version, rows, ledger };
}

/** Whether a row names the imported tenant (or one of its logs) itself; a row that leaves it out is refused too. */
function ownedByTenant(state: ImportState, table: string, row: Row): boolean {
  const owner = ARCHIVE_TABLES.find((t) => t.name === table)?.owner;
  if (owner === 'tenant') return row['tenant_id'] === state.tenantId;
  if (owner === 'log') return state.logs.has(String(row['log_seq']));
  if (owner === 'logId') {
    const logId = String(row['log_id']);
    return logId.startsWith('0.0.') && state.logs.has(logId.slice(4));
  }
  return false;
}

async function insertRow(tx: SqlExecutor, state: ImportState, target: ImportTarget, kek: Kek, sourceLogKey: NoteVerifier, table: string, row: Row, n: number): Promise<void> {
  if (typeof row !== 'object' || row === null || Array.isArray(row)) throw new ArchiveError(`line ${n}: no row`);
  if (table === 'tenants') {
    if (state.tenantId) throw new ArchiveError(`line ${n}: a second tenant`);
    const clash = await tx.query('SELECT 1 FROM tenants WHERE id = $1 OR slug = $2', [row['id'], row['slug']]);
    if (clash.length > 0) throw new ArchiveError(`tenant ${String(row['slug'])} already exists in this database: import into a database without it`);
    state.tenantId = String(row['id']);
  } else if (!state.tenantId) {
    throw new ArchiveError(`line ${n}: rows before the tenant`);
  } else if (!ownedByTenant(state, table, row)) {
    throw new ArchiveError(`line ${n}: a ${table} row that is not of the imported tenant (or of one of its logs): nothing was imported`);
  }
  if (table === 'ledger_logs') {
    const seq = String(row['seq']);
    if (!CANONICAL_SEQ.test(seq)) throw new ArchiveError(`line ${n}: a ledger log without a valid number`);
    if ((await tx.query('SELECT 1 FROM ledger_logs WHERE seq = $1', [seq])).length > 0) {
      throw new ArchiveError(`ledger log 0.0.${seq} already exists in this database (log ids are kept on import): import into a fresh database`);
    }
    state.logs.add(seq);
  }
  if (table === 'managed_keys') resealManagedKey(target.keyring, kek, row);
  if (table === 'issued_credentials') resealSubject(target.keyring, kek, row);
  if (table === 'ledger_heads') {
    const head = checkArchivedHead(row, n, sourceLogKey);
    if (state.heads.has(head.logSeq)) throw new ArchiveError(`line ${n}: a second signed head of log 0.0.${head.logSeq}`);
    // Written once its log is recomputed from the leaves, signed by this deployment (checkImportedLogs).
    state.heads.set(head.logSeq, head);
    return;
  }
  if (table === 'anchor_outbox') {
    const anchor = checkArchivedAnchor(row, n, sourceLogKey);
    if (state.anchors.some((a) => a.logSeq === anchor.logSeq && a.size === anchor.size)) throw new ArchiveError(`line ${n}: a second anchor row of log 0.0.${anchor.logSeq} at size ${anchor.size}`);
    state.anchors.push(anchor);
    return;
  }
  // A completed answer only (export leaves claims in flight behind); no lease of the exporter's processes.
  if (table === 'idempotency_keys') {
    if (row['status'] === null || row['status'] === undefined) throw new ArchiveError(`line ${n}: an idempotency record still in flight: nothing was imported`);
    row['locked_until'] = null;
  }
  await insert(tx, table, row, n);
}

async function insert(tx: SqlExecutor, table: string, row: Row, n: number): Promise<void> {
  try {
    await tx.query(`INSERT INTO "${table}" SELECT * FROM jsonb_populate_record(NULL::"${table}", $1::jsonb)`, [JSON.stringify(row)]);
  } catch (e) {
    // A DID or credential id that already exists here (ids are kept): name it instead of failing with SQL.
    if ((e as { code?: string }).code === '23505') throw new ArchiveError(`line ${n}: a ${table} row already exists in this database (${(e as { detail?: string }).detail ?? 'duplicate key'}): import into a fresh database`);
    throw e;
  }
}

function openArchived(kek: Kek, table: string, column: string, row: Row): Buffer {
  try {
    return open(kek, Buffer.from(String(row[column]), 'base64'), archiveAad(table, column, String(row['id'])));
  } catch {
    throw new ArchiveError(`a sealed value of ${table} ${String(row['id'])} does not open: wrong passphrase, or the archive was tampered with`);
  }
}

const asBytea = (b: Uint8Array): string => `\\x${Buffer.from(b).toString('hex')}`;

function resealManagedKey(keyring: Keyring, kek: Kek, row: Row): void {
  const sk = openArchived(kek, 'managed_keys', 'encrypted_private_key', row);
  try {
    const record = { id: String(row['id']), tenantId: String(row['tenant_id']), algorithm: String(row['algorithm']), publicKeyHex: String(row['public_key_hex']) };
    row['encrypted_private_key'] = asBytea(sealManagedKey(keyring, record, sk));
    row['kek_id'] = keyring.sealing.id;
  } finally {
    sk.fill(0);
  }
}

function resealSubject(keyring: Keyring, kek: Kek, row: Row): void {
  const plain = openArchived(kek, 'issued_credentials', 'sealed_subject', row);
  try {
    row['sealed_subject'] = asBytea(new EnvelopeSecretBox(keyring).seal(plain, sealedSubjectContext(String(row['id']))));
  } finally {
    plain.fill(0);
  }
}
