/**
 * Hedera Consensus Service anchor: one topic message per checkpoint (one per sequencer batch),
 * receipts read back from the mirror node REST API. Built by `createHederaAnchor` (index.ts).
 */
import { createHash } from 'node:crypto';
import type * as HederaSdk from '@hashgraph/sdk' with { 'resolution-mode': 'import' };
import {
  type AnchorAdapter,
  type DidLedgerEntities,
  type AnchorCheckpoint,
  type AnchorExpectation,
  type AnchorReceipt,
  AnchorRejected,
  type ReceiptCheck,
} from '../anchor.port';
import { type AnchoredCheckpoint, MAX_MESSAGE_BYTES, decodeEnvelope, encodeEnvelope } from './envelope';
import { MirrorClient, type MirrorTopicMessage, MirrorUnavailable } from './mirror';

export type Sdk = typeof HederaSdk;

/** What the adapter needs beyond the SDK: where checkpoints go and how long to wait for the mirror. */
export interface HederaAnchorParts {
  readonly sdk: Sdk;
  readonly client: HederaSdk.Client;
  readonly operatorKey: HederaSdk.PrivateKey;
  readonly mirror: MirrorClient;
  /** `hedera:<name>` in receipts. */
  readonly network: string;
  readonly topicFor: (logId: string) => Promise<string | null>;
  /**
   * The current DID document of a DID's document-file log (the log id is the file id), or null
   * for any other log. Such a log's heads are anchored by writing that document into the file.
   */
  readonly fileFor?: (logId: string) => Promise<Uint8Array | null>;
  readonly mirrorPollMs: number;
  /** How long submit waits for the mirror to show a message that reached consensus. */
  readonly mirrorWaitMs: number;
}

/** Statuses retrying cannot fix: the row goes to `failed` instead of retrying forever. */
const PERMANENT = new Set([
  'INVALID_SIGNATURE',
  'INVALID_TOPIC_ID',
  'TOPIC_EXPIRED',
  'PAYER_ACCOUNT_NOT_FOUND',
  'INVALID_ACCOUNT_ID',
  'ACCOUNT_DELETED',
  'MESSAGE_SIZE_TOO_LARGE',
  'INVALID_TOPIC_MESSAGE',
  'KEY_NOT_PROVIDED',
  'NOT_SUPPORTED',
  'UNAUTHORIZED',
  'INVALID_FILE_ID',
  'FILE_DELETED',
  'MAX_FILE_SIZE_EXCEEDED',
]);

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function txIdOf(m: MirrorTopicMessage): string {
  const first = m.chunk_info?.initial_transaction_id;
  // Messages from the SDKs carry their transaction id; others are named by consensus time.
  return first?.account_id && first.transaction_valid_start ? `${first.account_id}@${first.transaction_valid_start}` : `consensus:${m.consensus_timestamp}`;
}

/**
 * Bytes of file contents per transaction: FileCreate/FileUpdate carry the first chunk, FileAppend
 * the rest (the SDK's own append chunk size; a transaction is capped at 6 KiB with its signatures).
 */
export const FILE_CHUNK_BYTES = 4096;
/** Appends one write may need (the SDK refuses more than its maxChunks): 1 MiB, the File Service's cap. */
const MAX_FILE_BYTES = 1024 * 1024;

const sha256b64 = (b: Uint8Array): string => createHash('sha256').update(b).digest('base64');

export class HederaAnchor implements AnchorAdapter, DidLedgerEntities {
  readonly kind = 'hedera' as const;
  readonly network: string;

  constructor(private readonly parts: HederaAnchorParts) {
    this.network = parts.network;
  }

