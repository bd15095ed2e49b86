/**
 * CREDGATE_ANCHOR=hedera end to end: the service issues, the relay publishes each batch's signed
 * head as one Hedera Consensus Service message through the unmodified @hashgraph/sdk (to a local
 * fake consensus node, with a mirror-node REST stub for receipts), and verification shows the
 * receipt, re-read from the mirror. The fake node stops mid-run: heads stay pending with the error
 * recorded, and once it is back each is published exactly once.
 */
import type * as HederaSdk from '@hashgraph/sdk' with { 'resolution-mode': 'import' };
import { decodeEnvelope } from '../../src/anchor/hedera/envelope';
import { createHederaAnchor } from '../../src/anchor/hedera';
import { type HederaSettings, SecretKey } from '../../src/anchor/hedera/config';
import { FakeHederaNode } from '../support/hedera/fake-node';
import { MirrorStub } from '../support/hedera/mirror-stub';
import { type FbParty, fbParty } from '../support/family-b-fixtures';
import { anchorStatus, expectFailedAttempts, stripNulls, until } from '../support/anchor-status';
import { useTestServer } from '../support/harness';
import { request } from '../support/http';
import { graphqlFamilyB } from '../support/family-b-transports';
import { unwrap } from '../support/family-a-fixtures';

type Json = Record<string, any>;
const OPERATOR = '0.0.1001';
let node: FakeHederaNode;
let mirror: MirrorStub;
let settings: HederaSettings;

// Registered before the server's hooks: the network, the operator account and the topic exist when the service starts.
beforeAll(async () => {
  const sdk: typeof HederaSdk = await import('@hashgraph/sdk');
  const operatorKey = sdk.PrivateKey.generateED25519();
  node = await FakeHederaNode.start({ accounts: { [OPERATOR]: operatorKey.publicKey.toBytesRaw() } });
  mirror = await MirrorStub.start(node);
  const base = { network: node.network, mirrorUrl: mirror.url, operatorId: OPERATOR, operatorKey: new SecretKey(operatorKey.toStringDer()), topicId: undefined };
  const setup = await createHederaAnchor(base);
  const topicId = await setup.createTopic('credgate checkpoints');
  await setup.close();
  // Small SDK budgets so a submission to a stopped node fails fast (the relay retries it later).
  settings = { ...base, topicId, perDid: false, maxAttempts: 2, requestTimeoutMs: 4000, grpcDeadlineMs: 2000, mirrorPollMs: 20, mirrorWaitMs: 2000 } as HederaSettings;
});
afterAll(async () => {
  await mirror?.stop();
  await node?.stop();
});

const server = useTestServer(() => ({
  env: {
    anchor: { mode: 'hedera', relay: { pollMs: 100, baseDelayMs: 200, maxDelayMs: 1000, leaseMs: 30_000 } },
    hedera: settings,
  },
}));




/** The checkpoints published on the topic, as (logId, size) of each message. */
const published = (): string[] =>
  node.topicMessages(settings.topicId!).map((m) => {
    const cp = decodeEnvelope(m.message);
    return `${cp?.logId}@${cp?.treeSize}`;
  });

describe('Hedera anchoring against a fake consensus node and mirror stub', () => {
  let party: FbParty;

  beforeAll(async () => {
    party = await fbParty(server, 'REST');
  });

  test.each(['REST', 'GraphQL'])('issue -> the relay publishes the head on the topic -> verification through %s shows the checked receipt', async (name) => {
    const t = name === 'REST' ? party.t : graphqlFamilyB(server);
    const credential = await party.issue();
    const { logId, treeSize } = unwrap(await t.verify(party.keys.verifier, credential)).anchor!;
    const status = await until('the anchor', () => anchorStatus(server, party.keys.verifier, logId, treeSize, name as 'REST' | 'GraphQL'), (s) => s['status'] === 'anchored');
    const checkpoint = await request(server.baseUrl, 'GET', `/ledger/${logId}/checkpoint`, { headers: { 'x-api-key': party.keys.verifier } });
    expect(status).toMatchObject({
      logId,
      treeSize,
      status: 'anchored',
      receipt: {
        adapter: 'hedera',
        target: settings.topicId,
        txId: expect.stringMatching(/^0\.0\.1001@\d+\.\d{9}$/),
        consensusTimestamp: expect.stringMatching(/^\d+\.\d{9}$/),
        sequenceNumber: expect.stringMatching(/^\d+$/),
        runningHash: expect.any(String),
        logId,
        treeSize,
        rootHash: checkpoint.json.rootHash,
      },
      check: { status: 'valid' },
    });
    // Independently of the service: the topic holds that checkpoint, with the log's root.
    const message = node.topicMessages(settings.topicId!).find((m) => String(m.sequenceNumber) === status['receipt'].sequenceNumber)!;
    expect(decodeEnvelope(message.message)).toMatchObject({ logId, treeSize, rootHash: checkpoint.json.rootHash });
    const v = unwrap(await t.verify(party.keys.verifier, credential));
    expect(v.verified).toBe(true);
    expect(stripNulls(v.anchor!.anchoring)).toEqual(status);
  });

  test('the consensus node stops: new heads stay pending with the error recorded; it returns: each is published once', async () => {
    const key = party.keys.verifier;
    await node.stop();
    const heads: { logId: string; treeSize: number }[] = [];
    for (const c of [await party.issue(), await party.issue()]) {
      const a = unwrap(await party.t.verify(key, c)).anchor!;
      heads.push({ logId: a.logId, treeSize: a.treeSize });
    }
    await expectFailedAttempts(server, key, heads);

    await node.start(); // same port, same state: the same network and topic
    for (const h of heads) {
      const s = await until('the anchor after the outage', () => anchorStatus(server, key, h.logId, h.treeSize), (x) => x['status'] === 'anchored');
      expect(s).toMatchObject({ status: 'anchored', check: { status: 'valid' } });
      expect(await anchorStatus(server, key, h.logId, h.treeSize, 'GraphQL')).toEqual(s);
    }
    // Every outbox row is anchored, and the topic holds exactly one message per row: no duplicates.
    const rows = await until('every outbox row anchored', () => server.app.db.prisma.anchorOutbox.findMany(), (all) => all.every((r) => r.status === 'anchored'));
    const messages = published();
    expect(messages).toHaveLength(rows.length);
    expect(new Set(messages).size).toBe(rows.length);
    for (const r of rows) expect(messages).toContain(`${r.logId}@${r.treeSize}`);
    // The operator's private key never reached the logs.
    expect(server.logs.text()).not.toContain(settings.operatorKey.reveal());
  });
});
