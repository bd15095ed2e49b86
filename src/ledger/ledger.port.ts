import type { Prisma } from '../db/database';
import type { SqlExecutor } from '../db/sql-executor';
import type { LedgerWriteParams } from '../db/sql/ledger.sql';

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

/** A signed C2SP checkpoint of a log: the stored signed tree head (STH). */
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
  /** ISO 8601 time the head was signed (not part of the signed note): reads never re-sign. */
  readonly signedAt: string;
  /** Each configured witness and whether a verified cosignature of this head is in `note` (see src/witness). */
  readonly witnesses: WitnessCosignature[];
  /** Cosignatures of this head that verified under the configured witness keys. */
  readonly witnessCosignatures: number;
  /** How many are required (CREDGATE_WITNESS_QUORUM); 0 when no witnesses are configured. */
  readonly witnessQuorum: number;
}

/** The witness fields of a head as the log itself stores it: the witnessing layer fills them in. */
export const unwitnessed = (): Pick<LedgerCheckpoint, 'witnesses' | 'witnessCosignatures' | 'witnessQuorum'> => ({ witnesses: [], witnessCosignatures: 0, witnessQuorum: 0 });

/** One configured witness's standing on a served head. */
export interface WitnessCosignature {
  /** The witness key name. */
  readonly name: string;
  /** C2SP verifier key `<name>+<keyid>+<base64(0x04||pubkey)>`. */
  readonly verifierKey: string;
  /** A cosignature of this head verified under the witness key (its line is in the note). */
  readonly cosigned: boolean;
  /** ISO 8601 time in that cosignature, or null. */
  readonly cosignedAt: string | null;
  /** The largest size the witness is known to have cosigned, or null before it ever answered. */
  readonly witnessedSize: number | null;
  /** Why the last request to it failed (a stuck or refusing witness), or null. */
  readonly lastError: string | null;
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
  /**
   * Appends inside the caller's transaction, serialised by a row lock on the log. The caller must
   * call `settle(logId)` after its commit, so the new leaf is covered by a stored signed head.
   */
  appendInTransaction(tx: Prisma.TransactionClient, logId: string, entry: LedgerEntry): Promise<AppendResult>;
  /**
   * Appends several entries inside the caller's transaction: one lock of the log row, multi-row
   * inserts, one size update. Results in the order of `entries` (idempotent per entry hash, within
   * the batch too). Settle after the commit, as for `appendInTransaction`.
   */
  appendBatch(tx: Prisma.TransactionClient, logId: string, entries: readonly LedgerEntry[]): Promise<AppendResult[]>;
  /**
   * Appends to several logs inside the caller's `pg`/PGlite transaction (a sequencer tick across
   * issuers): locks the logs, reads each one's head and frontier once (or, when every log is still
   * at the size this instance committed it to, takes them from memory and reads nothing), computes
   * the leaves and nodes, and signs each grown log's head after checking it extends the stored one.
   * Writes nothing: the caller puts `write` into its own statement (src/db/sql/ledger.sql.ts) and,
   * after its commit, hands the very `heads` objects to `committed` (that is what lets the next
   * tick skip the read). Throws `HeadsBehindError` for a log whose stored head is behind (settle
   * it, then retry).
   */
  prepareGroupAppend(tx: SqlExecutor, appends: readonly LogAppend[], locked?: LockedLogSizes): Promise<PreparedAppend>;
  /** Appends in its own transaction and settles the log's head before answering. */
  append(logId: string, entry: LedgerEntry): Promise<AppendResult>;
  findEntry(logId: string, entryHash: Uint8Array): Promise<FoundEntry | null>;
  /**
   * The latest stored signed head. Never signs. `minSize`: the caller needs a head of at least
   * that size (it found a leaf at index minSize - 1); a log whose stored head is smaller (a crash
   * between a commit and its head) answers SERVICE_UNAVAILABLE while a background step repairs it.
   */
  checkpoint(logId: string, minSize?: number): Promise<LedgerCheckpoint>;
  /**
   * Writers only, after their commit: signs and stores a head covering the whole log (checked for
   * consistency with the stored one; no-op when it already covers it). The one place heads are stored.
   */
  settle(logId: string): Promise<LedgerCheckpoint>;
  /**
   * `settle` inside the caller's transaction, after its appends: the head (and its anchor outbox
   * row) commits with the batch, in one disk flush. After the commit, pass the heads to `committed`.
   */
  settleInTransaction(tx: Prisma.TransactionClient, logId: string): Promise<LedgerCheckpoint>;
  /**
   * After the commit of a transaction that called `settleInTransaction` or `prepareGroupAppend`:
   * caches the heads (and a group append's new frontiers) and sends them to the witnesses. Only
   * after a COMMIT that returned: never for a rolled-back or ambiguous transaction.
   */
  committed(heads: readonly LedgerCheckpoint[]): void;
  /** Start-up repair: settles every log that grew beyond its stored head. Returns how many it tried. */
  settleAll(): Promise<number>;
  /** Waits for background head repairs (shutdown, before the database closes). */
  close(): Promise<void>;
  /** The stored signed tree heads: `latest` never signs, `advance` signs on growth only (writers call it through `settle`). */
  readonly heads: LogHeads;
  /** base64 hashes; throws NOT_FOUND for an unknown log, INVALID_INPUT for index >= treeSize or treeSize beyond the head. */
  inclusionProof(logId: string, leafIndex: number, treeSize: number): Promise<string[]>;
  consistencyProof(logId: string, fromSize: number, toSize: number): Promise<string[]>;
  /** Leaf hashes (base64) of [start, end), for auditors recomputing the root. */
  leafHashes(logId: string, start: number, end: number): Promise<string[]>;
}