  async submit(checkpoint: AnchorCheckpoint): Promise<AnchorReceipt> {
    const document = await this.parts.fileFor?.(checkpoint.logId);
    if (document) return this.submitFile(checkpoint, document);
    const topicId = await this.topic(checkpoint.logId);
    // Idempotent on (logId, treeSize): a submission that reached consensus before a crash or a
    // mirror timeout is reused. Such a message is recent, so only the newest page is read here;
    // `find` (which the relay calls before a retry) reads the whole topic.
    const earlier = await this.findIn(topicId, checkpoint, 1);
    if (earlier) return earlier;
    const { sdk, client } = this.parts;
    const receipt = await this.execute(async () => {
      const response = await new sdk.TopicMessageSubmitTransaction().setTopicId(topicId).setMessage(encodeEnvelope(checkpoint)).setMaxChunks(1).execute(client);
      return { txId: response.transactionId.toString(), receipt: await response.getReceipt(client) };
    });
    const sequenceNumber = receipt.receipt.topicSequenceNumber?.toString();
    if (!sequenceNumber) throw new Error('Hedera receipt has no topic sequence number');
    const message = await this.awaitMirror(topicId, sequenceNumber, receipt.txId);
    const nodeHash = receipt.receipt.topicRunningHash;
    if (nodeHash && Buffer.from(nodeHash).toString('base64') !== message.running_hash) {
      throw new Error(`mirror node disagrees with the consensus node on the running hash of ${topicId}#${sequenceNumber}`);
    }
    return this.receipt(topicId, message, receipt.txId, checkpoint);
  }

  async find(checkpoint: Pick<AnchorCheckpoint, 'logId' | 'treeSize'>): Promise<AnchorReceipt | null> {
    // Writing a file again is idempotent (same document, same contents), so a retry just writes it.
    if (await this.parts.fileFor?.(checkpoint.logId)) return null;
    return this.findIn(await this.topic(checkpoint.logId), checkpoint);
  }

  async checkReceipt(receipt: AnchorReceipt, expected: AnchorExpectation): Promise<ReceiptCheck> {
    if (receipt.adapter !== 'hedera' || receipt.network !== this.network) {
      return { status: 'invalid', reason: `receipt is for ${receipt.adapter} ${receipt.network}, this verifier reads ${this.network}` };
    }
    if (receipt.fileHash !== undefined) return this.checkFileReceipt(receipt);
    if (!receipt.sequenceNumber || !/^\d+$/.test(receipt.sequenceNumber)) return { status: 'invalid', reason: 'receipt has no topic sequence number' };
    let message: MirrorTopicMessage | null;
    try {
      message = await this.parts.mirror.message(receipt.target, receipt.sequenceNumber);
    } catch (e) {
      return { status: 'unavailable', reason: e instanceof MirrorUnavailable ? e.message : 'mirror node request failed' };
    }
    if (!message) return { status: 'invalid', reason: `topic ${receipt.target} has no message ${receipt.sequenceNumber}` };
    const anchored = decodeEnvelope(Buffer.from(message.message, 'base64'));
    if (!anchored) return { status: 'invalid', reason: 'the topic message is not a Credgate checkpoint' };
    for (const field of ['logId', 'treeSize', 'rootHash'] as const) {
      if (anchored[field] !== expected[field]) return { status: 'invalid', reason: `anchored ${field} ${anchored[field]} differs from ${expected[field]}` };
    }
    if (message.running_hash !== receipt.runningHash || message.consensus_timestamp !== receipt.consensusTimestamp) {
      return { status: 'invalid', reason: 'running hash or consensus timestamp differs from the receipt' };
    }
    return { status: 'valid' };
  }

  /** A new topic whose messages only the operator can submit (no admin key: nobody can delete or change it). */
  async createTopic(memo = 'credgate'): Promise<string> {
    const { sdk, client, operatorKey } = this.parts;
    const { receipt } = await this.execute(async () => {
      const response = await new sdk.TopicCreateTransaction().setSubmitKey(operatorKey.publicKey).setTopicMemo(memo.slice(0, 100)).execute(client);
      return { receipt: await response.getReceipt(client) };
    });
    if (!receipt.topicId) throw new Error('Hedera receipt has no topic id');
    return receipt.topicId.toString();
  }

