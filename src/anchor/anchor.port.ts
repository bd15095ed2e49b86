/**
 * The anchor port: publishes a log's signed checkpoint to an external ledger (an EVM chain, Hedera
 * Consensus Service) so its history no longer rests on the operator's database alone. Adapters
 * live in src/anchor/<network>/ and are loaded with a dynamic import only when configured
 * (CREDGATE_ANCHOR), so the core install never loads viem or @hashgraph/sdk.
 *
 * The outbox relay (src/anchor/relay.ts) is the only caller of `submit`/`find`; verification calls
 * `checkReceipt`. Adapters hold no database state: everything durable is in `anchor_outbox`.
 */

/** What gets anchored: one signed head of one log (one per sequencer batch). */
export interface AnchorCheckpoint {
  /** Ledger id of the log, `0.0.<n>`. */
  readonly logId: string;
  readonly treeSize: number;
  /** base64 SHA-256 Merkle root (RFC 9162) of the first `treeSize` leaves. */
  readonly rootHash: string;
  /** The full signed C2SP checkpoint note, when the adapter publishes it (Hedera puts it in the topic message). */
  readonly note?: string;
}

/** Which log head a receipt must prove. */
export type AnchorExpectation = Pick<AnchorCheckpoint, 'logId' | 'treeSize' | 'rootHash'>;

/**
 * Proof that a checkpoint reached the ledger, stored as JSON in `anchor_outbox.receipt` and shown by
 * verification. Only JSON-safe values (numbers that can exceed 2^53 are decimal strings).
 */
export interface AnchorReceipt {
  /** `evm` or `hedera`: which adapter can check this receipt. */
  readonly adapter: AnchorKind;
  /** Human-readable network: `evm:<chainId>` or `hedera:<network>` (e.g. `hedera:testnet`). */
  readonly network: string;
  /** EVM transaction hash (0x…) or Hedera transaction id (`0.0.x@seconds.nanos`). */
  readonly txId: string;
  /** EVM: the anchoring contract address. Hedera: the topic id the checkpoint was submitted to. */
  readonly target: string;
  /** EVM: block number (decimal string). */
  readonly blockNumber?: string;
  /** EVM: log index of the Anchored event in its block. */
  readonly logIndex?: number;
  /** Hedera: consensus timestamp `seconds.nanos` from the mirror node. */
  readonly consensusTimestamp?: string;
  /** Hedera: topic sequence number (decimal string). */
  readonly sequenceNumber?: string;
  /** Hedera: topic running hash (base64) after this message. */
  readonly runningHash?: string;
  /**
   * Hedera, a DID's document file log: the head is anchored by writing the DID document into its
   * File Service file (`target` is the file id); base64 SHA-256 of the contents written.
   */
  readonly fileHash?: string;
  /** The checkpoint the receipt is for (so a receipt is self-describing). */
  readonly logId: string;
  readonly treeSize: number;
  readonly rootHash: string;
}

export type AnchorKind = 'evm' | 'hedera';

/** Outcome of re-reading a receipt from the ledger. `unavailable`: the ledger could not be reached (not a mismatch). */
export type ReceiptCheck =
  | { readonly status: 'valid' }
  | { readonly status: 'invalid'; readonly reason: string }
  | { readonly status: 'unavailable'; readonly reason: string };

export interface AnchorAdapter {
  readonly kind: AnchorKind;
  /** Same value as `AnchorReceipt.network` of the receipts it makes. */
  readonly network: string;
  /**
   * Publishes the checkpoint and waits until the ledger confirms it (EVM: mined receipt; Hedera:
   * mirror-node record). Throws on failure: `AnchorRejected` for errors retrying cannot fix, any
   * other error is treated as transient and retried with backoff by the relay.
   * Must be idempotent on (logId, treeSize): the relay may resubmit after a crash between submit
   * and recording the receipt (it calls `find` first, but a race can remain).
   */
  submit(checkpoint: AnchorCheckpoint): Promise<AnchorReceipt>;
  /** The receipt of an earlier submission of this (logId, treeSize), or null when the ledger holds none. */
  find(checkpoint: Pick<AnchorCheckpoint, 'logId' | 'treeSize'>): Promise<AnchorReceipt | null>;
  /** Re-reads the receipt from the ledger and compares what it anchored with `expected`. Never throws. */
  checkReceipt(receipt: AnchorReceipt, expected: AnchorExpectation): Promise<ReceiptCheck>;
  /** Releases connections/timers. */
  close(): Promise<void>;
  /** Ledgers with topics (Hedera): creates one, for a DID's credential or template log. */
  createTopic?(memo?: string): Promise<string>;
  /** Ledgers with a file service (Hedera): stores a file, e.g. a DID document. */
  createFile?(contents: Uint8Array, memo?: string): Promise<string>;
}

/**
 * Ledger entities a DID gets of its own (Hedera: its credential and template topics, `topicId` and
 * `templateTopicId`, and its DID document file, `ledgerFileId`). Ids are `0.0.<n>`.
 */
export interface DidLedgerEntities {
  /** Receipts' network, also stored with the DID (`dids.ledger_network`). */
  readonly network: string;
  createTopic(memo?: string): Promise<string>;
  createFile(contents: Uint8Array, memo?: string): Promise<string>;
  /** Replaces the file's contents (one update, then appends for what does not fit one transaction). */
  updateFile(fileId: string, contents: Uint8Array): Promise<{ readonly txId: string }>;
  readFile(fileId: string): Promise<Uint8Array>;
}

/** True for an adapter that can give a DID entities of its own. */
export function hasDidEntities(a: AnchorAdapter | null): a is AnchorAdapter & DidLedgerEntities {
  return !!a && typeof (a as Partial<DidLedgerEntities>).updateFile === 'function' && typeof a.createTopic === 'function';
}

/** A permanent submission failure (bad configuration, contract reverted for a reason other than a duplicate): the row goes to `failed` without further retries. */
export class AnchorRejected extends Error {
  override readonly name = 'AnchorRejected';
}

/** Status of the anchoring of one (logId, treeSize), as verification and the ledger routes report it. */
export interface AnchorStatus {
  readonly logId: string;
  readonly treeSize: number;
  /** base64 root of the signed head, as recorded in the outbox. */
  readonly rootHash: string;
  readonly status: 'pending' | 'anchored' | 'failed';
  readonly attempts: number;
  readonly receipt: AnchorReceipt | null;
  /** Set when the status is `failed` or a retry is scheduled; never contains key material. */
  readonly lastError: string | null;
  /** Result of `checkReceipt` when the verifier re-read the ledger (anchored rows only, and only when an adapter is configured). */
  readonly check?: ReceiptCheck;
}

/** Builds an adapter from configuration. Each adapter module's default export has this type. */
export type AnchorAdapterFactory<Settings> = (settings: Settings) => Promise<AnchorAdapter>;
