import type { Prisma } from '../db/database';

/** An entry to anchor: the SHA-256 of a record, what kind of record, and its id. */
export interface LedgerEntry {
  readonly entryHash: Uint8Array;
  readonly kind: string;
  readonly ref: string;
}

export interface AppendResult {
  readonly leafIndex: number;
  /** False when the log already held this entry hash (appends are idempotent). */
  readonly created: boolean;
}

/** A signed C2SP checkpoint of a log's current head. */
export interface LedgerCheckpoint {
  readonly logId: string;
  readonly origin: string;
  readonly treeSize: number;
  /** base64 */
  readonly rootHash: string;
  /** The full signed note (body + signature lines). */
  readonly note: string;
  /** C2SP verifier key `<name>+<keyid>+<base64(0x01||pubkey)>`. */
  readonly verifierKey: string;
  /** base64 Ed25519 public key of the log. */
  readonly publicKey: string;
}

export interface FoundEntry {
  readonly leafIndex: number;
  readonly kind: string;
  readonly ref: string;
  /** base64 */
  readonly leafHash: string;
}

/**
 * A tamper-evident log (RFC 9162 Merkle tree). Logs are ledger ids `0.0.<n>` (a DID's topicId,
 * templateTopicId, ledgerFileId). Implemented in PostgreSQL today; a distributed ledger plugs in
 * behind this port later.
 */
export interface Ledger {
  /** Appends inside the caller's transaction, serialised by a row lock on the log head. */
  appendInTransaction(tx: Prisma.TransactionClient, logId: string, entry: LedgerEntry): Promise<AppendResult>;
  append(logId: string, entry: LedgerEntry): Promise<AppendResult>;
  findEntry(logId: string, entryHash: Uint8Array): Promise<FoundEntry | null>;
  checkpoint(logId: string): Promise<LedgerCheckpoint>;
  /** base64 hashes; throws NOT_FOUND for an unknown log, INVALID_INPUT for index >= treeSize or treeSize beyond the head. */
  inclusionProof(logId: string, leafIndex: number, treeSize: number): Promise<string[]>;
  consistencyProof(logId: string, fromSize: number, toSize: number): Promise<string[]>;
  /** Leaf hashes (base64) of [start, end), for auditors recomputing the root. */
  leafHashes(logId: string, start: number, end: number): Promise<string[]>;
}