  /**
   * A File Service file holding `contents` (a DID document), whose only key is the operator's, so
   * only this service can change it. Contents beyond one transaction go in FileAppend chunks.
   */
  async createFile(contents: Uint8Array, memo = 'credgate'): Promise<string> {
    this.checkFileSize(contents);
    const { sdk, client, operatorKey } = this.parts;
    const { receipt } = await this.execute(async () => {
      const tx = new sdk.FileCreateTransaction().setKeys([operatorKey.publicKey]).setFileMemo(memo.slice(0, 100)).setContents(contents.subarray(0, FILE_CHUNK_BYTES));
      const response = await tx.execute(client);
      return { receipt: await response.getReceipt(client) };
    });
    if (!receipt.fileId) throw new Error('Hedera receipt has no file id');
    const fileId = receipt.fileId.toString();
    await this.append(fileId, contents.subarray(FILE_CHUNK_BYTES));
    return fileId;
  }

  /** Replaces a file's contents: FileUpdate with the first chunk, FileAppend for the rest. Returns the update's transaction id. */
  async updateFile(fileId: string, contents: Uint8Array): Promise<{ txId: string }> {
    this.checkFileSize(contents);
    const { sdk, client } = this.parts;
    const { txId } = await this.execute(async () => {
      const response = await new sdk.FileUpdateTransaction().setFileId(fileId).setContents(contents.subarray(0, FILE_CHUNK_BYTES)).execute(client);
      await response.getReceipt(client);
      return { txId: response.transactionId.toString() };
    });
    await this.append(fileId, contents.subarray(FILE_CHUNK_BYTES));
    return { txId };
  }

  /** A file's contents (FileGetContents, a paid query; its small fee is taken from the operator). */
  async readFile(fileId: string): Promise<Uint8Array> {
    const { sdk, client } = this.parts;
    return this.execute(() => new sdk.FileContentsQuery().setFileId(fileId).execute(client));
  }

    async close(): Promise<void> {
    this.parts.client.close();
  }

  /**
   * Anchors a head of a DID's document-file log: writes the current document into the file and
   * reads it back (two writers interleaving update and appends would leave a mix: the check turns
   * that into a retry, which writes the whole document again). The receipt's consensus timestamp
   * is the update's, from the mirror node.
   */
  private async submitFile(checkpoint: AnchorCheckpoint, document: Uint8Array): Promise<AnchorReceipt> {
    const fileId = checkpoint.logId;
    const { txId } = await this.updateFile(fileId, document);
    const stored = await this.readFile(fileId);
    if (sha256b64(stored) !== sha256b64(document)) throw new Error(`file ${fileId} does not hold the document just written (a concurrent write); retrying`);
    const tx = await this.awaitMirrorTransaction(txId);
    return {
      adapter: 'hedera',
      network: this.network,
      txId,
      target: fileId,
      consensusTimestamp: tx.consensus_timestamp,
      fileHash: sha256b64(document),
      logId: checkpoint.logId,
      treeSize: checkpoint.treeSize,
      rootHash: checkpoint.rootHash,
    };
  }

  /** A file receipt holds when the mirror shows its update succeeded on that file at that time. */
  private async checkFileReceipt(receipt: AnchorReceipt): Promise<ReceiptCheck> {
    let tx: Awaited<ReturnType<MirrorClient['transaction']>>;
    try {
      tx = await this.parts.mirror.transaction(receipt.txId);
    } catch (e) {
      return { status: 'unavailable', reason: e instanceof MirrorUnavailable ? e.message : 'mirror node request failed' };
    }
    if (!tx) return { status: 'invalid', reason: `the mirror node has no transaction ${receipt.txId}` };
    if (tx.result !== 'SUCCESS' || tx.entity_id !== receipt.target || tx.consensus_timestamp !== receipt.consensusTimestamp) {
      return { status: 'invalid', reason: `transaction ${receipt.txId} is not a successful write of file ${receipt.target} at ${receipt.consensusTimestamp}` };
    }
    return { status: 'valid' };
  }

  private checkFileSize(contents: Uint8Array): void {
    if (contents.length > MAX_FILE_BYTES) throw new AnchorRejected(`file contents of ${contents.length} bytes exceed the File Service's ${MAX_FILE_BYTES} bytes`);
  }

