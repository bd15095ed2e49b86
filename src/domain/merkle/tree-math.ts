/**
 * Pure index arithmetic for an RFC 9162 Merkle tree whose *perfect* subtrees are addressed as
 * (level, index): node (level, index) covers leaves [index·2^level, (index+1)·2^level), and
 * level 0 holds the leaf hashes. Only perfect nodes are ever stored; the imperfect right edge of
 * a tree of size n is recomputed on the fly from the perfect nodes that tile it.
 *
 * Sizes and indices are JavaScript numbers. All arithmetic below is exact for values up to
 * Number.MAX_SAFE_INTEGER (2^53 − 1); bitwise operators are deliberately avoided because they
 * truncate to 32 bits. Trees larger than 2^53 − 1 leaves are rejected as INVALID_INPUT.
 */
import { AppError } from '../../errors';

/** Address of a perfect subtree. */
export interface NodeId {
  readonly level: number;
  readonly index: number;
}

/** A half-open leaf range [begin, end) whose MTH appears in a proof. */
export interface Span {
  readonly begin: number;
  readonly end: number;
}

/** Largest supported tree size (2^53 − 1). */
export const MAX_TREE_SIZE = Number.MAX_SAFE_INTEGER;

/** Throws INVALID_INPUT unless `n` is an integer in [0, 2^53 − 1]. */
export function assertCount(what: string, n: number): void {
  if (!Number.isSafeInteger(n) || n < 0) {
    throw new AppError('INVALID_INPUT', `${what} must be an integer between 0 and 2^53-1`);
  }
}

/** 2^level as an exact double (level <= 1023, in practice <= 53). */
export function pow2(level: number): number {
  return 2 ** level;
}

/** Number of bits needed to write n (0 for n = 0). Loop, not Math.log2: log2 rounds near 2^53. */
export function bitLength(n: number): number {
  let bits = 0;
  for (let p = 1; p <= n; p *= 2) bits++;
  return bits;
}

/** Number of trailing zero bits of n > 0. */
export function trailingZeros(n: number): number {
  let z = 0;
  for (let v = n; v % 2 === 0; v /= 2) z++;
  return z;
}

export function isPowerOfTwo(n: number): boolean {
  return n > 0 && n === pow2(trailingZeros(n));
}

/** The leaf range a node covers. */
export function nodeSpan(id: NodeId): Span {
  const width = pow2(id.level);
  return { begin: id.index * width, end: (id.index + 1) * width };
}

/**
 * Tiles [begin, end) with perfect nodes, largest first (left to right). The range must start at a
 * multiple of the largest tile, which holds for every range RFC 9162 ever hashes (the whole tree,
 * and the right-truncated subtrees that appear in proofs). Its MTH is `foldRight` of the tiles.
 */
export function perfectTiles(begin: number, end: number): NodeId[] {
  const tiles: NodeId[] = [];
  let pos = begin;
  let remaining = end - begin;
  for (let level = bitLength(remaining) - 1; level >= 0; level--) {
    const width = pow2(level);
    if (remaining < width) continue;
    if (pos % width !== 0) throw new AppError('INTERNAL', 'unaligned Merkle range');
    tiles.push({ level, index: pos / width });
    pos += width;
    remaining -= width;
  }
  return tiles;
}

/** The perfect nodes whose right fold is MTH of the first `size` leaves (popcount(size) nodes). */
export function rootTiles(size: number): NodeId[] {
  return perfectTiles(0, size);
}

/**
 * Sibling ranges on the way from node (level, index) up to the root of a tree of `size` leaves,
 * lowest first. A sibling that starts at or beyond `size` does not exist in the RFC 9162 tree
 * (that level collapses), and a sibling crossing `size` is the imperfect right edge, truncated.
 * This is exactly the order of RFC 9162 §2.1.3.1 PATH and of the tail of §2.1.4.1 SUBPROOF.
 */
export function siblingSpans(level: number, index: number, size: number): Span[] {
  const spans: Span[] = [];
  let l = level;
  let i = index;
  // The ancestor (l, i) is the root once it starts at 0 and is at least as wide as the tree.
  while (!(i === 0 && pow2(l) >= size)) {
    const width = pow2(l);
    const sibling = i % 2 === 0 ? i + 1 : i - 1;
    const begin = sibling * width;
    if (begin < size) spans.push({ begin, end: Math.min(size, begin + width) });
    i = (i - (i % 2)) / 2;
    l++;
  }
  return spans;
}

/** Ranges whose MTHs form the inclusion proof of leaf `index` in a tree of `size` (§2.1.3.1). */
export function inclusionSpans(index: number, size: number): Span[] {
  return siblingSpans(0, index, size);
}

/**
 * Ranges whose MTHs form the consistency proof between sizes 0 < oldSize <= newSize (§2.1.4.1).
 *
 * SUBPROOF descends until it reaches the subtree equal to D[oldSize − 2^k : oldSize] with
 * k = trailingZeros(oldSize) — the smallest tile of the old tree, always a perfect node — and
 * then emits the siblings of that node's ancestors. The node itself is emitted first unless the
 * old tree is that node (oldSize a power of two), in which case the verifier already has it.
 */
export function consistencySpans(oldSize: number, newSize: number): Span[] {
  if (oldSize === newSize) return [];
  const level = trailingZeros(oldSize);
  const index = oldSize / pow2(level) - 1;
  const tail = siblingSpans(level, index, newSize);
  return isPowerOfTwo(oldSize) ? tail : [nodeSpan({ level, index }), ...tail];
}

/**
 * The tiles of the size-`size` tree that appending `count` leaves folds into new perfect parents,
 * i.e. the only stored nodes an append must read. A tile of level L (always a left child, since
 * everything left of it is covered by larger tiles) is merged once its parent, ending at
 * begin + 2^(L+1), is complete. For count = 1 these are one node per trailing one bit of `size`.
 */
export function mergedTiles(size: number, count: number): NodeId[] {
  return rootTiles(size).filter(
    ({ level, index }) => index * pow2(level) + pow2(level + 1) <= size + count,
  );
}
