import { createHash, randomUUID } from 'node:crypto';
import { type NoteVerifier, openCheckpoint, parseVerifierKey, publicKeyOf, rootFromLeafHashes } from '../../src/domain/merkle';
import { PrismaCredentialRepository } from '../../src/db/repositories/credential.repository';
import { deriveLedgerSeed } from '../../src/ledger';
import type { SequencerStats } from '../../src/ledger/sequencer';
import { useTestServer } from '../support/harness';
import { type FbParty, fbParty } from '../support/family-b-fixtures';
import { unwrap } from '../support/family-a-fixtures';

/**
 * The issuance sequencer: concurrent issuances and revocations of one issuer share transactions,
 * every answered request is durable and covered by a stored signed head, and one bad member of a
 * batch fails alone. Through REST and GraphQL with the same assertions.
 */
const server = useTestServer();
const N = 200;

const logSeq = (logId: string): bigint => BigInt(logId.slice('0.0.'.length));
const delta = (after: SequencerStats, before: SequencerStats) => ({ requests: after.requests - before.requests, batches: after.batches - before.batches });

/**
 * The stored signed head of a log, opened with the key derived from the master key (on PGlite,
 * whose key file the harness does not see, with the key the server reports).
 */
async function storedHead(logId: string): Promise<{ size: number; root: Buffer }> {
  const head = await server.app.db.prisma.ledgerHead.findUniqueOrThrow({ where: { logSeq: logSeq(logId) } });
  const origin = `${new URL(server.config.publicUrl).host}/ledger`;
  const master = server.config.masterKey;
  const publicKey = master ? publicKeyOf(deriveLedgerSeed(master)) : parseVerifierKey((await server.app.ledger.checkpoint(logId)).verifierKey).publicKey;
  const verifier: NoteVerifier = { name: origin, publicKey };
  const opened = openCheckpoint(head.note, verifier, `${origin}/${logId}`);
  expect(opened.verified).toBe(true);
  expect(opened.checkpoint!.size).toBe(head.treeSize);
  return { size: head.treeSize, root: Buffer.from(opened.checkpoint!.rootHash) };
}

async function rootFromStoredLeaves(logId: string): Promise<{ size: number; root: Buffer }> {
  const log = await server.app.db.prisma.ledgerLog.findUniqueOrThrow({ where: { seq: logSeq(logId) } });
  const leaves = await server.app.ledger.leafHashes(logId, 0, log.treeSize);
  return { size: log.treeSize, root: Buffer.from(rootFromLeafHashes(leaves.map((l) => Buffer.from(l, 'base64')))) };
}

