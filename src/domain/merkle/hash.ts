/**
 * RFC 9162 §2.1.1 hashing with SHA-256. Leaves and interior nodes are hashed with distinct
 * one-byte prefixes (0x00 / 0x01) so that a leaf can never be passed off as an interior node
 * (second-preimage resistance of the tree, RFC 9162 §2.1.1).
 */
import { sha256, sha256Of } from '../hash/sha256';
import { AppError } from '../../errors';

/** Byte length of every hash in the tree (SHA-256). */
export const HASH_SIZE = 32;

const LEAF_PREFIX = Uint8Array.of(0x00);
const NODE_PREFIX = Uint8Array.of(0x01);

/** MTH({}) = SHA-256() — the root of the empty tree. Treat as read-only. */
export const EMPTY_ROOT: Uint8Array = sha256(new Uint8Array(0));

/** MTH({d}) = SHA-256(0x00 || d): the hash of one leaf entry. */
export function leafHash(data: Uint8Array): Uint8Array {
  return sha256Of([LEAF_PREFIX, data]);
}

/**
 * SHA-256(0x01 || left || right). Both children must be 32-byte hashes: anything else means a
 * caller mixed up data and hashes, which is a programming error, so it throws.
 */
export function nodeHash(left: Uint8Array, right: Uint8Array): Uint8Array {
  if (left.length !== HASH_SIZE || right.length !== HASH_SIZE) {
    throw new AppError('INVALID_INPUT', `Merkle node children must be ${HASH_SIZE}-byte hashes`);
  }
  return sha256Of([NODE_PREFIX, left, right]);
}

/** True when `h` has the length of a tree hash. */
export function isHash(h: Uint8Array): boolean {
  return h.length === HASH_SIZE;
}

/** Byte equality. Not constant-time: tree hashes are public data. */
export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Folds the hashes of consecutive perfect subtrees, largest (leftmost) first, into the hash of
 * their union: H(p1, H(p2, … H(pk-1, pk))). This is how RFC 9162's MTH treats an imperfect
 * right edge: the largest power-of-two prefix is the left child and the rest recurses right.
 */
export function foldRight(hashes: readonly Uint8Array[]): Uint8Array {
  const last = hashes[hashes.length - 1];
  if (last === undefined) throw new AppError('INTERNAL', 'cannot fold an empty list of hashes');
  // Copy so callers never receive (and could mutate) a reader's own buffer.
  let acc: Uint8Array = last.slice();
  for (let i = hashes.length - 2; i >= 0; i--) acc = nodeHash(hashes[i] as Uint8Array, acc);
  return acc;
}
