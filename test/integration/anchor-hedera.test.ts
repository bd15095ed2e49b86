/**
 * The Hedera anchor against a local fake consensus node (gRPC, real protobufs, signature checks)
 * and a mirror-node REST stub: the unmodified @hashgraph/sdk reaches the node via Client.forNetwork.
 */
import { createHash } from 'node:crypto';
import type * as HederaSdk from '@hashgraph/sdk' with { 'resolution-mode': 'import' };
import { AnchorRejected, type AnchorCheckpoint } from '../../src/anchor/anchor.port';
import { type HederaAnchor, type HederaAnchorOptions, createHederaAnchor } from '../../src/anchor/hedera';
import { decodeEnvelope } from '../../src/anchor/hedera/envelope';
import { FakeHederaNode } from '../support/hedera/fake-node';
import { MirrorStub } from '../support/hedera/mirror-stub';
import { nextRunningHash, parseEntity } from '../support/hedera/running-hash';

let sdk: typeof HederaSdk;
let node: FakeHederaNode;
let mirror: MirrorStub;
let operatorKey: HederaSdk.PrivateKey;
let anchor: HederaAnchor;
const topics: Record<string, string> = {};
const extra: HederaAnchor[] = [];

const OPERATOR = '0.0.1001';
const OTHER = '0.0.1002';
const ECDSA_OPERATOR = '0.0.1003';
let otherKey: HederaSdk.PrivateKey;
let ecdsaKey: HederaSdk.PrivateKey;

function options(over: Partial<HederaAnchorOptions> = {}): HederaAnchorOptions {
  return {
    network: node.network,
    mirrorUrl: mirror.url,
    operatorId: OPERATOR,
    operatorKey: operatorKey.toStringDer(),
    topicFor: (logId) => topics[logId] ?? null,
    // Small budgets so an unreachable node fails a submission quickly (the relay retries it later);
    // a short gRPC deadline also because the SDK leaves one uncleared timer of that length per call.
    maxAttempts: 2,
    requestTimeoutMs: 4000,
    grpcDeadlineMs: 2000,
    mirrorPollMs: 20,
    mirrorWaitMs: 300,
    ...over,
  };
}

/**
 * Submits, retrying transient failures (as the relay does) but not refusals. Bounded by time, not
 * by a count: after a node restart the SDK keeps the node out for its own backoff, during which
 * every attempt fails at once ("must have been frozen": no healthy node to freeze against), and on
 * a loaded machine that backoff outlasted 20 quick attempts (one failure in three full runs).
 */
