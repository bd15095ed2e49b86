/**
 * A local stand-in for one Hedera consensus node, for offline tests: a real gRPC server (the
 * `@grpc/grpc-js` the SDK itself uses) decoding the real protobuf bodies (`@hashgraph/proto`), so the
 * unmodified `@hashgraph/sdk` reaches it through `Client.forNetwork({ '127.0.0.1:<port>': '0.0.3' })`.
 *
 * Implemented: ConsensusService.createTopic / submitMessage, FileService.createFile / updateFile /
 * appendContent / getFileContent (the paid query: a COST_ANSWER, then the answer with a payment
 * signed by a known account) and CryptoService.getTransactionReceipts (the receipt query
 * `TransactionResponse.getReceipt` sends). Files keep their key list: updates and appends must be
 * signed by every key in it.
 * Faithful: signature checks over the body bytes (ed25519, or ECDSA secp256k1 over keccak-256) by the
 * payer's key and by a topic's submit key; node account check; duplicate transaction ids; topic
 * sequence numbers and running hash v3 fields; precheck codes and receipt statuses.
 * Simplified: no fees or balances, no consensus delay (a transaction reaches consensus as it
 * arrives), no chunked messages, no expiry/valid-duration checks, the running hash's Java
 * serialisation framing (see running-hash.ts). Its state survives stop()/start(), like a network
 * that was unreachable rather than reset.
 */
import { createPublicKey, verify as verifySignature } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import { proto } from '@hashgraph/proto';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { Restartable } from './restartable';
import { type EntityNum, RUNNING_HASH_VERSION, nextRunningHash, parseEntity } from './running-hash';

const Code = proto.ResponseCodeEnum;
const ED25519_SPKI = Buffer.from('302a300506032b6570032100', 'hex');

export interface TopicMessageRecord {
  readonly topicId: string;
  readonly sequenceNumber: bigint;
  readonly consensusTimestamp: string;
  readonly message: Buffer;
  readonly runningHash: Buffer;
  readonly payerAccountId: string;
  readonly transactionId: string;
  /** What the SDK put in ConsensusMessageChunkInfo (it always does, even for one chunk). */
  readonly chunkInfo: { readonly initialTransactionId: { readonly accountId: string; readonly validStart: string }; readonly number: number; readonly total: number } | null;
}

export interface TransactionRecord {
  /** `0.0.x@seconds.nanos`, as the SDK prints it. */
  readonly transactionId: string;
  readonly payerAccountId: string;
  readonly validStart: { readonly seconds: bigint; readonly nanos: number };
  readonly consensusTimestamp: string;
  readonly name: 'CONSENSUSCREATETOPIC' | 'CONSENSUSSUBMITMESSAGE' | 'FILECREATE' | 'FILEUPDATE' | 'FILEAPPEND';
  readonly entityId: string | null;
  readonly memo: string;
  readonly receipt: proto.TransactionReceipt;
}

interface HederaFile {
  contents: Buffer;
  readonly memo: string;
  /** Raw public keys of the file's key list: every one must sign an update or append. */
  readonly keys: readonly Uint8Array[];
}

/** Tinybars the fake charges for a FileGetContents answer (what a COST_ANSWER reports). */
export const FILE_QUERY_COST = 100;

interface Topic {
  readonly memo: string;
  readonly submitKey: Uint8Array | null;
  runningHash: Buffer;
  sequenceNumber: bigint;
}

export interface FakeNodeOptions {
  /** Account id → raw public key (32 bytes: ed25519; 33 bytes: compressed secp256k1). */
  readonly accounts: Readonly<Record<string, Uint8Array>>;
  readonly nodeAccountId?: string;
  /** Port to listen on (0: any free port, kept across stop()/start()). */
  readonly port?: number;
}

class Precheck extends Error {
  constructor(readonly code: proto.ResponseCodeEnum) {
    super(Code[code]);
  }
}

type Int64 = NonNullable<proto.ITopicID['topicNum']>;
/** protobufjs' writer takes decimal strings for 64-bit fields; its typings only name Long. */
const int64 = (v: bigint | string): Int64 => String(v) as unknown as Int64;
const long = (v: unknown): bigint => BigInt(String(v ?? 0));
const entity = (shard: unknown, realm: unknown, num: unknown): string => `${long(shard)}.${long(realm)}.${long(num)}`;

