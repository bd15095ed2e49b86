import { randomBytes } from 'node:crypto';
import { DB_TIMEOUT_DEFAULTS } from '../../src/config/limits';
import { rootFromLeafHashes } from '../../src/domain/merkle';
import { useTestServer } from '../support/harness';
import { unwrap } from '../support/family-a-fixtures';
import { type FamilyBTransport, graphqlFamilyB, restFamilyB } from '../support/family-b-transports';
import { type Transport, graphqlTransport, restTransport } from '../support/transports';

// 200 requests at once make the pool open all its connections together. On a loaded 2-core CI
// machine opening one once took over the 2 s default connect bound, and those issues answered 503
// "the database is unavailable" (a fresh-clone CI run, stop 26). This file is about ordering under
// concurrency; the connect bound has its own tests (faults-db-outage, pg-executor-outage).
const server = useTestServer(() => ({ env: { dbTimeouts: { ...DB_TIMEOUT_DEFAULTS, connectTimeoutMs: 20_000 } } }));

describe.each(['REST', 'GraphQL'])('Family B under concurrency through %s', (name) => {
  let t: FamilyBTransport;
  let slice: Transport;
  let key: string;
  let issuer: { did: string; topicId: string; templateTopicId: string };

  beforeAll(async () => {
    t = name === 'REST' ? restFamilyB(server) : graphqlFamilyB(server);
    slice = name === 'REST' ? restTransport(server, '') : graphqlTransport(server);
    key = await server.apiKey(`fbc-${name.toLowerCase()}-${randomBytes(3).toString('hex')}`, ['issuer']);
    const kp = unwrap(await slice.generateKeypair(key));
    const doc = unwrap(await slice.createDid(key, { method: 'credgate', publicKey: kp.publicKey })).document;
    issuer = { did: doc.id, topicId: doc.topicId!, templateTopicId: doc.templateTopicId! };
  });

  const templateBody = (templateName: string) => ({
    templateName,
    description: 'load',
    issuer: issuer.did,
    attributes: [{ attributeName: 'n', type: 'integer', description: 'sequence' }],
    expiration: { value: 1, unit: 'days' },
  });

  test('50 parallel creates of one template name: exactly one 201 and 49 409s', async () => {
    const results = await Promise.all(Array.from({ length: 50 }, () => t.createTemplate(key, templateBody('Racer'))));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok && r.status === 409)).toHaveLength(49);
    expect(unwrap(await t.listTemplates(key)).filter((x) => x.name === 'Racer')).toHaveLength(1);
  });

  test('200 parallel issues leave a log with contiguous indices whose root recomputes from its leaves', async () => {
    const template = unwrap(await t.createTemplate(key, templateBody('Load')));
    const before = (await server.app.ledger.checkpoint(issuer.topicId)).treeSize;
    const issued = await Promise.all(Array.from({ length: 200 }, (_, n) => t.issue(key, { templateId: template.templateId, credentialSubject: { n } })));
    expect(issued.filter((r) => !r.ok)).toEqual([]);
    const ids = issued.map((r) => unwrap(r)['id'] as string);
    expect(new Set(ids).size).toBe(200);

    const cp = await server.app.ledger.checkpoint(issuer.topicId);
    expect(cp.treeSize).toBe(before + 200);
    const leaves = await server.app.ledger.leafHashes(issuer.topicId, 0, cp.treeSize);
    expect(leaves).toHaveLength(cp.treeSize);
    expect(Buffer.from(rootFromLeafHashes(leaves.map((l) => Buffer.from(l, 'base64')))).toString('base64')).toBe(cp.rootHash);
    const rows = await server.app.db.prisma.ledgerLeaf.findMany({ where: { logSeq: BigInt(issuer.topicId.split('.')[2]!) }, orderBy: { index: 'asc' }, select: { index: true, ref: true } });
    expect(rows.map((r) => r.index)).toEqual(Array.from({ length: cp.treeSize }, (_, i) => i));
    expect(new Set(rows.map((r) => r.ref))).toEqual(new Set(ids));
    // Each credential got its own status-list slot.
    const slots = await server.app.db.prisma.credential.findMany({ where: { id: { in: ids } }, select: { statusIndex: true } });
    expect(new Set(slots.map((s) => s.statusIndex)).size).toBe(200);
  });
});
