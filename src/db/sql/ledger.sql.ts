import { statement } from './statement';

/**
 * The ledger's hand-written statements (the group append of src/ledger/group-append.ts). Bytea as
 * hex text, bigint as text: see statement.ts.
 */

const LEDGER_USES = {
  ledger_leaves: { log_seq: 'int8', index: 'int4', entry_hash: 'bytea', leaf_hash: 'bytea', kind: 'text', ref: 'text' },
  ledger_nodes: { log_seq: 'int8', level: 'int4', index: 'int4', hash: 'bytea' },
  ledger_logs: { seq: 'int8', tree_size: 'int4' },
  ledger_heads: { log_seq: 'int8', tree_size: 'int4', root_hash: 'bytea', note: 'text', signed_at: 'timestamptz' },
  anchor_outbox: { log_id: 'text', tree_size: 'int4', root_hash: 'bytea', note: 'text' },
} as const;

/**
 * The log rows of a group, locked in one order (by seq) so two groups touching the same logs
 * cannot deadlock. Alone in its statement on purpose: what is read after the lock (nodes, heads)
 * must come from a later statement, whose snapshot sees the commit of whoever held it before.
 */
export const lockLogs = statement<[seqs: string[]], { seq: string; tree_size: number }>(
  'credgate_ledger_lock_logs',
  { ledger_logs: { seq: 'int8', tree_size: 'int4' } },
  `SELECT seq::text AS seq, tree_size FROM ledger_logs WHERE seq = ANY($1::bigint[]) ORDER BY seq FOR UPDATE`,
);

export interface LogStateRow {
  /** 'head' (a = tree size), 'node' (a = level, b = index) or 'leaf' (a = index; hash = entry hash). */
  readonly what: 'head' | 'node' | 'leaf';
  readonly log_seq: string;
  readonly a: number;
  readonly b: number;
  readonly hash: Uint8Array;
}

/**
 * Everything a group append reads once its logs are locked, in one round trip: each log's stored
 * head, its frontier nodes (the perfect tiles of [0, size): what the append merges with, and
 * what the stored head's root must fold to) and the entries of the batch it already holds.
 */
export const readLogState = statement<
  [headSeqs: string[], nodeSeqs: string[], nodeLevels: number[], nodeIndices: number[], leafSeqs: string[], leafEntryHashes: string[]],
  LogStateRow
>(
  'credgate_ledger_read_state',
  {
    ledger_heads: { log_seq: 'int8', tree_size: 'int4', root_hash: 'bytea' },
    ledger_nodes: { log_seq: 'int8', level: 'int4', index: 'int4', hash: 'bytea' },
    ledger_leaves: { log_seq: 'int8', index: 'int4', entry_hash: 'bytea' },
  },
  `SELECT 'head' AS what, h.log_seq::text AS log_seq, h.tree_size AS a, 0 AS b, h.root_hash AS hash
     FROM ledger_heads h WHERE h.log_seq = ANY($1::bigint[])
   UNION ALL
   SELECT 'node', n.log_seq::text, n.level, n.index, n.hash
     FROM ledger_nodes n JOIN unnest($2::bigint[], $3::int[], $4::int[]) AS w(log_seq, level, idx)
       ON n.log_seq = w.log_seq AND n.level = w.level AND n.index = w.idx
   UNION ALL
   SELECT 'leaf', l.log_seq::text, l.index, 0, l.entry_hash
     FROM ledger_leaves l JOIN unnest($5::bigint[], $6::text[]) AS e(log_seq, entry_hash)
       ON l.log_seq = e.log_seq AND l.entry_hash = decode(e.entry_hash, 'hex')`,
);

/** The rows a group append writes, as the parameter arrays of `ledgerWriteCtes` (in that order). */
export type LedgerWriteParams = [
  leafSeqs: string[], leafIndices: number[], leafEntryHashes: string[], leafHashes: string[], leafKinds: string[], leafRefs: string[],
  nodeSeqs: string[], nodeLevels: number[], nodeIndices: number[], nodeHashes: string[],
  logSeqs: string[], logSizes: number[],
  headSeqs: string[], headSizes: number[], headRoots: string[], headNotes: string[], headSignedAt: string[], headLogIds: string[],
];
export const LEDGER_WRITE_PARAMS = 18;

