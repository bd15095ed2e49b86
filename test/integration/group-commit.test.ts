import { createHash, randomUUID } from 'node:crypto';
import { openCheckpoint, parseVerifierKey, rootFromLeafHashes } from '../../src/domain/merkle';
import { PrismaCredentialRepository } from '../../src/db/repositories/credential.repository';
import { useTestServer } from '../support/harness';
import { type FbParty, fbParty } from '../support/family-b-fixtures';
import { unwrap } from '../support/family-a-fixtures';

/**
 * Batches across issuers (issue 19): one tick commits the issuances of every issuer with work in
 * one transaction, and each issuer's log still gets its own leaves, nodes and signed head. And the
 * head check of the group path (the frontier must fold to the signed root) refuses a rewritten log.
 */
const server = useTestServer();
const logSeq = (logId: string): bigint => BigInt(logId.slice('0.0.'.length));

async function logOf(party: FbParty): Promise<{ logId: string; input: { tenantId: string; templateId: string; issuerDidId: string; statusListId: string } }> {
  const first = party.issue();
  const row = await server.app.db.prisma.credential.findUniqueOrThrow({ where: { id: (await first)['id'] as string } });
  const issuer = await server.app.db.prisma.did.findUniqueOrThrow({ where: { id: row.issuerDidId } });
  return { logId: issuer.topicId, input: { tenantId: row.tenantId, templateId: row.templateId, issuerDidId: row.issuerDidId, statusListId: row.statusListId } };
}

/** The stored head of a log, opened with the log key, against the root of its stored leaves. */
async function headAndLeaves(logId: string): Promise<{ headSize: number; headRoot: Buffer; leafCount: number; leafRoot: Buffer }> {
  const head = await server.app.db.prisma.ledgerHead.findUniqueOrThrow({ where: { logSeq: logSeq(logId) } });
  const origin = `${new URL(server.config.publicUrl).host}/ledger`;
  const verifier = { name: origin, publicKey: parseVerifierKey((await server.app.ledger.checkpoint(logId)).verifierKey).publicKey };
  const opened = openCheckpoint(head.note, verifier, `${origin}/${logId}`);
  expect(opened.verified).toBe(true);
  const log = await server.app.db.prisma.ledgerLog.findUniqueOrThrow({ where: { seq: logSeq(logId) } });
  const leaves = await server.app.ledger.leafHashes(logId, 0, log.treeSize);
  return { headSize: opened.checkpoint!.size, headRoot: Buffer.from(opened.checkpoint!.rootHash), leafCount: log.treeSize, leafRoot: Buffer.from(rootFromLeafHashes(leaves.map((l) => Buffer.from(l, 'base64')))) };
}

const build = (logId: string, id = `urn:uuid:${randomUUID()}`) => (statusIndex: number) => {
  const document = { id, statusIndex };
  const hash = new Uint8Array(createHash('sha256').update(JSON.stringify(document)).digest());
  return { id, document, credentialHash: hash, holder: null, expiresAt: new Date('2030-01-01T00:00:00Z'), anchor: { logId, entryHash: hash, kind: 'credential', ref: id } };
};

describe.each(['REST', 'GraphQL'])('issuers of several tenants at once through %s', (name) => {
  test('every issuance is answered, verifies, and each log is covered by its own signed head', async () => {
    const parties = await Promise.all(Array.from({ length: 5 }, () => fbParty(server, name)));
    const before = server.app.batchStats().issue;
    const issued = await Promise.all(parties.flatMap((p, n) => Array.from({ length: 4 }, (_, i) => p.t.issue(p.keys.issuer, { templateId: p.template['templateId'], credentialSubject: { name: `p${n}-${i}`, birthDate: '1990-12-09', employeeNo: i } }))));
    expect(issued.filter((r) => !r.ok)).toEqual([]);
    const after = server.app.batchStats().issue;
    expect(after.requests - before.requests).toBe(20);
    for (const [n, p] of parties.entries()) {
      const docs = issued.slice(n * 4, n * 4 + 4).map((r) => unwrap(r));
      for (const doc of docs) expect(unwrap(await p.t.verify(p.keys.verifier, doc)).verified).toBe(true);
      const { logId } = await logOf(p);
      const h = await headAndLeaves(logId);
      expect(h.headSize).toBe(h.leafCount);
      expect(h.headRoot.equals(h.leafRoot)).toBe(true);
    }
  });
});