  private async append(fileId: string, rest: Uint8Array): Promise<void> {
    if (rest.length === 0) return;
    const { sdk, client } = this.parts;
    await this.execute(() =>
      new sdk.FileAppendTransaction().setFileId(fileId).setContents(rest).setChunkSize(FILE_CHUNK_BYTES).setMaxChunks(Math.ceil(rest.length / FILE_CHUNK_BYTES)).executeAll(client),
    );
  }

  private async awaitMirrorTransaction(txId: string): Promise<NonNullable<Awaited<ReturnType<MirrorClient['transaction']>>>> {
    const { mirror, mirrorPollMs, mirrorWaitMs } = this.parts;
    for (let waited = 0; ; waited += mirrorPollMs) {
      const tx = await mirror.transaction(txId);
      if (tx && tx.result !== 'SUCCESS') throw new AnchorRejected(`Hedera transaction ${txId} failed: ${tx.result}`);
      if (tx) return tx;
      if (waited >= mirrorWaitMs) throw new MirrorUnavailable(`mirror node has not shown transaction ${txId} yet`);
      await sleep(mirrorPollMs);
    }
  }

  private async topic(logId: string): Promise<string> {
    const topicId = await this.parts.topicFor(logId);
    if (!topicId) throw new AnchorRejected(`no Hedera topic is configured for log ${logId}`);
    return topicId;
  }

  private async findIn(topicId: string, cp: Pick<AnchorCheckpoint, 'logId' | 'treeSize'>, maxPages = Infinity): Promise<AnchorReceipt | null> {
    let hit: { message: MirrorTopicMessage; anchored: AnchoredCheckpoint } | null = null;
    await this.parts.mirror.scanTopic(topicId, (message) => {
      const anchored = decodeEnvelope(Buffer.from(message.message, 'base64'));
      // Newest first, so the earliest submission wins when a race published the same head twice.
      if (anchored && anchored.logId === cp.logId && anchored.treeSize === cp.treeSize) hit = { message, anchored };
      return false;
    }, maxPages);
    const found = hit as { message: MirrorTopicMessage; anchored: AnchoredCheckpoint } | null;
    return found ? this.receipt(topicId, found.message, txIdOf(found.message), found.anchored) : null;
  }

  private receipt(topicId: string, m: MirrorTopicMessage, txId: string, cp: AnchorExpectation): AnchorReceipt {
    return {
      adapter: 'hedera',
      network: this.network,
      txId,
      target: topicId,
      consensusTimestamp: m.consensus_timestamp,
      sequenceNumber: String(m.sequence_number),
      runningHash: m.running_hash,
      logId: cp.logId,
      treeSize: cp.treeSize,
      rootHash: cp.rootHash,
    };
  }

  /** The mirror shows a message a few seconds after consensus; poll for it, checking the transaction succeeded. */
  private async awaitMirror(topicId: string, sequenceNumber: string, txId: string): Promise<MirrorTopicMessage> {
    const { mirror, mirrorPollMs, mirrorWaitMs } = this.parts;
    for (let waited = 0; ; waited += mirrorPollMs) {
      const tx = await mirror.transaction(txId);
      if (tx && tx.result !== 'SUCCESS') throw new AnchorRejected(`Hedera transaction ${txId} failed: ${tx.result}`);
      const message = tx ? await mirror.message(topicId, sequenceNumber) : null;
      if (message) return message;
      // Transient: the relay retries, and its `find` then picks up the message once the mirror has it.
      if (waited >= mirrorWaitMs) throw new MirrorUnavailable(`mirror node has not shown ${topicId}#${sequenceNumber} yet`);
      await sleep(mirrorPollMs);
    }
  }

  /** Runs an SDK call, turning statuses retrying cannot fix into AnchorRejected (others stay transient). */
  private async execute<T>(run: () => Promise<T>): Promise<T> {
    const { sdk } = this.parts;
    try {
      return await run();
    } catch (e) {
      if ((e instanceof sdk.PrecheckStatusError || e instanceof sdk.ReceiptStatusError) && PERMANENT.has(e.status.toString())) {
        throw new AnchorRejected(`Hedera rejected the transaction: ${e.status.toString()}`);
      }
      throw e;
    }
  }
}