/**
 * The data-modifying CTEs that store a group append: leaves, nodes, the new tree sizes, the
 * signed heads and their anchor outbox rows (src/anchor/outbox.ts: idempotent on (log, size)),
 * numbered from parameter `from`. Composed into one statement with the caller's own writes.
 */
export function ledgerWriteCtes(from: number): string {
  const p = (i: number): string => `$${from + i}`;
  return `
  ledger_leaf_rows AS (INSERT INTO ledger_leaves (log_seq, index, entry_hash, leaf_hash, kind, ref)
    SELECT l.log_seq, l.idx, decode(l.entry_hash, 'hex'), decode(l.leaf_hash, 'hex'), l.kind, l.ref
    FROM unnest(${p(0)}::bigint[], ${p(1)}::int[], ${p(2)}::text[], ${p(3)}::text[], ${p(4)}::text[], ${p(5)}::text[]) AS l(log_seq, idx, entry_hash, leaf_hash, kind, ref)),
  ledger_node_rows AS (INSERT INTO ledger_nodes (log_seq, level, index, hash)
    SELECT n.log_seq, n.level, n.idx, decode(n.hash, 'hex')
    FROM unnest(${p(6)}::bigint[], ${p(7)}::int[], ${p(8)}::int[], ${p(9)}::text[]) AS n(log_seq, level, idx, hash)),
  ledger_log_rows AS (UPDATE ledger_logs g SET tree_size = s.tree_size
    FROM unnest(${p(10)}::bigint[], ${p(11)}::int[]) AS s(seq, tree_size) WHERE g.seq = s.seq),
  ledger_head_rows AS (INSERT INTO ledger_heads (log_seq, tree_size, root_hash, note, signed_at)
    SELECT h.log_seq, h.tree_size, decode(h.root_hash, 'hex'), h.note, h.signed_at
    FROM unnest(${p(12)}::bigint[], ${p(13)}::int[], ${p(14)}::text[], ${p(15)}::text[], ${p(16)}::timestamptz[]) AS h(log_seq, tree_size, root_hash, note, signed_at)
    ON CONFLICT (log_seq) DO UPDATE SET tree_size = EXCLUDED.tree_size, root_hash = EXCLUDED.root_hash, note = EXCLUDED.note, signed_at = EXCLUDED.signed_at),
  anchor_outbox_rows AS (INSERT INTO anchor_outbox (log_id, tree_size, root_hash, note)
    SELECT o.log_id, o.tree_size, decode(o.root_hash, 'hex'), o.note
    FROM unnest(${p(17)}::text[], ${p(13)}::int[], ${p(14)}::text[], ${p(15)}::text[]) AS o(log_id, tree_size, root_hash, note)
    ON CONFLICT (log_id, tree_size) DO NOTHING)`;
}

/** A group append on its own (callers without writes of their own to add). */
export const writeLedger = statement<LedgerWriteParams, { ok: number }>(
  'credgate_ledger_write',
  LEDGER_USES,
  `WITH ${ledgerWriteCtes(1)} SELECT 1 AS ok`,
);

export { LEDGER_USES };

/** A leaf by its entry hash (a verification's ledger check). */
export const findLeaf = statement<[seq: string, entryHash: string], { index: number; kind: string; ref: string; leafHash: Uint8Array }>(
  'credgate_ledger_find_leaf',
  { ledger_leaves: { log_seq: 'int8', entry_hash: 'bytea', index: 'int4', kind: 'text', ref: 'text', leaf_hash: 'bytea' } },
  `SELECT index, kind, ref, leaf_hash AS "leafHash" FROM ledger_leaves WHERE log_seq = $1::bigint AND entry_hash = decode($2::text, 'hex')`,
);