describe('one tick for many issuers (the repository, with a window only a full queue ends)', () => {
  test('issuances of 4 issuers in 4 tenants commit in ONE transaction; each log grows by its own entries under its own head', async () => {
    const logs = await Promise.all(Array.from({ length: 4 }, async () => logOf(await fbParty(server, 'REST'))));
    const sizes = await Promise.all(logs.map((l) => headAndLeaves(l.logId)));
    const repo = new PrismaCredentialRepository(server.app.db, server.app.ledger, { windowMs: 3_600_000, max: 12 });
    const out = await Promise.all(logs.flatMap((l) => [0, 1, 2].map(() => repo.issue(l.input, build(l.logId)))));
    expect(out).toHaveLength(12);
    const stats = repo.stats().issue;
    expect(stats.batches).toBe(1);
    expect(stats.sizes.get(12)).toBe(1);
    for (const [i, l] of logs.entries()) {
      const h = await headAndLeaves(l.logId);
      expect(h.leafCount).toBe(sizes[i]!.leafCount + 3);
      expect(h.headSize).toBe(h.leafCount);
      expect(h.headRoot.equals(h.leafRoot)).toBe(true);
    }
    // Each credential went to its own issuer's list and log.
    const rows = await server.app.db.prisma.credential.findMany({ where: { id: { in: out.map((r) => r.id) } } });
    for (const r of rows) expect(logs.some((l) => l.input.statusListId === r.statusListId && l.input.issuerDidId === r.issuerDidId)).toBe(true);
    await repo.drain();
  });

  test('a log left beyond its stored head (a crash between a commit and its head): the next tick settles it through the full check, then commits', async () => {
    const party = await fbParty(server, 'REST');
    const l = await logOf(party);
    const before = await headAndLeaves(l.logId);
    // What a crash leaves: a leaf committed to the issuer's log, no head stored for it.
    const orphan = new Uint8Array(createHash('sha256').update(`orphan ${randomUUID()}`).digest());
    await server.app.db.prisma.$transaction((tx) => server.app.ledger.appendInTransaction(tx, l.logId, { entryHash: orphan, kind: 'test', ref: 'orphan' }));
    expect((await server.app.db.prisma.ledgerHead.findUniqueOrThrow({ where: { logSeq: logSeq(l.logId) } })).treeSize).toBe(before.leafCount);
    const repo = new PrismaCredentialRepository(server.app.db, server.app.ledger, { windowMs: 0, max: 10 });
    const issued = await repo.issue(l.input, build(l.logId));
    expect(issued.status).toBe('issued');
    const after = await headAndLeaves(l.logId);
    expect(after.leafCount).toBe(before.leafCount + 2);
    expect(after.headSize).toBe(after.leafCount);
    expect(after.headRoot.equals(after.leafRoot)).toBe(true);
    await repo.drain();
  });

  test('attack: a frontier node rewritten in the database (triggers off, as a superuser could) makes the tick that reads it refuse; nothing of it is written', async () => {
    const party = await fbParty(server, 'REST');
    const l = await logOf(party);
    const seq = logSeq(l.logId);
    // A level-0 node is in the frontier (the perfect tiles of [0, size)) exactly when the size is odd.
    if ((await headAndLeaves(l.logId)).leafCount % 2 === 0) await party.issue();
    const size = (await headAndLeaves(l.logId)).leafCount;
    expect(size % 2).toBe(1);
    await server.app.db.sql.transaction(async (tx) => {
      await tx.exec('SET LOCAL session_replication_role = replica');
      await tx.query(`UPDATE ledger_nodes SET hash = decode(repeat('ab', 32), 'hex') WHERE log_seq = $1 AND level = 0 AND index = $2`, [seq.toString(), size - 1]);
    });
    // This instance remembers the frontier its last tick committed and extends the log from it
    // without reading (src/ledger/frontier-cache.ts): its next head would still be the true tree's.
    // Whoever reads the log next refuses the rewritten row: another instance, a restart, or this
    // one after a settle, which drops what it remembered.
    await server.app.ledger.settle(l.logId);
    const repo = new PrismaCredentialRepository(server.app.db, server.app.ledger, { windowMs: 0, max: 10 });
    const id = `urn:uuid:${randomUUID()}`;
    await expect(repo.issue(l.input, build(l.logId, id))).rejects.toMatchObject({ code: 'INTERNAL' });
    expect(await server.app.db.prisma.credential.count({ where: { id } })).toBe(0);
    expect((await server.app.db.prisma.ledgerLog.findUniqueOrThrow({ where: { seq } })).treeSize).toBe(size);
    expect((await server.app.db.prisma.ledgerHead.findUniqueOrThrow({ where: { logSeq: seq } })).treeSize).toBe(size);
    await repo.drain();
  });
});