describe.each(['REST', 'GraphQL'])('the issuance sequencer through %s', (name) => {
  let party: FbParty;
  let topicId: string;
  let ids: string[];

  beforeAll(async () => {
    party = await fbParty(server, name);
    const issuer = await server.app.db.prisma.did.findFirstOrThrow({ where: { did: { startsWith: party.issuer.did } } });
    topicId = issuer.topicId;
  });

  test(`${N} concurrent issuances of one issuer commit in fewer batches than requests; each has its own leaf and slot; the stored head is the root of the leaves`, async () => {
    const before = server.app.batchStats().issue;
    const issued = await Promise.all(
      Array.from({ length: N }, (_, n) => party.t.issue(party.keys.issuer, { templateId: party.template['templateId'], credentialSubject: { name: `n${n}`, birthDate: '1990-12-09', employeeNo: n } })),
    );
    expect(issued.filter((r) => !r.ok)).toEqual([]);
    ids = issued.map((r) => unwrap(r)['id'] as string);
    expect(new Set(ids).size).toBe(N);

    const d = delta(server.app.batchStats().issue, before);
    expect(d.requests).toBe(N);
    expect(d.batches).toBeLessThan(N);

    const rows = await server.app.db.prisma.credential.findMany({ where: { id: { in: ids } }, select: { id: true, statusIndex: true, credentialHash: true } });
    expect(rows).toHaveLength(N);
    expect(new Set(rows.map((r) => r.statusIndex)).size).toBe(N);
    const leaves = await server.app.db.prisma.ledgerLeaf.findMany({ where: { logSeq: logSeq(topicId), ref: { in: ids } }, select: { index: true, ref: true, entryHash: true } });
    expect(leaves).toHaveLength(N);
    expect(new Set(leaves.map((l) => l.index)).size).toBe(N);
    // Each leaf anchors its own credential's hash.
    const hashOf = new Map(rows.map((r) => [r.id, Buffer.from(r.credentialHash).toString('hex')]));
    for (const l of leaves) expect(Buffer.from(l.entryHash).toString('hex')).toBe(hashOf.get(l.ref));

    // Answered means covered: the stored signed head already includes every leaf.
    const head = await storedHead(topicId);
    const recomputed = await rootFromStoredLeaves(topicId);
    expect(head.size).toBe(recomputed.size);
    expect(head.root.equals(recomputed.root)).toBe(true);
    expect(Math.max(...leaves.map((l) => l.index))).toBeLessThan(head.size);
  });

  test('every credential of the burst verifies (ledger check against the stored head) without a new head being signed', async () => {
    const signedBefore = await server.app.db.prisma.ledgerHead.findUniqueOrThrow({ where: { logSeq: logSeq(topicId) } });
    const docs = await Promise.all(ids.slice(0, 20).map(async (id) => unwrap(await party.t.get(party.keys.issuer, id))));
    const results = await Promise.all(docs.map((doc) => party.t.verify(party.keys.verifier, doc)));
    for (const r of results) {
      const v = unwrap(r);
      expect(v.checks.find((c) => c.check === 'ledger')).toMatchObject({ ok: true });
      expect(v.verified).toBe(true);
    }
    const signedAfter = await server.app.db.prisma.ledgerHead.findUniqueOrThrow({ where: { logSeq: logSeq(topicId) } });
    expect(signedAfter.note).toBe(signedBefore.note);
  });

  test('concurrent revocations share batches; every bit is set, every revocation is anchored and covered by the stored head', async () => {
    const victims = ids.slice(0, 60);
    const before = server.app.batchStats().revoke;
    const sizeBefore = (await rootFromStoredLeaves(topicId)).size;
    // Each revoked twice at once: idempotent, inside one batch or across two.
    const out = await Promise.all([...victims, ...victims.slice(0, 10)].map((id) => party.t.revoke(party.keys.issuer, id)));
    expect(out.filter((r) => !r.ok)).toEqual([]);
    const d = delta(server.app.batchStats().revoke, before);
    expect(d.requests).toBe(70);
    expect(d.batches).toBeLessThan(70);

    const rows = await server.app.db.prisma.credential.findMany({ where: { id: { in: victims } }, select: { status: true, statusIndex: true, statusListId: true } });
    expect(rows.every((r) => r.status === 'revoked')).toBe(true);
    const list = await server.app.db.prisma.statusList.findUniqueOrThrow({ where: { id: rows[0]!.statusListId } });
    for (const r of rows) expect(list.bits[r.statusIndex >> 3]! & (0x80 >> (r.statusIndex & 7))).not.toBe(0);
    const anchored = await server.app.db.prisma.ledgerLeaf.count({ where: { logSeq: logSeq(topicId), kind: 'revocation', ref: { in: victims } } });
    expect(anchored).toBe(victims.length);
    const head = await storedHead(topicId);
    expect(head.size).toBe(sizeBefore + victims.length);
    expect(head.root.equals((await rootFromStoredLeaves(topicId)).root)).toBe(true);

    const doc = unwrap(await party.t.get(party.keys.issuer, victims[0]!));
    const v = unwrap(await party.t.verify(party.keys.verifier, doc));
    expect(v.checks.find((c) => c.check === 'status')).toMatchObject({ ok: false });
    expect(v.verified).toBe(false);
  });
});

