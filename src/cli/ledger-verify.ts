import type { Database } from '../db/database';
import type { SqlExecutor } from '../db/sql-executor';
import {
  EMPTY_ROOT,
  type MerkleNode,
  consistencyProof,
  equalBytes,
  foldRight,
  leafHash,
  nodeHash,
  openCheckpoint,
  publicKeyOf,
  verifyConsistency,
} from '../domain/merkle';
import { PgNodeReader } from '../ledger/pg-node-reader';
import type { Progress } from './progress';

/** Leaves (and their nodes) read per query: memory stays bounded whatever the log size. */
const CHUNK = 5_000;

export interface LedgerProblem {
  readonly logId: string;
  readonly message: string;
}

export interface LedgerReport {
  readonly logs: number;
  readonly leaves: number;
  readonly heads: number;
  readonly problems: readonly LedgerProblem[];
}

interface HeadRow {
  readonly tree_size: number;
  readonly root_hash: Uint8Array;
  readonly note: string;
}

const bytes = (b: Uint8Array): Uint8Array => Uint8Array.from(b);

/**
 * Checks every log from its rows alone, trusting nothing derived: leaf hashes against entries, the
 * root recomputed from the leaves, every stored node against the nodes it covers (and no stored
 * node the leaves do not produce), each stored signed head's signature (under the deployment's
 * log key), size and root, and consistency between successive heads. Problems are collected, not
 * thrown, so one report names all of them (log id and leaf/node index).
 */
