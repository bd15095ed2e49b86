import type { Database } from '../db/database';
import type { SqlExecutor } from '../db/sql-executor';
import {
  EMPTY_ROOT,
  type MerkleNode,
  type NodeId,
  type NodeReader,
  appendLeaves,
  consistencyProof,
  equalBytes,
  leafHash,
  openCheckpoint,
  publicKeyOf,
  rootAt,
  rootTiles,
  verifyConsistency,
} from '../domain/merkle';
import { PgNodeReader } from '../ledger/pg-node-reader';
import { type WitnessKey, readCosignatures, verifyCosignatureLine } from './ledger-cosignatures';
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
  /** Witness cosignatures (null: the database has no witness cosigning); `unchecked`: no key for the witness. */
  readonly cosignatures: { readonly verified: number; readonly unchecked: number } | null;
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
export async function verifyLedger(db: Database, seed: Uint8Array, witnesses: ReadonlyMap<string, WitnessKey>, progress: Progress, chunk = CHUNK): Promise<LedgerReport> {
  const publicKey = publicKeyOf(seed);
  const cosignatures = await readCosignatures(db.sql);
  let cosigned = 0;
  let unchecked = 0;
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
    // Roots are wanted at every size a head or a cosignature names.
    const wanted = new Set([...headRows.map((h) => Number(h.tree_size)), ...(cosignatures ?? []).filter((c) => c.log_seq === log.seq).map((c) => Number(c.tree_size))]);
    const rootsAt = await checkLogTree(db.sql, log.seq, size, wanted, report, progress, chunk);

    const origin = await checkHeads(db, log.seq, size, headRows, rootsAt, publicKey, report);
    const mine = (cosignatures ?? []).filter((c) => c.log_seq === log.seq);
    for (const c of mine) {
      const root = rootsAt.get(Number(c.tree_size));
      const key = witnesses.get(c.witness);
      if (!key) unchecked++;
      else if (!root || origin === undefined) report(`cosignature by ${c.witness} at size ${c.tree_size}: no tree of that size to check it against`);
      else if (!verifyCosignatureLine(c.line, key, { origin, size: Number(c.tree_size), rootHash: root })) report(`cosignature by ${c.witness} at size ${c.tree_size} does not verify`);
      else cosigned++;
    }
  }
  progress.finish();
  return { logs: logs.length, leaves: totalLeaves, heads, problems, cosignatures: cosignatures === null ? null : { verified: cosigned, unchecked } };
}

/**
 * Recomputes one log from its leaf rows: every node they produce must be stored with that hash and
 * no other node stored; returns the root at each wanted size (0 included). Shared by `ledger
 * verify` and `import`, which runs it inside its transaction on the rows it just wrote.
 */
export async function checkLogTree(
  sql: SqlExecutor,
  seq: string,
  size: number,
  wanted: ReadonlySet<number>,
  report: (m: string) => void,
  progress: Progress,
  chunk = CHUNK,
): Promise<Map<number, Uint8Array>> {
  const walked = await walkLeaves(sql, seq, size, chunk, wanted, report, progress);
  if (wanted.has(0)) walked.rootsAt.set(0, EMPTY_ROOT);
  const storedNodes = await sql.query<{ n: string }>('SELECT count(*)::text AS n FROM ledger_nodes WHERE log_seq = $1', [seq]);
  if (Number(storedNodes[0]!.n) > walked.nodes) report(`${Number(storedNodes[0]!.n) - walked.nodes} stored node(s) are not produced by the leaves`);
  return walked.rootsAt;
}

/**
 * Each stored head: within the log, its root the one the leaves give, its note signed by the log
 * key and stating that size and root; successive heads consistent. Returns the checkpoint origin.
 */