function verifies(publicKey: Uint8Array, pairs: readonly proto.ISignaturePair[], body: Uint8Array): boolean {
  return pairs.some((pair) => {
    const prefix = pair.pubKeyPrefix ?? new Uint8Array();
    if (!Buffer.from(publicKey).subarray(0, prefix.length).equals(Buffer.from(prefix))) return false;
    if (publicKey.length === 32 && pair.ed25519) {
      const key = createPublicKey({ key: Buffer.concat([ED25519_SPKI, publicKey]), format: 'der', type: 'spki' });
      return verifySignature(null, body, key, pair.ed25519);
    }
    if (publicKey.length === 33 && pair.ECDSASecp256k1) {
      try {
        return secp256k1.verify(pair.ECDSASecp256k1, keccak_256(body), publicKey, { prehash: false, lowS: false });
      } catch {
        return false;
      }
    }
    return false;
  });
}

function keyBytes(key: proto.IKey | null | undefined): Uint8Array | null {
  if (!key) return null;
  const bytes = key.ed25519 ?? key.ECDSASecp256k1;
  if (!bytes) throw new Precheck(Code.KEY_NOT_PROVIDED);
  return bytes;
}

function timestampString(seconds: bigint, nanos: number): string {
  return `${seconds}.${String(nanos).padStart(9, '0')}`;
}

export class FakeHederaNode extends Restartable<grpc.Server> {
  readonly nodeAccountId: string;
  private readonly accounts: ReadonlyMap<string, Uint8Array>;
  private readonly topics = new Map<string, Topic>();
  private readonly files = new Map<string, HederaFile>();
  private readonly messages: TopicMessageRecord[] = [];
  private readonly transactions = new Map<string, TransactionRecord>();
  private nextEntity = 1000n;
  private lastConsensusNanos = 0n;
  /** Transactions that reached this node, accepted or not (for tests counting submissions). */
  submissions = 0;

  private constructor(options: FakeNodeOptions) {
    super(options.port ?? 0);
    this.accounts = new Map(Object.entries(options.accounts));
    this.nodeAccountId = options.nodeAccountId ?? '0.0.3';
  }

  static async start(options: FakeNodeOptions): Promise<FakeHederaNode> {
    const node = new FakeHederaNode(options);
    await node.start();
    return node;
  }

  /** `127.0.0.1:<port>`, the key of the SDK's network map. */
  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  /** The network map to pass to `Client.forNetwork`. */
  get network(): Record<string, string> {
    return { [this.address]: this.nodeAccountId };
  }