export async function verifyLedger(db: Database, seed: Uint8Array, progress: Progress): Promise<LedgerReport> {
  const publicKey = publicKeyOf(seed);
  const logs = await db.sql.query<{ seq: string; tree_size: number }>('SELECT seq::text AS seq, tree_size FROM ledger_logs ORDER BY seq');
  const totalLeaves = logs.reduce((n, l) => n + Number(l.tree_size), 0);
  const problems: LedgerProblem[] = [];
  let heads = 0;
  progress.start('ledger verify', totalLeaves);
  for (const log of logs) {
    const logId = `0.0.${log.seq}`;
    const report = (message: string): void => void problems.push({ logId, message });
    const size = Number(log.tree_size);
    const headRows = await db.sql.query<HeadRow>('SELECT tree_size, root_hash, note FROM ledger_heads WHERE log_seq = $1 ORDER BY tree_size', [log.seq]);
    heads += headRows.length;
    const rootsAt = new Map<number, Uint8Array>();
    const wanted = new Set(headRows.map((h) => Number(h.tree_size)));
    if (wanted.has(0)) rootsAt.set(0, EMPTY_ROOT);

    // Perfect subtrees of the prefix read so far, largest first (as appendLeaves keeps them).
    const stack: MerkleNode[] = [];
    let nodesSeen = 0;
    for (let start = 0; start < size; start += CHUNK) {
      const end = Math.min(size, start + CHUNK);
      const leaves = await db.sql.query<{ index: number; entry_hash: Uint8Array; leaf_hash: Uint8Array }>(
        'SELECT index, entry_hash, leaf_hash FROM ledger_leaves WHERE log_seq = $1 AND index >= $2 AND index < $3 ORDER BY index',
        [log.seq, start, end],
      );
      const computed: MerkleNode[] = [];
      let expectIndex = start;
      for (const leaf of leaves) {
        if (leaf.index !== expectIndex) {
          report(`leaf ${expectIndex} is missing`);
          break;
        }
        if (!equalBytes(leafHash(bytes(leaf.entry_hash)), bytes(leaf.leaf_hash))) report(`leaf ${leaf.index}: leaf hash is not the hash of its entry`);
        // The tree is built from the entry hashes, so a rewritten leaf_hash column cannot hide a rewritten entry.
        let node: MerkleNode = { level: 0, index: leaf.index, hash: leafHash(bytes(leaf.entry_hash)) };
        computed.push(node);
        for (let top = stack.at(-1); top !== undefined && top.level === node.level; top = stack.at(-1)) {
          stack.pop();
          node = { level: node.level + 1, index: top.index / 2, hash: nodeHash(top.hash, node.hash) };
          computed.push(node);
        }
        stack.push(node);
        expectIndex++;
        if (wanted.has(expectIndex)) rootsAt.set(expectIndex, foldRight(stack.map((n) => n.hash)));
      }
      if (expectIndex < end) {
        if (leaves.length === 0 || leaves.at(-1)!.index < end - 1) report(`leaves ${expectIndex}..${end - 1} are missing`);
        break;
      }
      nodesSeen += computed.length;
      await compareNodes(db.sql, log.seq, computed, report);
      progress.done(end - start);
    }
    const storedNodes = await db.sql.query<{ n: string }>('SELECT count(*)::text AS n FROM ledger_nodes WHERE log_seq = $1', [log.seq]);
    if (Number(storedNodes[0]!.n) > nodesSeen) report(`${Number(storedNodes[0]!.n) - nodesSeen} stored node(s) are not produced by the leaves`);

    let previous: { size: number; root: Uint8Array } | undefined;
    for (const h of headRows) {
      const hs = Number(h.tree_size);
      const root = rootsAt.get(hs);
      if (hs > size) report(`signed head of size ${hs} is larger than the log (${size} leaves)`);
      else if (!root || !equalBytes(root, bytes(h.root_hash))) report(`signed head of size ${hs}: its root is not the root of the first ${hs} leaves`);
      const origin = /^([^\n]*)\n/.exec(h.note)?.[1] ?? '';
      const name = origin.endsWith(`/${logId}`) ? origin.slice(0, -`/${logId}`.length) : '';
      const opened = openCheckpoint(h.note, { name, publicKey }, origin);
      if (!opened.verified || !opened.checkpoint) report(`signed head of size ${hs}: signature does not verify under the log key (${opened.reason ?? 'not verified'})`);
      else if (opened.checkpoint.size !== hs || !equalBytes(opened.checkpoint.rootHash, bytes(h.root_hash))) report(`signed head of size ${hs}: the signed note does not state the stored size and root`);
      if (previous && root && hs <= size) {
        const proof = await consistencyProof(previous.size, hs, new PgNodeReader(db.prisma, BigInt(log.seq))).catch(() => undefined);
        if (!proof || !verifyConsistency(previous.size, hs, proof, previous.root, root)) report(`signed heads of size ${previous.size} and ${hs} are not consistent`);
      }
      if (root) previous = { size: hs, root };
    }
  }
  progress.finish();
  return { logs: logs.length, leaves: totalLeaves, heads, problems };
}

/** Every node the leaves produce must be stored, with the hash they produce. */
async function compareNodes(sql: SqlExecutor, seq: string, computed: readonly MerkleNode[], report: (m: string) => void): Promise<void> {
  if (computed.length === 0) return;
  const rows = await sql.query<{ level: number; index: number; hash: Uint8Array }>(
    'SELECT n.level, n.index, n.hash FROM ledger_nodes n JOIN unnest($2::int[], $3::int[]) AS w(level, index) ON n.level = w.level AND n.index = w.index WHERE n.log_seq = $1',
    [seq, computed.map((n) => n.level), computed.map((n) => n.index)],
  );
  const stored = new Map(rows.map((r) => [`${r.level}/${r.index}`, bytes(r.hash)]));
  for (const n of computed) {
    const hash = stored.get(`${n.level}/${n.index}`);
    if (!hash) report(`node (${n.level}, ${n.index}) is missing`);
    else if (!equalBytes(hash, n.hash) && n.level === 0) report(`leaf ${n.index}: its entry does not match the stored node (0, ${n.index})`);
    else if (!equalBytes(hash, n.hash)) report(`node (${n.level}, ${n.index}) does not match the leaves below it (stored ${Buffer.from(hash).toString('hex').slice(0, 16)}…)`);
  }
}
