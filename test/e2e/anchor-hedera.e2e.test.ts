/**
 * CREDGATE_ANCHOR=hedera end to end: the service issues, the relay publishes each batch's signed
 * head as one Hedera Consensus Service message through the unmodified @hashgraph/sdk (to a local
 * fake consensus node, with a mirror-node REST stub for receipts), and verification shows the
 * receipt, re-read from the mirror. The fake node stops mid-run: heads stay pending with the error
 * recorded, and once it is back each is published exactly once.
 */
import { decodeEnvelope } from '../../src/anchor/hedera/envelope';
import { createHederaAnchor } from '../../src/anchor/hedera';
import type { HederaSettings } from '../../src/anchor/hedera/config';
import { useHederaServer } from '../support/hedera/hedera-server';
import { type FbParty, fbParty } from '../support/family-b-fixtures';
import { anchorStatus, expectFailedAttempts, stripNulls, until } from '../support/anchor-status';
import { request } from '../support/http';
import { graphqlFamilyB } from '../support/family-b-transports';
import { unwrap } from '../support/family-a-fixtures';

type Json = Record<string, any>;

// The network, the operator account and the topic exist when the service starts.
const { hedera, server } = useHederaServer(async (base) => {
  const setup = await createHederaAnchor(base);
  const topicId = await setup.createTopic('credgate checkpoints');
  await setup.close();
  // Small SDK budgets so a submission to a stopped node fails fast (the relay retries it later).
  return { ...base, topicId, perDid: false, maxAttempts: 2, requestTimeoutMs: 4000, grpcDeadlineMs: 2000, mirrorPollMs: 20, mirrorWaitMs: 2000 } as HederaSettings;
});

/** The checkpoints published on the topic, as (logId, size) of each message. */
const published = (): string[] =>
  hedera.node.topicMessages(hedera.settings.topicId!).map((m) => {
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
        target: hedera.settings.topicId,
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
    const message = hedera.node.topicMessages(hedera.settings.topicId!).find((m) => String(m.sequenceNumber) === status['receipt'].sequenceNumber)!;
    expect(decodeEnvelope(message.message)).toMatchObject({ logId, treeSize, rootHash: checkpoint.json.rootHash });
    const v = unwrap(await t.verify(party.keys.verifier, credential));
    expect(v.verified).toBe(true);
    expect(stripNulls(v.anchor!.anchoring)).toEqual(status);
  });

  test('the consensus node stops: new heads stay pending with the error recorded; it returns: each is published once', async () => {
    const key = party.keys.verifier;
    await hedera.node.stop();
    const heads: { logId: string; treeSize: number }[] = [];
    for (const c of [await party.issue(), await party.issue()]) {
      const a = unwrap(await party.t.verify(key, c)).anchor!;
      heads.push({ logId: a.logId, treeSize: a.treeSize });
    }
    await expectFailedAttempts(server, key, heads);

    await hedera.node.start(); // same port, same state: the same network and topic
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
    expect(server.logs.text()).not.toContain(hedera.settings.operatorKey.reveal());
  });
});
