import type { SqlExecutor } from '../db/sql-executor';
import { type NoteVerifier, equalBytes, formatCheckpoint, openCheckpoint, signNote } from '../domain/merkle';
import { ArchiveError } from './archive-format';
import { checkLogTree } from './ledger-verify';
import type { Progress } from './progress';
import { byteaOf } from './tenant-export';

type Row = Record<string, unknown>;

/** A signed head read from an archive, checked under the exporter's key and held until its log is recomputed. */
export interface ArchivedHead {
  readonly row: Row;
  readonly line: number;
  readonly logSeq: string;
  readonly size: number;
  readonly root: Buffer;
}

/**
 * Opens an archived head under the exporter's log key given out of band (never the key the
 * archive names): the note must be signed by that key, be the checkpoint of this log under that
 * key's origin, and state the row's size and root.
 */
export function checkArchivedHead(row: Row, line: number, sourceKey: NoteVerifier): ArchivedHead {
  const logSeq = String(row['log_seq']);
  const logId = `0.0.${logSeq}`;
  const size = Number(row['tree_size']);
  // Only the canonical hex form, so the root checked here is the root the database stores.
  if (!/^\\x[0-9a-f]{64}$/.test(String(row['root_hash']))) throw new ArchiveError(`line ${line}: the signed head of log ${logId} has a malformed root: nothing was imported`);
  const root = byteaOf(row['root_hash']);
  const opened = openCheckpoint(String(row['note']), sourceKey, `${sourceKey.name}/${logId}`);
  if (!opened.verified || !opened.checkpoint) {
    throw new ArchiveError(`line ${line}: the signed head of log ${logId} does not verify under --source-log-key (${opened.reason ?? 'not verified'}): nothing was imported`);
  }
  if (!Number.isSafeInteger(size) || opened.checkpoint.size !== size || !root.equals(Buffer.from(opened.checkpoint.rootHash))) {
    throw new ArchiveError(`line ${line}: the signed head of log ${logId} does not state the size and root of its row: nothing was imported`);
  }
  return { row: { ...row, tree_size: size }, line, logSeq, size, root };
}

/** An anchor outbox row read from an archive, held (like heads) until its log is recomputed. */
export interface ArchivedAnchor {
  readonly row: Row;
  readonly line: number;
  readonly logSeq: string;
  readonly size: number;
  readonly root: Buffer;
  /** Anchored rows keep the note that was published; others are re-signed here, since this deployment publishes them. */
  readonly anchored: boolean;
}

const OUTBOX_STATUSES = new Set(['pending', 'anchored', 'failed']);

/**
 * Checks an archived anchor outbox row as far as it can be without the leaves: a log id of the
 * canonical form, a size, a canonical root, a known status, and a note (when there is one) signed
 * by the exporter's key over that log, size and root. Its root is compared with the recomputed
 * log in `checkImportedLogs`: a forged root would otherwise be published by this deployment's
 * relay, or reported as anchored under a receipt for another tree.
 */
export function checkArchivedAnchor(row: Row, line: number, sourceKey: NoteVerifier): ArchivedAnchor {
  const logId = String(row['log_id']);
  const seq = /^0\.0\.([1-9][0-9]{0,17})$/.exec(logId)?.[1];
  const size = Number(row['tree_size']);
  if (!seq || !Number.isSafeInteger(size) || size < 0) throw new ArchiveError(`line ${line}: an anchor row without a valid log id and size: nothing was imported`);
  if (!/^\\x[0-9a-f]{64}$/.test(String(row['root_hash']))) throw new ArchiveError(`line ${line}: the anchor row of log ${logId} has a malformed root: nothing was imported`);
  const status = String(row['status']);
  if (!OUTBOX_STATUSES.has(status)) throw new ArchiveError(`line ${line}: the anchor row of log ${logId} has an unknown status: nothing was imported`);
  const root = byteaOf(row['root_hash']);
  const note = row['note'];
  if (note !== null && note !== undefined) {
    const opened = openCheckpoint(String(note), sourceKey, `${sourceKey.name}/${logId}`);
    if (!opened.verified || opened.checkpoint?.size !== size || !root.equals(Buffer.from(opened.checkpoint.rootHash))) {
      throw new ArchiveError(`line ${line}: the anchored checkpoint of log ${logId} (size ${size}) is not signed under --source-log-key over its size and root: nothing was imported`);
    }
  }
  return { row: { ...row, tree_size: size }, line, logSeq: seq, size, root, anchored: status === 'anchored' };
}

export interface LedgerCheck {
  readonly logs: number;
  readonly leaves: number;
  readonly heads: number;
  /** Anchor outbox rows whose root was recomputed from the leaves. */
  readonly anchors: number;
}

