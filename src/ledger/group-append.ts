import { AppError } from '../errors';
import { EMPTY_ROOT, type NodeReader, appendLeaves, equalBytes, foldRight, leafHash, perfectTiles } from '../domain/merkle';
import { type LedgerWriteParams, lockLogs, readLogState } from '../db/sql/ledger.sql';
import { hex, run } from '../db/sql/statement';
import type { SqlExecutor } from '../db/sql-executor';
import { checkEntry, checkEntryHash, logNotFound } from './batch-append';
import type { Frontier, FrontierCache } from './frontier-cache';
import type { AppendResult, LedgerCheckpoint, LedgerEntry, LockedLogSizes, LogAppend, PreparedAppend } from './ledger.port';
import { parseLedgerId } from './log-id';
import type { PgLogHeads } from './log-heads';

/** tree_size and the leaf/node indices are INTEGER columns. */
const MAX_LOG_SIZE = 2 ** 31 - 1;

// Declared by the port, whose prepareGroupAppend names them (a port does not import its implementation).
export type { LogAppend, PreparedAppend };

/**
 * Logs whose stored head is behind the log (a crash between a commit and its head): the group path
 * cannot check them from the frontier alone, so the caller rolls back, settles them through the
 * full check (`Ledger.settle`, which re-derives the nodes written since the head) and retries.
 */
export class HeadsBehindError extends Error {
  constructor(readonly logIds: readonly string[]) {
    super(`ledger logs ${logIds.join(', ')} are beyond their signed heads`);
  }
}

/** Serves the frontier read once; the append and the root folds never read again. */
class FrontierReader implements NodeReader {
  constructor(private readonly nodes: ReadonlyMap<string, Uint8Array>) {}

  getNodes(ids: ReadonlyArray<{ level: number; index: number }>): Promise<Uint8Array[]> {
    return Promise.resolve(ids.map(({ level, index }) => {
      const hash = this.nodes.get(`${level}/${index}`);
      if (!hash) throw new AppError('INTERNAL', 'ledger log is missing a Merkle node');
      return hash;
    }));
  }
}

/**
 * Appends to several logs inside the caller's transaction, in three round trips whatever the
 * number of logs and entries: lock the log rows (sorted), read each log's stored head, frontier
 * nodes and already-present entries in one statement, then (the caller's) one write statement.
 * With `frontiers`, two: the read is skipped when every log is where this instance left it.
 *
 * The head of each grown log is signed here, after the consistency check RFC 9162 asks of a new
 * head: the frontier (the perfect tiles of the stored tree) must fold to the root of the stored
 * signed head, and every new node is computed here from the new leaves and that frontier, so the
 * new tree extends the signed one by construction. That is O(log n) nodes read once, instead of a
 * consistency proof re-read from the database. A log whose head is behind throws `HeadsBehindError`.
 *
 * Skipping the read (`frontiers`, the frontiers this instance committed itself; src/ledger/frontier-cache.ts).
 * A remembered frontier is used only when the locked log is at exactly the remembered size. That
 * is sound because a log only grows, and its tree_size changes only in the transaction that writes
 * its leaves, nodes and head: whoever else appended since (another instance, the Prisma append
 * path of Family A, the VC-API and revocations) left a different tree_size, so the entry is not
 * used and the log is read as before. The row lock taken just now keeps it so until our commit.
 * (Settle and the repairs only sign a head over what is there; this instance forgets a log's
 * frontier when it runs them anyway, see PgLedger.)
 * An entry is recorded only after the COMMIT that wrote it returned (`FrontierCache.commit`), never
 * for a rolled-back or ambiguous tick, so the head stored at that size is the one we signed from
 * that very frontier: the consistency check (frontier folds to the signed root) holds by
 * construction, and is still re-folded from memory here as a guard against our own bugs.
 * What the skipped read also gave is the entries already present: on the remembered path every
 * entry counts as new (duplicates within the batch are still merged). An entry the log already
 * holds makes the caller's write fail on ledger_leaves' unique (log_seq, entry_hash), so it is
 * refused, never appended twice; and since `take` removed the entries of this tick's logs, any
 * retry of it reads from the database and deduplicates as before. The integrity checks of the read
 * path (a log smaller than its head, a frontier not folding to the stored root, a head behind) are
 * checks of the stored rows, so they run whenever the rows are read, and only then: a node
 * rewritten behind the service's back (triggers off) after this instance's last tick is refused by
 * the next one that reads the log (another instance, a restart, this one after a settle), not by a
 * tick from memory, which never uses the rewritten row and signs the true extension of its head.
 */