async function submitRetrying(a: HederaAnchor, cp: AnchorCheckpoint, patienceMs = 45_000): Promise<Awaited<ReturnType<HederaAnchor['submit']>>> {
  const until = Date.now() + patienceMs;
  for (;;) {
    try {
      return await a.submit(cp);
    } catch (e) {
      if (e instanceof AnchorRejected || Date.now() >= until) throw e;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

async function adapter(over: Partial<HederaAnchorOptions> = {}): Promise<HederaAnchor> {
  const a = await createHederaAnchor(options(over));
  extra.push(a);
  return a;
}

const checkpoint = (logId: string, treeSize: number): AnchorCheckpoint => ({
  logId,
  treeSize,
  rootHash: Buffer.alloc(32, treeSize).toString('base64'),
  note: `credgate.test/ledger/${logId}\n${treeSize}\n${Buffer.alloc(32, treeSize).toString('base64')}\n\n— credgate.test/ledger sig\n`,
});

const messagesFor = (topicId: string, logId: string, treeSize: number): number =>
  node.topicMessages(topicId).filter((m) => {
    const cp = decodeEnvelope(m.message);
    return cp?.logId === logId && cp.treeSize === treeSize;
  }).length;

beforeAll(async () => {
  sdk = await import('@hashgraph/sdk');
  operatorKey = sdk.PrivateKey.generateED25519();
  otherKey = sdk.PrivateKey.generateED25519();
  ecdsaKey = sdk.PrivateKey.generateECDSA();
  node = await FakeHederaNode.start({
    accounts: { [OPERATOR]: operatorKey.publicKey.toBytesRaw(), [OTHER]: otherKey.publicKey.toBytesRaw(), [ECDSA_OPERATOR]: ecdsaKey.publicKey.toBytesRaw() },
  });
  mirror = await MirrorStub.start(node);
  anchor = await adapter();
});

afterAll(async () => {
  for (const a of extra) await a.close();
  await mirror?.stop();
  await node?.stop();
});

describe('Hedera anchor via @hashgraph/sdk against the fake node and mirror stub', () => {
  test('createTopic makes a topic; submitted checkpoints come back with the mirror receipt (timestamp, sequence number, running hash)', async () => {
    const topicId = await anchor.createTopic('credgate did:credgate:local:a credentials');
    expect(topicId).toMatch(/^0\.0\.\d+$/);
    expect(node.topicIds()).toContain(topicId);
    topics['0.0.7'] = topicId;

    const r1 = await anchor.submit(checkpoint('0.0.7', 1));
    const r2 = await anchor.submit(checkpoint('0.0.7', 2));
    const stored = node.topicMessages(topicId);
    expect(stored.map((m) => m.sequenceNumber)).toEqual([1n, 2n]);
    expect(r1).toEqual({
      adapter: 'hedera',
      network: 'hedera:local',
      txId: stored[0]!.transactionId,
      target: topicId,
      consensusTimestamp: stored[0]!.consensusTimestamp,
      sequenceNumber: '1',
      runningHash: stored[0]!.runningHash.toString('base64'),
      logId: '0.0.7',
      treeSize: 1,
      rootHash: checkpoint('0.0.7', 1).rootHash,
    });
    expect(r2.sequenceNumber).toBe('2');
    expect(r2.txId).toMatch(new RegExp(`^${OPERATOR.replace(/\./g, '\\.')}@\\d+\\.\\d{9}$`));
    // The running hash chains: message 2's hash is computed over message 1's.
    const [s, n] = stored[1]!.consensusTimestamp.split('.');
    expect(
      nextRunningHash({ previous: stored[0]!.runningHash, payer: parseEntity(OPERATOR), topic: parseEntity(topicId), seconds: BigInt(s!), nanos: Number(n), sequenceNumber: 2n, message: stored[1]!.message }).toString('base64'),
    ).toBe(r2.runningHash);
    // The message is the compact envelope, with the signed note when it fits one chunk.
    expect(decodeEnvelope(stored[1]!.message)).toEqual(checkpoint('0.0.7', 2));
  });

  test('find() returns the earlier receipt, and submit() of an anchored head publishes nothing new', async () => {
    const found = await anchor.find({ logId: '0.0.7', treeSize: 2 });
    expect(found?.sequenceNumber).toBe('2');
    expect(found?.txId).toBe(node.topicMessages(topics['0.0.7']!)[1]!.transactionId);
    expect(await anchor.find({ logId: '0.0.7', treeSize: 3 })).toBeNull();
    expect(await anchor.find({ logId: '0.0.8', treeSize: 2 }).catch((e: unknown) => e)).toBeInstanceOf(AnchorRejected);
    const before = node.submissions;
    expect(await anchor.submit(checkpoint('0.0.7', 2))).toEqual(found);
    expect(node.submissions).toBe(before);
    expect(messagesFor(topics['0.0.7']!, '0.0.7', 2)).toBe(1);
  });

  test('checkReceipt: valid for the anchored head, invalid for another root or a doctored receipt, unavailable while the mirror is down', async () => {
    const receipt = (await anchor.find({ logId: '0.0.7', treeSize: 1 }))!;
    const expected = { logId: '0.0.7', treeSize: 1, rootHash: receipt.rootHash };
    expect(await anchor.checkReceipt(receipt, expected)).toEqual({ status: 'valid' });
    const tampered = await anchor.checkReceipt(receipt, { ...expected, rootHash: Buffer.alloc(32, 9).toString('base64') });
    expect(tampered).toMatchObject({ status: 'invalid', reason: expect.stringContaining('rootHash') });
    expect(await anchor.checkReceipt(receipt, { ...expected, treeSize: 2 })).toMatchObject({ status: 'invalid' });
    expect(await anchor.checkReceipt({ ...receipt, sequenceNumber: '2' }, expected)).toMatchObject({ status: 'invalid' });
    expect(await anchor.checkReceipt({ ...receipt, runningHash: Buffer.alloc(48).toString('base64') }, expected)).toMatchObject({ status: 'invalid' });
    expect(await anchor.checkReceipt({ ...receipt, sequenceNumber: '99' }, expected)).toMatchObject({ status: 'invalid' });
    expect(await anchor.checkReceipt({ ...receipt, network: 'hedera:mainnet' }, expected)).toMatchObject({ status: 'invalid' });

    await mirror.stop();
    try {
      expect(await anchor.checkReceipt(receipt, expected)).toMatchObject({ status: 'unavailable' });
    } finally {
      await mirror.start();
    }
    expect(await anchor.checkReceipt(receipt, expected)).toEqual({ status: 'valid' });
  });

  test('a wrong operator key is rejected by the node (INVALID_SIGNATURE) as a permanent failure; nothing is published', async () => {
    const imposter = await adapter({ operatorKey: sdk.PrivateKey.generateED25519().toStringDer() });
    const before = node.allMessages().length;
    const err = await imposter.submit(checkpoint('0.0.7', 3)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AnchorRejected);
    expect((err as Error).message).toContain('INVALID_SIGNATURE');
    expect(node.allMessages()).toHaveLength(before);
    await expect(imposter.createTopic()).rejects.toThrow(AnchorRejected);
  });

  test("another funded account cannot post to a DID's topic: the submit key is the operator's", async () => {
    const other = await adapter({ operatorId: OTHER, operatorKey: `ed25519:${otherKey.toStringRaw()}` });
    const err = await other.submit(checkpoint('0.0.7', 4)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AnchorRejected);
    expect((err as Error).message).toContain('INVALID_SIGNATURE');
    expect(messagesFor(topics['0.0.7']!, '0.0.7', 4)).toBe(0);
  });

  test('an ECDSA (secp256k1) operator signs over keccak-256 and anchors on its own topic', async () => {
    const ecdsa = await adapter({ operatorId: ECDSA_OPERATOR, operatorKey: ecdsaKey.toStringDer() });
    topics['0.0.9'] = await ecdsa.createTopic();
    const receipt = await ecdsa.submit(checkpoint('0.0.9', 5));
    expect(receipt.target).toBe(topics['0.0.9']);
    expect(receipt.txId.startsWith(`${ECDSA_OPERATOR}@`)).toBe(true);
    expect(await ecdsa.checkReceipt(receipt, checkpoint('0.0.9', 5))).toEqual({ status: 'valid' });
  });

  test('createFile stores a DID document in the File Service (memo, operator key); FileContents reads it back', async () => {
    const doc = Buffer.from(JSON.stringify({ id: 'did:credgate:local:0.0.7', verificationMethod: [] }));
    const fileId = await anchor.createFile(doc, 'credgate did:credgate:local:x did-document');
    expect(fileId).toMatch(/^0\.0\.\d+$/);
    expect(node.fileContents(fileId)).toEqual(doc);
    expect(node.fileMemo(fileId)).toBe('credgate did:credgate:local:x did-document');
    expect(Buffer.from(await anchor.readFile(fileId))).toEqual(doc);
  });

  test('documents larger than one transaction: FileCreate/FileUpdate carry the first 4 KiB, FileAppend chunks the rest', async () => {
    const big = Buffer.from(Array.from({ length: 11_000 }, (_, i) => 'abcdefghij'[i % 10]).join(''));
    const fileId = await anchor.createFile(big, 'big');
    expect(node.fileContents(fileId)).toEqual(big);
    const appends = (): number => node.transactionRecords().filter((t) => t.name === 'FILEAPPEND' && t.entityId === fileId).length;
    expect(appends()).toBe(Math.ceil((big.length - 4096) / 4096));
    const bigger = Buffer.concat([big, Buffer.from('-updated-'), big]);
    const { txId } = await anchor.updateFile(fileId, bigger);
    expect(node.transaction(txId)?.name).toBe('FILEUPDATE');
    expect(node.fileContents(fileId)).toEqual(bigger);
    expect(Buffer.from(await anchor.readFile(fileId))).toEqual(bigger);
    // Smaller again: the update replaces the contents (it does not append to the old ones).
    await anchor.updateFile(fileId, Buffer.from('small'));
    expect(node.fileContents(fileId)?.toString()).toBe('small');
    await expect(anchor.createFile(Buffer.alloc(1024 * 1024 + 1))).rejects.toThrow(AnchorRejected);
  });

  test("another funded account cannot change a DID's file: its key list is the operator's", async () => {
    const fileId = await anchor.createFile(Buffer.from('original'), 'guarded');
    const intruder = await adapter({ operatorId: OTHER, operatorKey: otherKey.toStringDer() });
    await expect(intruder.updateFile(fileId, Buffer.from('forged'))).rejects.toThrow(AnchorRejected);
    expect(node.fileContents(fileId)?.toString()).toBe('original');
  });

  test("a DID's document-file log is anchored by writing the current document into its file; the receipt checks against the mirror", async () => {
    const fileId = await anchor.createFile(new Uint8Array(), 'credgate did file');
    let document = Buffer.from('{"v":1}');
    const fileAnchor = await adapter({ fileFor: async (logId) => (logId === fileId ? document : null) });
    const r1 = await submitRetrying(fileAnchor, checkpoint(fileId, 1));
    expect(node.fileContents(fileId)).toEqual(document);
    expect(r1).toMatchObject({ adapter: 'hedera', target: fileId, logId: fileId, treeSize: 1, fileHash: createHash('sha256').update(document).digest('base64') });
    expect(r1.sequenceNumber).toBeUndefined();
    expect(await fileAnchor.checkReceipt(r1, checkpoint(fileId, 1))).toEqual({ status: 'valid' });
    // A receipt naming another file, or a doctored timestamp, does not check.
    expect((await fileAnchor.checkReceipt({ ...r1, target: '0.0.1' }, checkpoint(fileId, 1))).status).toBe('invalid');
    expect((await fileAnchor.checkReceipt({ ...r1, consensusTimestamp: '1.000000001' }, checkpoint(fileId, 1))).status).toBe('invalid');
    // The document changed (e.g. the DID was deleted): the next head writes the new one.
    document = Buffer.from('{"v":2,"deactivated":true}');
    expect(await fileAnchor.find(checkpoint(fileId, 2))).toBeNull();
    await submitRetrying(fileAnchor, checkpoint(fileId, 2));
    expect(node.fileContents(fileId)).toEqual(document);
  });

  test('consensus reached but the mirror lags: submit fails as transient, and the retry reuses the message instead of publishing again', async () => {
    const topicId = topics['0.0.7']!;
    mirror.hold();
    let err: unknown;
    try {
      err = await anchor.submit(checkpoint('0.0.7', 6)).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(Error);
      expect(err).not.toBeInstanceOf(AnchorRejected);
      expect(messagesFor(topicId, '0.0.7', 6)).toBe(1);
      expect(await anchor.find({ logId: '0.0.7', treeSize: 6 })).toBeNull();
    } finally {
      mirror.release();
    }
    const submissions = node.submissions;
    const receipt = await anchor.submit(checkpoint('0.0.7', 6));
    expect(node.submissions).toBe(submissions);
    expect(messagesFor(topicId, '0.0.7', 6)).toBe(1);
    expect(receipt.txId).toBe(node.topicMessages(topicId).at(-1)!.transactionId);
    expect(await anchor.find({ logId: '0.0.7', treeSize: 6 })).toEqual(receipt);
  });

  test('while the node is down submit fails as transient (not rejected); after start() the same head anchors once', async () => {
    const topicId = topics['0.0.7']!;
    await node.stop();
    let err: unknown;
    try {
      err = await anchor.submit(checkpoint('0.0.7', 10)).catch((e: unknown) => e);
    } finally {
      await node.start();
    }
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(AnchorRejected);
    expect(messagesFor(topicId, '0.0.7', 10)).toBe(0);
    // A fresh client, as after a relay restart: the same head, then a retry, publish one message.
    // The relay retries transient failures with backoff; so does this: right after start() the SDK
    // may still find the node unhealthy ("All nodes are unhealthy") and give up on an attempt.
    const after = await adapter({ maxAttempts: 10, requestTimeoutMs: 30_000 });
    const receipt = await submitRetrying(after, checkpoint('0.0.7', 10));
    expect(await submitRetrying(after, checkpoint('0.0.7', 10))).toEqual(receipt);
    expect(messagesFor(topicId, '0.0.7', 10)).toBe(1);
    expect(await after.checkReceipt(receipt, checkpoint('0.0.7', 10))).toEqual({ status: 'valid' });
  }, 120_000);
});