async function checkHeads(
  db: Database,
  seq: string,
  size: number,
  headRows: readonly HeadRow[],
  rootsAt: ReadonlyMap<number, Uint8Array>,
  publicKey: Uint8Array,
  report: (m: string) => void,
): Promise<string | undefined> {
  const logId = `0.0.${seq}`;
  let previous: { size: number; root: Uint8Array } | undefined;
  let origin: string | undefined;
  for (const h of headRows) {
    const hs = Number(h.tree_size);
    const root = rootsAt.get(hs);
    if (hs > size) report(`signed head of size ${hs} is larger than the log (${size} leaves)`);
    else if (!root || !equalBytes(root, bytes(h.root_hash))) report(`signed head of size ${hs}: its root is not the root of the first ${hs} leaves`);
    const noteOrigin = /^([^\n]*)\n/.exec(h.note)?.[1] ?? '';
    const name = noteOrigin.endsWith(`/${logId}`) ? noteOrigin.slice(0, -`/${logId}`.length) : '';
    const opened = openCheckpoint(h.note, { name, publicKey }, noteOrigin);
    if (!opened.verified || !opened.checkpoint) report(`signed head of size ${hs}: signature does not verify under the log key (${opened.reason ?? 'not verified'})`);
    else if (opened.checkpoint.size !== hs || !equalBytes(opened.checkpoint.rootHash, bytes(h.root_hash))) report(`signed head of size ${hs}: the signed note does not state the stored size and root`);
    else origin = noteOrigin;
    if (previous && root && hs <= size) {
      const proof = await consistencyProof(previous.size, hs, new PgNodeReader(db.prisma, BigInt(seq))).catch(() => undefined);
      if (!proof || !verifyConsistency(previous.size, hs, proof, previous.root, root)) report(`signed heads of size ${previous.size} and ${hs} are not consistent`);
    }
    if (root) previous = { size: hs, root };
  }
  return origin;
}

/** A NodeReader over nodes held in memory: the right edge of the prefix already read, plus the chunk's new nodes. */
function memoryReader(nodes: ReadonlyMap<string, Uint8Array>): NodeReader {
  return {
    getNodes: async (ids) =>
      ids.map(({ level, index }) => {
        const hash = nodes.get(`${level}/${index}`);
        // Cannot happen: appendLeaves and rootAt only ask for right-edge tiles of sizes already read.
        if (!hash) throw new Error(`ledger verify: node (${level}, ${index}) not in memory`);
        return hash;
      }),
  };
}

/**
 * Streams a log's leaves in chunks and grows the tree from their entry hashes with the domain's
 * appendLeaves (only the right edge is kept between chunks), comparing every node it produces
 * with the stored one and noting the root at each size a head was signed at.
 */
async function walkLeaves(
  sql: SqlExecutor,
  seq: string,
  size: number,
  chunk: number,
  wanted: ReadonlySet<number>,
  report: (m: string) => void,
  progress: Progress,
): Promise<{ rootsAt: Map<number, Uint8Array>; nodes: number }> {
  const rootsAt = new Map<number, Uint8Array>();
  const key = (n: NodeId): string => `${n.level}/${n.index}`;
  let edge = new Map<string, Uint8Array>();
  let nodes = 0;
  for (let start = 0; start < size; start += chunk) {
    const end = Math.min(size, start + chunk);
    const leaves = await sql.query<{ index: number; entry_hash: Uint8Array; leaf_hash: Uint8Array }>(
      'SELECT index, entry_hash, leaf_hash FROM ledger_leaves WHERE log_seq = $1 AND index >= $2 AND index < $3 ORDER BY index',
      [seq, start, end],
    );
    const gap = leaves.findIndex((l, i) => l.index !== start + i);
    if (gap !== -1 || leaves.length < end - start) {
      report(`leaf ${gap === -1 ? start + leaves.length : start + gap} is missing`);
      break;
    }
    // The tree is built from the entry hashes, so a rewritten leaf_hash column cannot hide a rewritten entry.
    const hashes = leaves.map((l) => leafHash(bytes(l.entry_hash)));
    leaves.forEach((l, i) => {
      if (!equalBytes(hashes[i]!, bytes(l.leaf_hash))) report(`leaf ${l.index}: leaf hash is not the hash of its entry`);
    });
    const created = await appendLeaves(start, hashes, memoryReader(edge));
    const known = new Map([...edge, ...created.map((n): [string, Uint8Array] => [key(n), n.hash])]);
    for (let hs = start + 1; hs <= end; hs++) if (wanted.has(hs)) rootsAt.set(hs, await rootAt(hs, memoryReader(known)));
    await compareNodes(sql, seq, created, report);
    nodes += created.length;
    edge = new Map(rootTiles(end).map((id): [string, Uint8Array] => [key(id), known.get(key(id))!]));
    progress.done(end - start);
  }
  return { rootsAt, nodes };
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