export async function prepareGroupAppend(
  tx: SqlExecutor,
  signer: PgLogHeads,
  appends: readonly LogAppend[],
  frontiers?: FrontierCache,
  prelocked?: LockedLogSizes,
): Promise<PreparedAppend> {
  const byLog = new Map<string, LedgerEntry[]>();
  for (const a of appends) {
    a.entries.forEach((e) => {
      checkEntryHash(e.entryHash);
      checkEntry(e);
    });
    byLog.set(a.logId, [...(byLog.get(a.logId) ?? []), ...a.entries]);
  }
  const logs = [...byLog.keys()].map((logId) => ({ logId, seq: parseLedgerId(logId).toString() })).sort((x, y) => (BigInt(x.seq) < BigInt(y.seq) ? -1 : 1));
  const write: LedgerWriteParams = [[], [], [], [], [], [], [], [], [], [], [], [], [], [], [], [], [], []];
  const results = new Map<string, AppendResult[]>();
  if (logs.length === 0) return { results, heads: [], write, remembered: [] };

  // Logs the caller locked already (a Family B tick locks them with its status lists, one round
  // trip fewer); any other is locked here, after them, in seq order.
  const sizes = new Map<string, number>();
  for (const l of logs) {
    const size = prelocked?.get(l.seq);
    if (size !== undefined) sizes.set(l.seq, size);
  }
  const toLock = logs.filter((l) => !sizes.has(l.seq));
  if (toLock.length > 0) {
    const locked = await run(tx, lockLogs, [toLock.map((l) => l.seq)]);
    for (const r of locked) sizes.set(r.seq, Number(r.tree_size));
  }
  if (sizes.size !== logs.length) throw logNotFound();

  // Taken (removed) whether usable or not: see FrontierCache for why no later attempt may see it.
  const remembered = new Map<string, Frontier>();
  for (const l of logs) {
    const entry = frontiers?.take(l.seq);
    if (entry && entry.size === sizes.get(l.seq) && (await foldsTo(entry))) remembered.set(l.seq, entry);
  }
  const unread = logs.filter((l) => !remembered.has(l.seq));

  const stored = new Map<string, { size: number; root: Uint8Array }>();
  const nodes = new Map<string, Map<string, Uint8Array>>();
  const known = new Map<string, Map<string, number>>();
  for (const [seq, entry] of remembered) {
    stored.set(seq, { size: entry.size, root: entry.root });
    nodes.set(seq, new Map(entry.nodes));
  }
  if (unread.length > 0) {
    const frontier = unread.flatMap((l) => perfectTiles(0, sizes.get(l.seq)!).map((t) => ({ seq: l.seq, ...t })));
    const asked = unread.flatMap((l) => byLog.get(l.logId)!.map((e) => ({ seq: l.seq, entryHash: hex(e.entryHash) })));
    const state = await run(tx, readLogState, [
      unread.map((l) => l.seq),
      frontier.map((n) => n.seq),
      frontier.map((n) => n.level),
      frontier.map((n) => n.index),
      asked.map((e) => e.seq),
      asked.map((e) => e.entryHash),
    ]);
    for (const row of state) {
      const hash = Uint8Array.from(row.hash);
      if (row.what === 'head') stored.set(row.log_seq, { size: Number(row.a), root: hash });
      else if (row.what === 'node') mapOf(nodes, row.log_seq).set(`${row.a}/${row.b}`, hash);
      else mapOf(known, row.log_seq).set(hex(hash), Number(row.a));
    }
  }

  const behind: string[] = [];
  const heads: LedgerCheckpoint[] = [];
  for (const { logId, seq } of logs) {
    const size = sizes.get(seq)!;
    const head = stored.get(seq);
    const reader = new FrontierReader(nodes.get(seq) ?? new Map());
    if (head && head.size > size) throw signer.integrityFailure(logId, head.size, size, `the log has ${size} leaves, smaller than its signed head of ${head.size}`);
    if ((head?.size ?? 0) < size) {
      behind.push(logId);
      continue;
    }
    // The stored tree is the one its signed head commits to: its frontier folds to that root.
    if (head && !remembered.has(seq) && !equalBytes(await rootOf(size, reader), head.root)) {
      throw signer.integrityFailure(logId, head.size, size, `the stored frontier of ${size} leaves does not fold to the signed root`);
    }
    const seen = mapOf(known, seq);
    const fresh: { index: number; entry: LedgerEntry; leaf: Uint8Array }[] = [];
    const out = byLog.get(logId)!.map((entry): AppendResult => {
      const key = hex(entry.entryHash);
      const index = seen.get(key);
      if (index !== undefined) return { leafIndex: index, created: false };
      const next = size + fresh.length;
      if (next >= MAX_LOG_SIZE) throw new AppError('CONFLICT', 'ledger log is full');
      seen.set(key, next);
      fresh.push({ index: next, entry, leaf: leafHash(entry.entryHash) });
      return { leafIndex: next, created: true };
    });
    results.set(logId, out);
    if (fresh.length === 0) continue;

    const created = await appendLeaves(size, fresh.map((f) => f.leaf), reader);
    const grown = new Map(nodes.get(seq) ?? []);
    for (const n of created) grown.set(`${n.level}/${n.index}`, n.hash);
    const newSize = size + fresh.length;
    const root = await rootOf(newSize, new FrontierReader(grown));
    const checkpoint = signer.signExtension(logId, newSize, root);
    heads.push(checkpoint);
    // The new frontier: old tiles that stay, and created nodes. Usable once the caller's commit
    // returned and it handed this head to `Ledger.committed`.
    frontiers?.stage(checkpoint, seq, { size: newSize, root, nodes: new Map(perfectTiles(0, newSize).map((t) => [`${t.level}/${t.index}`, grown.get(`${t.level}/${t.index}`)!])) });

    for (const f of fresh) {
      write[0].push(seq);
      write[1].push(f.index);
      write[2].push(hex(f.entry.entryHash));
      write[3].push(hex(f.leaf));
      write[4].push(f.entry.kind);
      write[5].push(f.entry.ref);
    }
    for (const n of created) {
      write[6].push(seq);
      write[7].push(n.level);
      write[8].push(n.index);
      write[9].push(hex(n.hash));
    }
    write[10].push(seq);
    write[11].push(newSize);
    write[12].push(seq);
    write[13].push(newSize);
    write[14].push(hex(root));
    write[15].push(checkpoint.note);
    write[16].push(checkpoint.signedAt);
    write[17].push(logId);
  }
  if (behind.length > 0) throw new HeadsBehindError(behind);
  return { results, heads, write, remembered: logs.filter((l) => remembered.has(l.seq)).map((l) => l.logId) };
}

/** A remembered frontier still folds to the root signed from it (a guard against our own bugs: it always should). */
async function foldsTo(entry: Frontier): Promise<boolean> {
  try {
    return equalBytes(await rootOf(entry.size, new FrontierReader(entry.nodes)), entry.root);
  } catch {
    return false; // a tile missing from the entry: read the log instead
  }
}

/** RFC 9162 MTH of the first `size` leaves from the frontier (the tiles of [0, size)). */
async function rootOf(size: number, reader: NodeReader): Promise<Uint8Array> {
  if (size === 0) return EMPTY_ROOT.slice();
  return foldRight(await reader.getNodes(perfectTiles(0, size)));
}

function mapOf<V>(outer: Map<string, Map<string, V>>, key: string): Map<string, V> {
  let inner = outer.get(key);
  if (!inner) outer.set(key, (inner = new Map()));
  return inner;
}
