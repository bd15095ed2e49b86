/**
 * RFC 9162 inclusion and consistency proofs: generation from stored perfect nodes, and the
 * verification algorithms of §2.1.3.2 and §2.1.4.2 transcribed step by step.
 *
 * Generation throws INVALID_INPUT for arguments that cannot describe a proof (index >= size,
 * oldSize > newSize, oldSize = 0). Verification never throws on a bad proof or on sizes that
 * cannot match (it returns false); it throws INVALID_INPUT only when a size or index is not an
 * integer in [0, 2^53 − 1], which this API cannot represent.
 */
import { AppError } from '../../errors';
import { type NodeReader, hashSpans } from './append';
import { equalBytes, isHash, nodeHash } from './hash';
import { assertCount, consistencySpans, inclusionSpans, isPowerOfTwo } from './tree-math';

/** PATH(index, D[size]) of RFC 9162 §2.1.3.1, lowest sibling first. */
export async function inclusionProof(index: number, size: number, reader: NodeReader): Promise<Uint8Array[]> {
  assertCount('leaf index', index);
  assertCount('tree size', size);
  if (index >= size) throw new AppError('INVALID_INPUT', 'leaf index must be below the tree size');
  return hashSpans(inclusionSpans(index, size), reader);
}

/**
 * PROOF(oldSize, D[newSize]) = SUBPROOF(oldSize, D[newSize], true) of RFC 9162 §2.1.4.1, for
 * 0 < oldSize <= newSize (equal sizes give the empty proof). A proof from the empty tree is not
 * defined: every tree extends it, so callers must special-case oldSize = 0 themselves.
 */
export async function consistencyProof(oldSize: number, newSize: number, reader: NodeReader): Promise<Uint8Array[]> {
  assertCount('old tree size', oldSize);
  assertCount('new tree size', newSize);
  if (oldSize === 0 || oldSize > newSize) {
    throw new AppError('INVALID_INPUT', 'consistency proofs need 0 < old size <= new size');
  }
  return hashSpans(consistencySpans(oldSize, newSize), reader);
}

const lsb = (n: number): boolean => n % 2 === 1;
const half = (n: number): number => Math.floor(n / 2);

/** RFC 9162 §2.1.3.2: does `proof` show `leafHash` at `index` in the tree of `size` with `root`? */
export function verifyInclusion(
  leafHash: Uint8Array,
  index: number,
  size: number,
  proof: readonly Uint8Array[],
  root: Uint8Array,
): boolean {
  assertCount('leaf index', index);
  assertCount('tree size', size);
  // Step 1. (Hash lengths are checked too, so nodeHash never sees malformed input.)
  if (index >= size) return false;
  if (!isHash(leafHash) || !isHash(root) || !proof.every(isHash)) return false;
  // Steps 2-3.
  let fn = index;
  let sn = size - 1;
  let r = leafHash;
  // Step 4.
  for (const p of proof) {
    if (sn === 0) return false;
    if (lsb(fn) || fn === sn) {
      r = nodeHash(p, r);
      if (!lsb(fn)) {
        while (!lsb(fn) && fn !== 0) {
          fn = half(fn);
          sn = half(sn);
        }
      }
    } else {
      r = nodeHash(r, p);
    }
    fn = half(fn);
    sn = half(sn);
  }
  // Step 5.
  return sn === 0 && equalBytes(r, root);
}

/**
 * RFC 9162 §2.1.4.2: does `proof` show that the tree of `newSize` with `newRoot` extends the tree
 * of `oldSize` with `oldRoot`?
 *
 * The RFC only defines 0 < first < second. Edge cases follow the transparency-dev test vectors:
 * oldSize > newSize is false; oldSize = newSize needs an empty proof and identical roots (compared
 * as bytes, whatever their length); oldSize = 0 is always false (nothing is proven).
 */
export function verifyConsistency(
  oldSize: number,
  newSize: number,
  proof: readonly Uint8Array[],
  oldRoot: Uint8Array,
  newRoot: Uint8Array,
): boolean {
  assertCount('old tree size', oldSize);
  assertCount('new tree size', newSize);
  if (oldSize === 0 || oldSize > newSize) return false;
  if (oldSize === newSize) return proof.length === 0 && equalBytes(oldRoot, newRoot);
  if (!isHash(oldRoot) || !isHash(newRoot) || !proof.every(isHash)) return false;
  // Step 1.
  if (proof.length === 0) return false;
  // Step 2.
  const path = isPowerOfTwo(oldSize) ? [oldRoot, ...proof] : proof;
  // Steps 3-4.
  let fn = oldSize - 1;
  let sn = newSize - 1;
  while (lsb(fn)) {
    fn = half(fn);
    sn = half(sn);
  }
  // Step 5.
  let fr = path[0] as Uint8Array;
  let sr = fr;
  // Step 6.
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (lsb(fn) || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      if (!lsb(fn)) {
        while (!lsb(fn) && fn !== 0) {
          fn = half(fn);
          sn = half(sn);
        }
      }
    } else {
      sr = nodeHash(sr, c);
    }
    fn = half(fn);
    sn = half(sn);
  }
  // Step 7.
  return sn === 0 && equalBytes(fr, oldRoot) && equalBytes(sr, newRoot);
}
