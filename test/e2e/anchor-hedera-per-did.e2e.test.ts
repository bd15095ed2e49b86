/**
 * CREDGATE_ANCHOR=hedera with per-DID entities (CREDGATE_HEDERA_PER_DID, the default): creating a
 * DID creates its credential topic, template topic and document file on Hedera (through the
 * unmodified @hashgraph/sdk, against a local fake consensus node and a mirror-node stub); those ids
 * are the DID's topicId / templateTopicId / ledgerFileId and its log ids; checkpoints go to the
 * DID's own topics; document changes reach the file through the outbox relay. The node down at
 * creation answers 503 with nothing stored; down mid-run, heads wait and anchor once afterwards.
 */
import { createHash, randomBytes } from 'node:crypto';
import { decodeEnvelope } from '../../src/anchor/hedera/envelope';
import type { HederaSettings } from '../../src/anchor/hedera/config';
import { useHederaServer } from '../support/hedera/hedera-server';
import { type FbParty, fbParty, fbTransports } from '../support/family-b-fixtures';
import { anchorStatus, expectFailedAttempts, until } from '../support/anchor-status';
import { request } from '../support/http';
import { unwrap } from '../support/family-a-fixtures';

type Json = Record<string, any>;
// No shared topic: every log of a DID made here has its own entities. The fake node answers in
// this process, so its answers wait on the same event loop as the service: under a loaded CI
// machine a 1 s gRPC deadline ran out on a healthy node (503 at DID creation). A stopped node
// refuses connections at once, so the longer deadlines do not lengthen the outage tests much.
const { hedera, server } = useHederaServer((base) => ({
  ...base,
  perDid: true,
  entityTimeoutMs: 8000,
  maxAttempts: 2,
  requestTimeoutMs: 5000,
  grpcDeadlineMs: 3000,
  mirrorPollMs: 20,
  mirrorWaitMs: 2000,
}) as HederaSettings);

const sha256 = (b: Uint8Array): string => createHash('sha256').update(b).digest('base64');
const counts = async (): Promise<{ dids: number; logs: number }> => ({
  dids: await server.app.db.prisma.did.count(),
  logs: await server.app.db.prisma.ledgerLog.count(),
});

