import { readFileSync, writeFileSync } from 'node:fs';
import { type ArchiveHeader, LineMac, deriveArchiveKeys } from '../../src/cli/archive-format';
import { type NodeReader, appendLeaf, formatCheckpoint, leafHash, rootAt, signNote } from '../../src/domain/merkle';

export type Row = Record<string, unknown>;

/** An archive opened for editing: its header and its `{ table, row }` lines (the end line is recomputed on save). */
export interface EditableArchive {
  header: { -readonly [K in keyof ArchiveHeader]: ArchiveHeader[K] };
  lines: { table: string; row: Row }[];
}

export function readArchive(file: string): EditableArchive {
  const [header, ...rest] = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  return { header: header as EditableArchive['header'], lines: rest.filter((l) => l['end'] !== true) as EditableArchive['lines'] };
}

/**
 * Writes the archive with a valid MAC under `passphrase`: what anyone who holds the passphrase can
 * do, so these files pass the integrity check and test what the import trusts beyond it.
 */
export function writeArchive(file: string, archive: EditableArchive, passphrase: string): void {
  const mac = new LineMac(deriveArchiveKeys(passphrase, archive.header.kdf).macKey);
  const out = [JSON.stringify(archive.header), ...archive.lines.map((l) => JSON.stringify(l))];
  for (const l of out) mac.add(l);
  writeFileSync(file, `${[...out, mac.endLine()].join('\n')}\n`);
}

/** A fresh deep copy, so each attack edits its own archive. */
export const copyArchive = (a: EditableArchive): EditableArchive => JSON.parse(JSON.stringify(a)) as EditableArchive;

export const rowsOf = (a: EditableArchive, table: string): Row[] => a.lines.filter((l) => l.table === table).map((l) => l.row);

const hex = (b: Uint8Array): string => `\\x${Buffer.from(b).toString('hex')}`;
const bytes = (v: unknown): Uint8Array => new Uint8Array(Buffer.from(String(v).replace(/^\\x/, ''), 'hex'));

/**
 * Recomputes log `seq`'s leaf hashes and nodes from its (possibly edited) entry hashes, as a
 * forger would, and returns the root of its first `size` leaves. Node lines are replaced in place.
 */
export async function rebuildLog(a: EditableArchive, seq: string, size: number): Promise<Uint8Array> {
  const nodes = new Map<string, Uint8Array>();
  const reader: NodeReader = { getNodes: async (ids) => ids.map(({ level, index }) => nodes.get(`${level}/${index}`)!) };
  const leaves = rowsOf(a, 'ledger_leaves')
    .filter((r) => String(r['log_seq']) === seq)
    .sort((x, y) => Number(x['index']) - Number(y['index']));
  let root: Uint8Array | undefined;
  for (const [i, leaf] of leaves.entries()) {
    const lh = leafHash(bytes(leaf['entry_hash']));
    leaf['leaf_hash'] = hex(lh);
    for (const n of await appendLeaf(i, lh, reader)) nodes.set(`${n.level}/${n.index}`, n.hash);
    if (i + 1 === size) root = await rootAt(size, reader);
  }
  const first = a.lines.findIndex((l) => l.table === 'ledger_nodes' && String(l.row['log_seq']) === seq);
  const kept = a.lines.filter((l) => !(l.table === 'ledger_nodes' && String(l.row['log_seq']) === seq));
  const rebuilt = [...nodes].map(([id, hash]) => {
    const [level, index] = id.split('/').map(Number);
    return { table: 'ledger_nodes', row: { log_seq: Number(seq), level, index, hash: hex(hash) } };
  });
  kept.splice(first, 0, ...rebuilt);
  a.lines = kept;
  if (!root) throw new Error(`log ${seq} has fewer than ${size} leaves`);
  return root;
}

/** Replaces log `seq`'s head note and root by a checkpoint of `root` signed with `signer` (a forger's key). */
export function resignHead(a: EditableArchive, seq: string, root: Uint8Array, signer: { name: string; seed: Uint8Array }): void {
  const head = rowsOf(a, 'ledger_heads').find((r) => String(r['log_seq']) === seq)!;
  head['root_hash'] = hex(root);
  head['note'] = signNote(formatCheckpoint({ origin: `${signer.name}/0.0.${seq}`, size: Number(head['tree_size']), rootHash: root }), signer);
}
