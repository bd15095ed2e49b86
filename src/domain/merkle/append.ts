/**
 * Growing the tree and computing its root from stored perfect nodes only.
 *
 * Storage model: every perfect subtree node (level, index) is written exactly once, when its last
 * leaf arrives, and never changes afterwards. The imperfect right edge of a tree of size n is the
 * right fold of the popcount(n) perfect tiles of [0, n) (see `rootTiles`), so any historical root
 * can be recomputed with O(log n) reads and no per-size state.
 */
import { AppError } from '../../errors';
import { EMPTY_ROOT, foldRight, isHash, nodeHash } from './hash';
import { type NodeId, type Span, assertCount, mergedTiles, perfectTiles } from './tree-math';

/**
 * Source of stored perfect-node hashes. Batched so a database adapter can answer a whole
 * operation with one query. Must return the hashes in the order of `ids`, and must throw (for
 * example NOT_FOUND) rather than omit a node it does not have.
 */
export interface NodeReader {
  getNodes(ids: ReadonlyArray<{ level: number; index: number }>): Promise<Uint8Array[]>;
}

/** A perfect node to persist. */
export interface MerkleNode extends NodeId {
  readonly hash: Uint8Array;
}

/** Reads `ids` in one batch and checks the reader kept its contract. */
export async function readNodes(reader: NodeReader, ids: readonly NodeId[]): Promise<Uint8Array[]> {
  if (ids.length === 0) return [];
  const hashes = await reader.getNodes(ids);
  if (hashes.length !== ids.length || !hashes.every(isHash)) {
    throw new AppError('INTERNAL', 'Merkle node reader returned an unexpected result');
  }
  return hashes;
}

/**
 * The MTH of each span, computed from the perfect tiles of the span with a single batched read.
 * A perfect span costs one read; the (at most one) imperfect right-edge span of a proof costs
 * popcount(end − begin) reads.
 */
export async function hashSpans(spans: readonly Span[], reader: NodeReader): Promise<Uint8Array[]> {
  const tiles = spans.map((s) => perfectTiles(s.begin, s.end));
  const hashes = await readNodes(reader, tiles.flat());
  let next = 0;
  return tiles.map((t) => {
    const part = hashes.slice(next, next + t.length);
    next += t.length;
    return foldRight(part);
  });
}

/** RFC 9162 §2.1.1 MTH of the first `size` leaves, from O(log size) stored nodes. */
export async function rootAt(size: number, reader: NodeReader): Promise<Uint8Array> {
  assertCount('tree size', size);
  if (size === 0) return EMPTY_ROOT.slice();
  const [root] = await hashSpans([{ begin: 0, end: size }], reader);
  return root as Uint8Array;
}

/**
 * The new perfect nodes to store when `leafHashes` are appended to a tree of `size` leaves, in
 * creation order (each leaf, then the parents it completes, lowest first). Reads only the stored
 * tiles that get merged (at most one per level), in one batch; nodes created within the batch
 * are combined in memory.
 */
export async function appendLeaves(
  size: number,
  leafHashes: readonly Uint8Array[],
  reader: NodeReader,
): Promise<MerkleNode[]> {
  assertCount('tree size', size);
  assertCount('new tree size', size + leafHashes.length);
  if (!leafHashes.every(isHash)) throw new AppError('INVALID_INPUT', 'leaf hashes must be 32 bytes');
  const needed = mergedTiles(size, leafHashes.length);
  const hashes = await readNodes(reader, needed);
  // Right edge of completed-but-unmerged perfect nodes, largest (leftmost) first.
  const stack: MerkleNode[] = needed.map((id, i) => ({ ...id, hash: hashes[i] as Uint8Array }));
  const created: MerkleNode[] = [];
  leafHashes.forEach((hash, offset) => {
    let node: MerkleNode = { level: 0, index: size + offset, hash };
    created.push(node);
    for (let top = stack.at(-1); top !== undefined && top.level === node.level; top = stack.at(-1)) {
      stack.pop();
      node = { level: node.level + 1, index: top.index / 2, hash: nodeHash(top.hash, node.hash) };
      created.push(node);
    }
    stack.push(node);
  });
  return created;
}

/**
 * The new perfect nodes to store when the leaf at index `size` is added: the leaf itself, then
 * one parent per trailing one bit of `size`. Reads exactly those trailing-one left siblings.
 */
export async function appendLeaf(size: number, leafHash: Uint8Array, reader: NodeReader): Promise<MerkleNode[]> {
  return appendLeaves(size, [leafHash], reader);
}

/**
 * Reference MTH straight from RFC 9162 §2.1.1 over a list of leaf hashes (O(n); for tests and
 * small trees). D[0:k] is the largest power of two strictly below n.
 */
export function rootFromLeafHashes(hashes: readonly Uint8Array[]): Uint8Array {
  if (hashes.length === 0) return EMPTY_ROOT.slice();
  if (hashes.length === 1) return (hashes[0] as Uint8Array).slice();
  let k = 1;
  while (k * 2 < hashes.length) k *= 2;
  return nodeHash(rootFromLeafHashes(hashes.slice(0, k)), rootFromLeafHashes(hashes.slice(k)));
}