describe('per-DID Hedera entities', () => {
  test.each(['REST', 'GraphQL'])("creating a DID through %s creates its topics and file on Hedera; the file holds the served document", async (name) => {
    const { slice } = fbTransports(server, name);
    const key = await server.apiKey(`hd-${name.toLowerCase()}-${randomBytes(3).toString('hex')}`, ['issuer']);
    const pair = unwrap(await slice.generateKeypair(key));
    const before = new Set([...hedera.node.topicIds(), ...hedera.node.fileIds()]);
    const { document, created } = unwrap(await slice.createDid(key, { method: 'credgate', publicKey: pair.publicKey }));
    expect(created).toBe(true);
    const { topicId, templateTopicId, ledgerFileId } = document as { topicId: string; templateTopicId: string; ledgerFileId: string };
    // The ids are the ones the fake node minted (not the service's own numbering), and are new.
    expect(hedera.node.topicIds()).toEqual(expect.arrayContaining([topicId, templateTopicId]));
    expect(hedera.node.fileIds()).toContain(ledgerFileId);
    for (const id of [topicId, templateTopicId, ledgerFileId]) expect(before.has(id)).toBe(false);
    const did = document.id.slice(0, document.id.lastIndexOf(':'));
    expect(did).toMatch(/^did:credgate:[a-z0-9-]+:[1-9A-HJ-NP-Za-km-z]+$/);
    expect(hedera.node.topicMemo(topicId)).toBe(`credgate ${did} credentials`);
    expect(hedera.node.topicMemo(templateTopicId)).toBe(`credgate ${did} templates`);
    expect(hedera.node.fileMemo(ledgerFileId)).toBe(`credgate ${did} did-document`);
    // Only the operator can write to the topics; the mirror shows memo and submit key (how operators find orphans).
    expect(Buffer.from(hedera.node.topicSubmitKey(topicId)!)).toEqual(Buffer.from(hedera.operatorPublicKey));
    const info = await request(hedera.mirror.url, 'GET', `/api/v1/topics/${topicId}`);
    expect(info.json).toMatchObject({ topic_id: topicId, memo: `credgate ${did} credentials`, admin_key: null, submit_key: { _type: 'ED25519', key: Buffer.from(hedera.operatorPublicKey).toString('hex') } });
    // The document read back from the File Service equals the one the service serves.
    const served = unwrap(await slice.getDid(key, document.id));
    expect(JSON.parse(hedera.node.fileContents(ledgerFileId)!.toString('utf8'))).toEqual(served);
    // They are the DID's log ids, too.
    const logs = await server.app.db.prisma.ledgerLog.findMany({ where: { seq: { in: [topicId, templateTopicId, ledgerFileId].map((id) => BigInt(id.split('.')[2]!)) } } });
    expect(logs.map((l) => l.kind).sort()).toEqual(['credentials', 'did-file', 'templates']);
    // Registering the same key again costs no new entities.
    const entities = hedera.node.topicIds().length + hedera.node.fileIds().length;
    expect(unwrap(await slice.createDid(key, { method: 'credgate', publicKey: pair.publicKey })).created).toBe(false);
    expect(hedera.node.topicIds().length + hedera.node.fileIds().length).toBe(entities);
    // The file log's first head is anchored by the write of that document (the relay, not the request).
    const fileStatus = await until('the file anchor', () => anchorStatus(server, key, ledgerFileId, 1, name as 'REST' | 'GraphQL'), (s) => s['status'] === 'anchored');
    expect(fileStatus).toMatchObject({ receipt: { adapter: 'hedera', target: ledgerFileId, fileHash: sha256(hedera.node.fileContents(ledgerFileId)!) }, check: { status: 'valid' } });
  });

  describe('issuing', () => {
    let party: FbParty;
    let issuerDoc: Json;

    beforeAll(async () => {
      party = await fbParty(server, 'REST');
      issuerDoc = unwrap(await party.slice.getDid(party.keys.issuer, party.issuer.did)) as Json;
    });

    test.each(['REST', 'GraphQL'])("a credential's checkpoint is anchored in the issuer DID's credential topic, a template in its template topic; verification through %s shows the receipts", async (name) => {
      const t = name === 'REST' ? party.t : fbTransports(server, name).t;
      const credential = await party.issue();
      const v = unwrap(await t.verify(party.keys.verifier, credential));
      expect(v.verified).toBe(true);
      const { logId, treeSize } = v.anchor!;
      expect(logId).toBe(issuerDoc['topicId']);
      const status = await until('the anchor', () => anchorStatus(server, party.keys.verifier, logId, treeSize, name as 'REST' | 'GraphQL'), (s) => s['status'] === 'anchored');
      expect(status).toMatchObject({ status: 'anchored', receipt: { target: issuerDoc['topicId'], logId, treeSize }, check: { status: 'valid' } });
      const message = hedera.node.topicMessages(issuerDoc['topicId']).find((m) => String(m.sequenceNumber) === status['receipt'].sequenceNumber)!;
      expect(decodeEnvelope(message.message)).toMatchObject({ logId, treeSize });
      // The template created by the party is a leaf of the template log, anchored in the template topic.
      const templateTopic = issuerDoc['templateTopicId'];
      const tStatus = await until('the template anchor', () => anchorStatus(server, party.keys.verifier, templateTopic, 1, name as 'REST' | 'GraphQL'), (s) => s['status'] === 'anchored');
      expect(tStatus).toMatchObject({ receipt: { target: templateTopic }, check: { status: 'valid' } });
      expect(hedera.node.topicMessages(templateTopic).map((m) => decodeEnvelope(m.message)?.logId)).toContain(templateTopic);
      // Nothing of this DID went anywhere but its own topics.
      for (const m of hedera.node.allMessages()) {
        const cp = decodeEnvelope(m.message);
        if (cp) expect(m.topicId).toBe(cp.logId);
      }
    });

    test('the node stops mid-run: heads stay pending; it returns: each is published once, in the DID topic', async () => {
      const key = party.keys.verifier;
      await hedera.node.stop();
      const heads: { logId: string; treeSize: number }[] = [];
      try {
        for (const c of [await party.issue(), await party.issue()]) {
          const a = unwrap(await party.t.verify(key, c)).anchor!;
          heads.push({ logId: a.logId, treeSize: a.treeSize });
        }
        await expectFailedAttempts(server, key, heads);
      } finally {
        await hedera.node.start();
      }
      for (const h of heads) {
        const s = await until('the anchor after the outage', () => anchorStatus(server, key, h.logId, h.treeSize), (x) => x['status'] === 'anchored');
        expect(s).toMatchObject({ status: 'anchored', receipt: { target: issuerDoc['topicId'] }, check: { status: 'valid' } });
      }
      const topic = issuerDoc['topicId'];
      const rows = await until('every row of the topic log anchored', () => server.app.db.prisma.anchorOutbox.findMany({ where: { logId: topic } }), (all) => all.every((r) => r.status === 'anchored'));
      const published = hedera.node.topicMessages(topic).map((m) => `${decodeEnvelope(m.message)?.logId}@${decodeEnvelope(m.message)?.treeSize}`);
      expect(published).toHaveLength(rows.length);
      expect(new Set(published).size).toBe(rows.length);
    });
  });

  test.each(['REST', 'GraphQL'])('the node down when a DID is created through %s: 503 SERVICE_UNAVAILABLE with Retry-After, nothing stored', async (name) => {
    const key = await server.apiKey(`hd-down-${randomBytes(3).toString('hex')}`, ['issuer']);
    const { slice } = fbTransports(server, name);
    const pair = unwrap(await slice.generateKeypair(key));
    const before = await counts();
    await hedera.node.stop();
    try {
      if (name === 'REST') {
        const res = await request(server.baseUrl, 'POST', '/dids', { headers: { 'x-api-key': key }, body: { method: 'credgate', publicKey: pair.publicKey } });
        expect(res.status).toBe(503);
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect(res.text).not.toMatch(/at .*\.ts:\d+/);
      } else {
        const res = await request(server.baseUrl, 'POST', '/graphql', {
          headers: { 'x-api-key': key },
          body: { query: 'mutation($input: CreateDidInput!) { createDid(input: $input) { created } }', variables: { input: { method: 'credgate', publicKey: pair.publicKey } } },
        });
        expect(res.json.errors[0].extensions).toMatchObject({ code: 'SERVICE_UNAVAILABLE', retryAfter: expect.any(Number) });
      }
      expect(await counts()).toEqual(before);
    } finally {
      await hedera.node.start();
    }
    // Once the ledger is back the same request succeeds (a client retrying after Retry-After; the SDK
    // may hold the restarted node unhealthy for a moment).
    const retried = await until('creation after the node returns', () => slice.createDid(key, { method: 'credgate', publicKey: pair.publicKey }), (o) => o.ok || o.status !== 503);
    expect(unwrap(retried).created).toBe(true);
  });

  test('deleting a DID changes its document: the relay writes the deactivated document into its file', async () => {
    const key = await server.apiKey(`hd-del-${randomBytes(3).toString('hex')}`, ['issuer']);
    const get = await until('the issuer DID', () => request(server.baseUrl, 'GET', '/api/issuer/did', { headers: { 'x-api-key': key } }), (r) => r.status !== 503);
    expect(get.status).toBe(200);
    const issuerDid = get.json.data as string;
    const fid = /fid=(0\.0\.\d+)/.exec(issuerDid)![1]!;
    expect(hedera.node.fileIds()).toContain(fid);
    const first = JSON.parse(hedera.node.fileContents(fid)!.toString('utf8'));
    expect(first.deactivated).toBeUndefined();
    const del = await request(server.baseUrl, 'DELETE', `/api/issuer/did/${encodeURIComponent(issuerDid)}`, { headers: { 'x-api-key': key } });
    expect(del.status).toBe(200);
    const status = await until('the file update', () => anchorStatus(server, key, fid, 2), (s) => s['status'] === 'anchored');
    const now = JSON.parse(hedera.node.fileContents(fid)!.toString('utf8'));
    expect(now).toMatchObject({ id: first.id, deactivated: true, __v: first.__v + 1 });
    expect(status).toMatchObject({ receipt: { target: fid, fileHash: sha256(hedera.node.fileContents(fid)!) }, check: { status: 'valid' } });
  });
});