/**
 * Recomputes every imported log from the leaf rows written in this transaction, as `ledger
 * verify` does: the log's size is its number of leaves, every stored node is the one the leaves
 * give (and no other is stored), and each head's root is the root of its first `size` leaves.
 * Only then is the head signed again with this deployment's key and written: a signature by the
 * exporter on a root the leaves do not give (a leaf changed, the head kept) is refused, so this
 * deployment never signs a history it has not recomputed.
 */
export async function checkImportedLogs(
  tx: SqlExecutor,
  tenantId: string,
  heads: ReadonlyMap<string, ArchivedHead>,
  anchors: readonly ArchivedAnchor[],
  target: { readonly ledgerSeed: Uint8Array; readonly ledgerOrigin: string },
  bar: Progress,
  insert: (table: 'ledger_heads' | 'anchor_outbox', row: Row, line: number) => Promise<void>,
): Promise<LedgerCheck> {
  const logs = await tx.query<{ seq: string; tree_size: number; leaves: string }>(
    'SELECT l.seq::text AS seq, l.tree_size, (SELECT count(*) FROM ledger_leaves f WHERE f.log_seq = l.seq)::text AS leaves FROM ledger_logs l WHERE l.tenant_id = $1 ORDER BY l.seq',
    [tenantId],
  );
  const problems: string[] = [];
  const total = logs.reduce((n, l) => n + Number(l.tree_size), 0);
  bar.start('recompute imported logs', total);
  for (const log of logs) {
    const logId = `0.0.${log.seq}`;
    const report = (m: string): void => void problems.push(`log ${logId}: ${m}`);
    const size = Number(log.tree_size);
    if (Number(log.leaves) !== size) report(`${log.leaves} leaves, but the log says ${size}`);
    const head = heads.get(log.seq);
    if (head && head.size > size) report(`the signed head of size ${head.size} is larger than the log`);
    const anchored = anchors.filter((a) => a.logSeq === log.seq);
    for (const a of anchored) if (a.size > size) report(`the anchor row of size ${a.size} is larger than the log`);
    const wanted = new Set([...(head ? [head.size] : []), ...anchored.map((a) => a.size)]);
    const rootsAt = await checkLogTree(tx, log.seq, size, wanted, report, bar);
    const root = head ? rootsAt.get(head.size) : undefined;
    if (head && (!root || !equalBytes(root, head.root))) report(`the signed head of size ${head.size} states a root its leaves do not give`);
    for (const a of anchored) {
      const at = rootsAt.get(a.size);
      if (!at || !equalBytes(at, a.root)) report(`the anchor row of size ${a.size} states a root its leaves do not give`);
    }
    if (problems.length > 0) break;
  }
  bar.finish();
  // Witness progress and cosignatures are re-verified on every read, but a size beyond the log would still be reported as witnessed.
  const beyond = await tx.query<{ seq: string; tree_size: number }>(
    `SELECT x.log_seq::text AS seq, x.tree_size FROM (SELECT log_seq, tree_size FROM ledger_witness_state UNION ALL SELECT log_seq, tree_size FROM ledger_cosignatures) x
       JOIN ledger_logs l ON l.seq = x.log_seq WHERE l.tenant_id = $1 AND x.tree_size > l.tree_size LIMIT 1`,
    [tenantId],
  );
  if (beyond[0]) problems.push(`log 0.0.${beyond[0].seq}: a witness row names size ${beyond[0].tree_size}, larger than the log`);
  if (problems.length > 0) throw new ArchiveError(`the archived ledger does not recompute: ${problems[0]!}: nothing was imported`);
  const resign = (logSeq: string, size: number, rootHash: Uint8Array): string =>
    signNote(formatCheckpoint({ origin: `${target.ledgerOrigin}/0.0.${logSeq}`, size, rootHash }), { name: target.ledgerOrigin, seed: target.ledgerSeed });
  for (const head of heads.values()) await insert('ledger_heads', { ...head.row, note: resign(head.logSeq, head.size, head.root) }, head.line);
  for (const a of anchors) {
    // Leases belong to the exporter's relays. A row still to be published carries this deployment's signature, as its own heads do.
    const row = { ...a.row, lease_owner: null, lease_until: null, ...(a.anchored || a.row['note'] === null || a.row['note'] === undefined ? {} : { note: resign(a.logSeq, a.size, a.root) }) };
    await insert('anchor_outbox', row, a.line);
  }
  return { logs: logs.length, leaves: total, heads: heads.size, anchors: anchors.length };
}