/** The stored signed tree heads of the logs; the only code that signs checkpoints. */
export interface LogHeads {
  /** The stored signed head, or null when the log was never signed. Never signs. NOT_FOUND for an unknown log. */
  latest(logId: string): Promise<LedgerCheckpoint | null>;
  /**
   * Signs and stores a new head when the log grew beyond the stored one, after checking that the
   * grown tree is consistent with it (and that every node written since matches its leaves);
   * otherwise returns the stored head. Refuses (INTERNAL, logged at error level) a fork or a
   * log smaller than its signed head. Only writers call it (through `HeadKeeper.settle`): after
   * each batch, and to repair a log left beyond its head (start-up, or a lag a read noticed).
   */
  advance(logId: string): Promise<LedgerCheckpoint>;
}

/**
 * Logs the caller already locked in this transaction, in seq order and after nothing but rows every
 * other writer locks first (a tick's status lists), with the tree_size read under that lock: seq ->
 * size. `prepareGroupAppend` then skips its own lock statement for them.
 */
export type LockedLogSizes = ReadonlyMap<string, number>;

/** The appends of one log in a group append (`prepareGroupAppend`). */
export interface LogAppend {
  readonly logId: string;
  readonly entries: readonly LedgerEntry[];
}

/** A group append computed and signed under the log locks, to be written by the caller's statement. */
export interface PreparedAppend {
  /** Per log id, the results in the order of its entries (idempotent per entry hash). */
  readonly results: ReadonlyMap<string, AppendResult[]>;
  /** The new signed heads (one per log that grew); pass them to `Ledger.committed` after the commit. */
  readonly heads: readonly LedgerCheckpoint[];
  /** The parameters of `ledgerWriteCtes` / `writeLedger`. */
  readonly write: LedgerWriteParams;
  /**
   * The logs built from the frontier this instance remembered (their read skipped), not from the
   * database. Their entries were not checked for presence: an entry such a log already holds fails
   * the write (unique entry hash) instead of being answered `created: false`; a caller wanting
   * that answer runs the transaction again, which then reads those logs.
   */
  readonly remembered: readonly string[];
}
