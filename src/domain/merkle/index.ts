/**
 * RFC 9162 Merkle tree transparency log math (perfect-node storage model) and C2SP checkpoints.
 * Pure: no I/O. Storage is reached only through the `NodeReader` interface.
 */
export { EMPTY_ROOT, HASH_SIZE, equalBytes, foldRight, isHash, leafHash, nodeHash } from './hash';
export {
  MAX_TREE_SIZE,
  type NodeId,
  type Span,
  consistencySpans,
  inclusionSpans,
  mergedTiles,
  nodeSpan,
  perfectTiles,
  rootTiles,
  siblingSpans,
} from './tree-math';
export {
  type MerkleNode,
  type NodeReader,
  appendLeaf,
  appendLeaves,
  hashSpans,
  readNodes,
  rootAt,
  rootFromLeafHashes,
} from './append';
export { consistencyProof, inclusionProof, verifyConsistency, verifyInclusion } from './proofs';
export {
  type Checkpoint,
  type NoteSigner,
  type NoteVerification,
  type NoteVerifier,
  formatCheckpoint,
  formatSignerKey,
  formatVerifierKey,
  isValidKeyName,
  noteKeyId,
  openCheckpoint,
  parseCheckpoint,
  parseSignerKey,
  parseVerifierKey,
  publicKeyOf,
  signNote,
  verifyNote,
} from './checkpoint';
