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

export interface LedgerCheck {
  readonly logs: number;
  readonly leaves: number;
  readonly heads: number;
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
  target: { readonly ledgerSeed: Uint8Array; readonly ledgerOrigin: string },
  bar: Progress,
  insert: (row: Row, line: number) => Promise<void>,
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
    const rootsAt = await checkLogTree(tx, log.seq, size, new Set(head ? [head.size] : []), report, bar);
    const root = head ? rootsAt.get(head.size) : undefined;
    if (head && (!root || !equalBytes(root, head.root))) report(`the signed head of size ${head.size} states a root its leaves do not give`);
    if (problems.length > 0) break;
  }
  bar.finish();
  if (problems.length > 0) throw new ArchiveError(`the archived ledger does not recompute: ${problems[0]!}: nothing was imported`);
  for (const head of heads.values()) {
    const logId = `0.0.${head.logSeq}`;
    const body = formatCheckpoint({ origin: `${target.ledgerOrigin}/${logId}`, size: head.size, rootHash: head.root });
    await insert({ ...head.row, note: signNote(body, { name: target.ledgerOrigin, seed: target.ledgerSeed }) }, head.line);
  }
  return { logs: logs.length, leaves: total, heads: heads.size };
}