  protected async listen(port: number): Promise<{ server: grpc.Server; port: number }> {
    const server = new grpc.Server();
    const unary = (handler: (request: Buffer) => Uint8Array): grpc.UntypedHandleCall =>
      ((call: grpc.ServerUnaryCall<Buffer, Buffer>, callback: grpc.sendUnaryData<Buffer>) => {
        try {
          callback(null, Buffer.from(handler(call.request)));
        } catch (e) {
          callback({ code: grpc.status.INTERNAL, details: (e as Error).message });
        }
      }) as grpc.UntypedHandleCall;
    const service = (name: string, methods: Record<string, (request: Buffer) => Uint8Array>): void => {
      const definition: Record<string, grpc.MethodDefinition<Buffer, Buffer>> = {};
      const impl: grpc.UntypedServiceImplementation = {};
      for (const [method, handler] of Object.entries(methods)) {
        definition[method] = {
          path: `/proto.${name}/${method}`,
          requestStream: false,
          responseStream: false,
          requestSerialize: (b: Buffer) => b,
          requestDeserialize: (b: Buffer) => b,
          responseSerialize: (b: Buffer) => b,
          responseDeserialize: (b: Buffer) => b,
        };
        impl[method] = unary(handler);
      }
      server.addService(definition, impl);
    };
    service('ConsensusService', { createTopic: (b) => this.handleTransaction(b), submitMessage: (b) => this.handleTransaction(b) });
    service('FileService', {
      createFile: (b) => this.handleTransaction(b),
      updateFile: (b) => this.handleTransaction(b),
      appendContent: (b) => this.handleTransaction(b),
      getFileContent: (b) => this.fileQuery(b),
    });
    service('CryptoService', { getTransactionReceipts: (b) => this.receiptQuery(b) });
    const bound = await new Promise<number>((resolve, reject) =>
      server.bindAsync(`127.0.0.1:${port}`, grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
    );
    return { server, port: bound };
  }

  /** Drops open connections at once: the node is unreachable until start(). */
  protected async close(server: grpc.Server): Promise<void> {
    server.forceShutdown();
  }

  topicMessages(topicId: string): readonly TopicMessageRecord[] {
    return this.messages.filter((m) => m.topicId === topicId);
  }

  allMessages(): readonly TopicMessageRecord[] {
    return this.messages;
  }

  topicIds(): readonly string[] {
    return [...this.topics.keys()];
  }

  transactionRecords(): readonly TransactionRecord[] {
    return [...this.transactions.values()];
  }

  transaction(id: string): TransactionRecord | undefined {
    return this.transactions.get(id);
  }

  fileContents(fileId: string): Buffer | undefined {
    return this.files.get(fileId)?.contents;
  }

  fileMemo(fileId: string): string | undefined {
    return this.files.get(fileId)?.memo;
  }

  topicMemo(topicId: string): string | undefined {
    return this.topics.get(topicId)?.memo;
  }

  /** Whether the topic only accepts messages signed by this raw public key. */
  topicSubmitKey(topicId: string): Uint8Array | null | undefined {
    return this.topics.get(topicId)?.submitKey;
  }

  fileIds(): readonly string[] {
    return [...this.files.keys()];
  }

  private handleTransaction(request: Buffer): Uint8Array {
    this.submissions += 1;
    let code: proto.ResponseCodeEnum = Code.OK;
    try {
      this.apply(proto.Transaction.decode(request));
    } catch (e) {
      if (!(e instanceof Precheck)) throw e;
      code = e.code;
    }
    return proto.TransactionResponse.encode({ nodeTransactionPrecheckCode: code }).finish();
  }

  private apply(tx: proto.Transaction): void {
    if (!tx.signedTransactionBytes?.length) throw new Precheck(Code.INVALID_TRANSACTION);
    const signed = proto.SignedTransaction.decode(tx.signedTransactionBytes);
    const bodyBytes = signed.bodyBytes;
    const body = proto.TransactionBody.decode(bodyBytes);
    const node = body.nodeAccountID;
    if (!node || entity(node.shardNum, node.realmNum, node.accountNum) !== this.nodeAccountId) throw new Precheck(Code.INVALID_NODE_ACCOUNT);
    const txId = body.transactionID;
    const payerId = txId?.accountID;
    if (!txId?.transactionValidStart || !payerId) throw new Precheck(Code.INVALID_TRANSACTION_ID);
    const payer = entity(payerId.shardNum, payerId.realmNum, payerId.accountNum);
    const payerKey = this.accounts.get(payer);
    if (!payerKey) throw new Precheck(Code.PAYER_ACCOUNT_NOT_FOUND);
    const pairs = signed.sigMap?.sigPair ?? [];
    if (!verifies(payerKey, pairs, bodyBytes)) throw new Precheck(Code.INVALID_SIGNATURE);
    const validStart = { seconds: long(txId.transactionValidStart.seconds), nanos: txId.transactionValidStart.nanos ?? 0 };
    const transactionId = `${payer}@${validStart.seconds}.${String(validStart.nanos).padStart(9, '0')}`;
    if (this.transactions.has(transactionId)) throw new Precheck(Code.DUPLICATE_TRANSACTION);

    const consensus = this.consensusNow();
    const base = { transactionId, payerAccountId: payer, validStart, consensusTimestamp: timestampString(consensus.seconds, consensus.nanos), memo: body.memo ?? '' };
    let record: TransactionRecord;
    if (body.consensusCreateTopic) {
      const topicId = this.mint();
      this.topics.set(topicId, { memo: body.consensusCreateTopic.memo ?? '', submitKey: keyBytes(body.consensusCreateTopic.submitKey), runningHash: Buffer.alloc(48), sequenceNumber: 0n });
      const [shardNum, realmNum, topicNum] = parseEntity(topicId).map(int64);
      record = { ...base, name: 'CONSENSUSCREATETOPIC', entityId: topicId, receipt: proto.TransactionReceipt.create({ status: Code.SUCCESS, topicID: { shardNum, realmNum, topicNum } }) };
    } else if (body.consensusSubmitMessage) {
      const submit = body.consensusSubmitMessage;
      const topicId = submit.topicID ? entity(submit.topicID.shardNum, submit.topicID.realmNum, submit.topicID.topicNum) : '';
      const topic = this.topics.get(topicId);
      if (!topic) throw new Precheck(Code.INVALID_TOPIC_ID);
      if (!submit.message?.length) throw new Precheck(Code.INVALID_TOPIC_MESSAGE);
      if (submit.message.length > 1024) throw new Precheck(Code.MESSAGE_SIZE_TOO_LARGE);
      if (topic.submitKey && !verifies(topic.submitKey, pairs, bodyBytes)) throw new Precheck(Code.INVALID_SIGNATURE);
      const message = Buffer.from(submit.message);
      const chunk = submit.chunkInfo;
      const first = chunk?.initialTransactionID;
      const chunkInfo = chunk && first?.accountID && first.transactionValidStart
        ? {
            initialTransactionId: {
              accountId: entity(first.accountID.shardNum, first.accountID.realmNum, first.accountID.accountNum),
              validStart: timestampString(long(first.transactionValidStart.seconds), first.transactionValidStart.nanos ?? 0),
            },
            number: chunk.number ?? 1,
            total: chunk.total ?? 1,
          }
        : null;
      topic.sequenceNumber += 1n;
      topic.runningHash = nextRunningHash({
        previous: topic.runningHash,
        payer: parseEntity(payer) as EntityNum,
        topic: parseEntity(topicId),
        seconds: consensus.seconds,
        nanos: consensus.nanos,
        sequenceNumber: topic.sequenceNumber,
        message,
      });
      this.messages.push({ topicId, sequenceNumber: topic.sequenceNumber, consensusTimestamp: base.consensusTimestamp, message, runningHash: topic.runningHash, payerAccountId: payer, transactionId, chunkInfo });
      record = {
        ...base,
        name: 'CONSENSUSSUBMITMESSAGE',
        entityId: topicId,
        receipt: proto.TransactionReceipt.create({
          status: Code.SUCCESS,
          topicSequenceNumber: int64(topic.sequenceNumber),
          topicRunningHash: topic.runningHash,
          topicRunningHashVersion: int64(RUNNING_HASH_VERSION),
        }),
      };
    } else if (body.fileCreate) {
      const keys = (body.fileCreate.keys?.keys ?? []).map((k) => keyBytes(k)!);
      if (keys.length === 0) throw new Precheck(Code.INVALID_SIGNATURE_TYPE_MISMATCHING_KEY);
      if (!keys.every((k) => verifies(k, pairs, bodyBytes))) throw new Precheck(Code.INVALID_SIGNATURE);
      const fileId = this.mint();
      this.files.set(fileId, { contents: Buffer.from(body.fileCreate.contents ?? new Uint8Array()), memo: body.fileCreate.memo ?? '', keys });
      const [shardNum, realmNum, fileNum] = parseEntity(fileId).map(int64);
      record = { ...base, name: 'FILECREATE', entityId: fileId, receipt: proto.TransactionReceipt.create({ status: Code.SUCCESS, fileID: { shardNum, realmNum, fileNum } }) };
    } else if (body.fileUpdate || body.fileAppend) {
      const op = (body.fileUpdate ?? body.fileAppend)!;
      const fileId = op.fileID ? entity(op.fileID.shardNum, op.fileID.realmNum, op.fileID.fileNum) : '';
      const file = this.files.get(fileId);
      if (!file) throw new Precheck(Code.INVALID_FILE_ID);
      if (!file.keys.every((k) => verifies(k, pairs, bodyBytes))) throw new Precheck(Code.INVALID_SIGNATURE);
      const contents = Buffer.from(op.contents ?? new Uint8Array());
      // Proto3 bytes have no presence: an update with empty contents leaves them unchanged, as on Hedera.
      if (body.fileUpdate && contents.length > 0) file.contents = contents;
      if (body.fileAppend) file.contents = Buffer.concat([file.contents, contents]);
      if (file.contents.length > 1024 * 1024) throw new Precheck(Code.MAX_FILE_SIZE_EXCEEDED);
      record = { ...base, name: body.fileUpdate ? 'FILEUPDATE' : 'FILEAPPEND', entityId: fileId, receipt: proto.TransactionReceipt.create({ status: Code.SUCCESS }) };
    } else {
      throw new Precheck(Code.NOT_SUPPORTED);
    }
    this.transactions.set(transactionId, record);
  }

  private receiptQuery(request: Buffer): Uint8Array {
    const query = proto.Query.decode(request).transactionGetReceipt;
    const id = query?.transactionID;
    const key = id?.accountID && id.transactionValidStart
      ? `${entity(id.accountID.shardNum, id.accountID.realmNum, id.accountID.accountNum)}@${long(id.transactionValidStart.seconds)}.${String(id.transactionValidStart.nanos ?? 0).padStart(9, '0')}`
      : '';
    const record = this.transactions.get(key);
    const header = { nodeTransactionPrecheckCode: record ? Code.OK : Code.RECEIPT_NOT_FOUND };
    return proto.Response.encode({ transactionGetReceipt: { header, receipt: record?.receipt ?? null } }).finish();
  }

  /** FileGetContents: the cost on COST_ANSWER; otherwise the contents, for a query paid by a known account. */
  private fileQuery(request: Buffer): Uint8Array {
    const query = proto.Query.decode(request).fileGetContents;
    const answer = (header: proto.IResponseHeader, contents: proto.FileGetContentsResponse.IFileContents | null): Uint8Array =>
      proto.Response.encode({ fileGetContents: { header, fileContents: contents } }).finish();
    const id = query?.fileID;
    const fileId = id ? entity(id.shardNum, id.realmNum, id.fileNum) : '';
    if (query?.header?.responseType === proto.ResponseType.COST_ANSWER) return answer({ nodeTransactionPrecheckCode: Code.OK, cost: int64(String(FILE_QUERY_COST)) }, null);
    if (!this.paymentVerifies(query?.header?.payment)) return answer({ nodeTransactionPrecheckCode: Code.INSUFFICIENT_TX_FEE }, null);
    const file = this.files.get(fileId);
    if (!file) return answer({ nodeTransactionPrecheckCode: Code.INVALID_FILE_ID }, null);
    return answer({ nodeTransactionPrecheckCode: Code.OK }, { fileID: id ?? null, contents: file.contents });
  }

  /** A query's payment: a transaction whose payer is a known account and signed by its key (no balances here). */
  private paymentVerifies(payment: proto.ITransaction | null | undefined): boolean {
    if (!payment?.signedTransactionBytes?.length) return false;
    const signed = proto.SignedTransaction.decode(payment.signedTransactionBytes);
    const payer = proto.TransactionBody.decode(signed.bodyBytes).transactionID?.accountID;
    const key = payer ? this.accounts.get(entity(payer.shardNum, payer.realmNum, payer.accountNum)) : undefined;
    return !!key && verifies(key, signed.sigMap?.sigPair ?? [], signed.bodyBytes);
  }

  private mint(): string {
    this.nextEntity += 1n;
    return `0.0.${this.nextEntity}`;
  }

  /** Strictly increasing consensus timestamps (Hedera never gives two transactions the same one). */
  private consensusNow(): { seconds: bigint; nanos: number } {
    const nanos = BigInt(Date.now()) * 1_000_000n;
    this.lastConsensusNanos = nanos > this.lastConsensusNanos ? nanos : this.lastConsensusNanos + 1n;
    return { seconds: this.lastConsensusNanos / 1_000_000_000n, nanos: Number(this.lastConsensusNanos % 1_000_000_000n) };
  }
}
