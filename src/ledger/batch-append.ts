import { AppError, invalidInput } from '../errors';
import { appendLeaves, leafHash } from '../domain/merkle';
import type { Prisma } from '../db/database';
import type { AppendResult, LedgerEntry } from './ledger.port';
import { PgNodeReader } from './pg-node-reader';

/** tree_size and the leaf/node indices are INTEGER columns. */
const MAX_LOG_SIZE = 2 ** 31 - 1;
const MAX_KIND = 100;
const MAX_REF = 2048;

export const logNotFound = (): AppError => new AppError('NOT_FOUND', 'ledger log not found');

export function checkEntryHash(entryHash: Uint8Array): Uint8Array<ArrayBuffer> {
  if (!(entryHash instanceof Uint8Array) || entryHash.length !== 32) {
    throw invalidInput('entryHash must be exactly 32 bytes', [{ field: 'entryHash', message: '32 bytes' }]);
  }
  return Uint8Array.from(entryHash);
}

export function checkEntry(entry: LedgerEntry): void {
  if (typeof entry.kind !== 'string' || entry.kind === '' || entry.kind.length > MAX_KIND) {
    throw invalidInput(`entry kind must be a non-empty string of at most ${MAX_KIND} characters`);
  }
  if (typeof entry.ref !== 'string' || entry.ref.length > MAX_REF) {
    throw invalidInput(`entry ref must be a string of at most ${MAX_REF} characters`);
  }
}

/**
 * Appends `entries` to one log inside the caller's transaction with one lock of the log row, one
 * read of the entries already present, one read of the stored nodes the new ones merge with, and
 * one multi-row insert each of leaves and nodes, then one tree_size update. The new nodes are
 * computed in memory (`appendLeaves` combines the batch's own nodes as it goes).
 *
 * Idempotent per entry hash, within the batch too: a hash already in the log (or earlier in the
 * batch) gets that leaf's index and `created: false`. Results are in the order of `entries`.
 */
export async function appendEntries(tx: Prisma.TransactionClient, logSeq: bigint, entries: readonly LedgerEntry[]): Promise<AppendResult[]> {
  const hashes = entries.map((e) => checkEntryHash(e.entryHash));
  entries.forEach(checkEntry);
  // The row lock serialises appends to one log (across connections and caller transactions).
  const heads = await tx.$queryRaw<{ tree_size: number }[]>`SELECT tree_size FROM ledger_logs WHERE seq = ${logSeq} FOR UPDATE`;
  const head = heads[0];
  if (!head) throw logNotFound();
  const size = Number(head.tree_size);
  if (entries.length === 0) return [];

  const known = new Map<string, number>();
  const existing = await tx.ledgerLeaf.findMany({ where: { logSeq, entryHash: { in: hashes } }, select: { index: true, entryHash: true } });
  for (const row of existing) known.set(Buffer.from(row.entryHash).toString('hex'), row.index);

  const results: AppendResult[] = [];
  const fresh: { index: number; entryHash: Uint8Array<ArrayBuffer>; leaf: Uint8Array; entry: LedgerEntry }[] = [];
  hashes.forEach((entryHash, i) => {
    const hex = Buffer.from(entryHash).toString('hex');
    const index = known.get(hex);
    if (index !== undefined) {
      results.push({ leafIndex: index, created: false });
      return;
    }
    const next = size + fresh.length;
    if (next >= MAX_LOG_SIZE) throw new AppError('CONFLICT', 'ledger log is full');
    known.set(hex, next);
    fresh.push({ index: next, entryHash, leaf: leafHash(entryHash), entry: entries[i]! });
    results.push({ leafIndex: next, created: true });
  });
  if (fresh.length === 0) return results;

  const nodes = await appendLeaves(size, fresh.map((f) => f.leaf), new PgNodeReader(tx, logSeq));
  await tx.ledgerLeaf.createMany({
    data: fresh.map((f) => ({ logSeq, index: f.index, entryHash: f.entryHash, leafHash: Uint8Array.from(f.leaf), kind: f.entry.kind, ref: f.entry.ref })),
  });
  await tx.ledgerNode.createMany({ data: nodes.map((n) => ({ logSeq, level: n.level, index: n.index, hash: Uint8Array.from(n.hash) })) });
  await tx.ledgerLog.update({ where: { seq: logSeq }, data: { treeSize: size + fresh.length } });
  return results;
}