describe('failure isolation inside a batch', () => {
  test('a member whose insert fails in the database (a duplicate id) fails alone; a member whose build throws fails alone; the others commit', async () => {
    const party = await fbParty(server, 'REST');
    const existing = unwrap(await party.t.issue(party.keys.issuer, { templateId: party.template['templateId'], credentialSubject: { name: 'x', birthDate: '1990-12-09', employeeNo: 1 } }));
    const row = await server.app.db.prisma.credential.findUniqueOrThrow({ where: { id: existing['id'] as string } });
    const issuer = await server.app.db.prisma.did.findUniqueOrThrow({ where: { id: row.issuerDidId } });
    const sizeBefore = (await rootFromStoredLeaves(issuer.topicId)).size;

    // A second repository on the same database and ledger: its own sequencer, with a long window
    // so all members are certainly in one batch.
    const repo = new PrismaCredentialRepository(server.app.db, server.app.ledger, { windowMs: 200, max: 100 });
    const input = { tenantId: row.tenantId, templateId: row.templateId, issuerDidId: row.issuerDidId, statusListId: row.statusListId };
    const build = (id: string, fail = false) => (statusIndex: number) => {
      if (fail) throw new Error('cannot build this one');
      const document = { id, statusIndex };
      const hash = new Uint8Array(createHash('sha256').update(JSON.stringify(document)).digest());
      return { id, document, credentialHash: hash, holder: null, expiresAt: new Date('2030-01-01T00:00:00Z'), anchor: { logId: issuer.topicId, entryHash: hash, kind: 'credential', ref: id } };
    };
    const good = Array.from({ length: 8 }, () => `urn:uuid:${randomUUID()}`);
    const settled = await Promise.allSettled([
      ...good.slice(0, 4).map((id) => repo.issue(input, build(id))),
      repo.issue(input, build(row.id)), // the duplicate: the whole batch's INSERT fails in PostgreSQL
      repo.issue(input, build(`urn:uuid:${randomUUID()}`, true)),
      ...good.slice(4).map((id) => repo.issue(input, build(id))),
    ]);
    expect(settled.map((s) => s.status)).toEqual([...Array(4).fill('fulfilled'), 'rejected', 'rejected', ...Array(4).fill('fulfilled')]);
    expect(String((settled[5] as PromiseRejectedResult).reason)).toMatch(/cannot build this one/);
    const stats = repo.stats().issue;
    expect(stats.splits).toBe(1);
    expect(stats.sizes.get(10)).toBe(1);

    expect(await server.app.db.prisma.credential.count({ where: { id: { in: good } } })).toBe(8);
    const head = await storedHead(issuer.topicId);
    expect(head.size).toBe(sizeBefore + 8);
    expect(head.root.equals((await rootFromStoredLeaves(issuer.topicId)).root)).toBe(true);
    await repo.drain();
    await expect(repo.issue(input, build(`urn:uuid:${randomUUID()}`))).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  });
});

describe('a log left beyond its stored head (a crash between a commit and its head)', () => {
  test('reads serve the stored head without signing; a read needing the missing part is 503; the background repair then covers it', async () => {
    const party = await fbParty(server, 'REST');
    const issuer = await server.app.db.prisma.did.findFirstOrThrow({ where: { did: { startsWith: party.issuer.did } } });
    const logId = issuer.templateTopicId;
    const signed = await server.app.ledger.checkpoint(logId);
    const entryHash = new Uint8Array(createHash('sha256').update(`orphan ${randomUUID()}`).digest());
    // What a crash leaves: the append committed, the head never stored.
    const { leafIndex } = await server.app.db.prisma.$transaction((tx) => server.app.ledger.appendInTransaction(tx, logId, { entryHash, kind: 'test', ref: 'orphan' }));
    expect(leafIndex).toBe(signed.treeSize);
    const headRow = () => server.app.db.prisma.ledgerHead.findUniqueOrThrow({ where: { logSeq: logSeq(logId) } });
    expect((await headRow()).treeSize).toBe(signed.treeSize);

    expect(await server.app.ledger.checkpoint(logId)).toEqual(signed);
    await expect(server.app.ledger.checkpoint(logId, leafIndex + 1)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    // The read scheduled the repair; it runs off the read path (close() waits for it the same way).
    for (let i = 0; i < 100 && (await headRow()).treeSize === signed.treeSize; i++) await new Promise((r) => setTimeout(r, 20));
    expect((await headRow()).treeSize).toBe(signed.treeSize + 1);
    expect((await server.app.ledger.checkpoint(logId, leafIndex + 1)).treeSize).toBe(signed.treeSize + 1);
  });
});
