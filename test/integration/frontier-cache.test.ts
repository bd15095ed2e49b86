import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { PrismaCredentialRepository } from '../../src/db/repositories/credential.repository';
import { leafHash, openCheckpoint, rootFromLeafHashes, verifyConsistency, verifyInclusion } from '../../src/domain/merkle';
import { type Ledger, createLedger, deriveLedgerSeed } from '../../src/ledger';
import { fbParty } from '../support/family-b-fixtures';
import { useTestServer } from '../support/harness';
import { StatementCounter } from '../support/statement-counter';

/**
 * Issue 19: a Family B tick skips the read of its logs' heads, frontiers and present entries when
 * every log is at the size this Ledger instance itself committed it to (src/ledger/frontier-cache.ts).
 * Run on PostgreSQL and on PGlite (CREDGATE_TEST_DB=pglite). Two Ledger instances with the app's
 * key stand for two service instances on one database; the app's own ledger is a third.
 */
const masterKey = randomBytes(32);
const server = useTestServer(() => ({ masterKey }));
const counter = new StatementCounter();
beforeAll(() => counter.install());
afterAll(() => counter.uninstall());

const b64 = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'base64'));
const sha = (text: string): Uint8Array => new Uint8Array(createHash('sha256').update(text).digest());
const logSeq = (logId: string): string => logId.slice('0.0.'.length);
/** The text of readLogState (src/db/sql/ledger.sql.ts) as the counter records it. */
const isStateRead = (text: string): boolean => text.startsWith("SELECT 'head' AS what");

type Input = { tenantId: string; templateId: string; issuerDidId: string; statusListId: string; logId?: string };
interface Log {
  readonly logId: string;
  readonly input: Input;
}

let origin: string;
let ledgerA: Ledger;
let ledgerB: Ledger;
let repoA: PrismaCredentialRepository;
let repoB: PrismaCredentialRepository;

beforeAll(() => {
  origin = `${new URL(server.config.publicUrl).host}/ledger`;
  const options = { seed: deriveLedgerSeed(masterKey), origin, sql: server.app.db.sql };
  ledgerA = createLedger(server.app.db.prisma, options);
  ledgerB = createLedger(server.app.db.prisma, options);
  // windowMs 0: every issue() below is a tick of its own unless the test queues several at once.
  repoA = new PrismaCredentialRepository(server.app.db, ledgerA, { windowMs: 0, max: 16 });
  repoB = new PrismaCredentialRepository(server.app.db, ledgerB, { windowMs: 0, max: 16 });
});

afterAll(async () => {
  await repoA?.drain();
  await repoB?.drain();
  await ledgerA?.close();
  await ledgerB?.close();
});

/** A fresh issuer (tenant, DID, list, log), found through one issuance of the app itself. */
async function newLog(): Promise<Log> {
  const party = await fbParty(server, 'REST');
  const first = await party.issue();
  const row = await server.app.db.prisma.credential.findUniqueOrThrow({ where: { id: first['id'] as string } });
  const issuer = await server.app.db.prisma.did.findUniqueOrThrow({ where: { id: row.issuerDidId } });
  return { logId: issuer.topicId, input: { tenantId: row.tenantId, templateId: row.templateId, issuerDidId: row.issuerDidId, statusListId: row.statusListId, logId: issuer.topicId } };
}

/** A credential for a slot, anchored with `entryHash` (default: its own hash) in `logId`. */
const build = (logId: string, opts: { id?: string; entryHash?: Uint8Array } = {}) => (statusIndex: number) => {
  const id = opts.id ?? `urn:uuid:${randomUUID()}`;
  const document = { id, statusIndex };
  const hash = sha(JSON.stringify(document));
  return { id, document, credentialHash: hash, holder: null, expiresAt: new Date('2030-01-01T00:00:00Z'), anchor: { logId, entryHash: opts.entryHash ?? hash, kind: 'credential', ref: id } };
};

/** Runs `fn` and says how many statements it sent and whether one of them was the state read. */
async function measured<T>(fn: () => Promise<T>): Promise<{ result: T; statements: number; read: boolean }> {
  counter.texts.splice(0);
  counter.recording = true;
  try {
    const { result, statements } = await counter.during(fn);
    return { result, statements, read: counter.texts.some(isStateRead) };
  } finally {
    counter.recording = false;
  }
}

/**
 * The log as the database holds it, checked: the stored head is signed with the log key, covers
 * every leaf, its root is the root of the stored leaves, and the leaves are distinct entries.
 */
async function checkedLog(logId: string): Promise<{ size: number; root: Uint8Array; leaves: string[] }> {
  const head = await ledgerA.heads.latest(logId);
  const verifier = { name: origin, publicKey: b64(head!.publicKey) };
  const opened = openCheckpoint(head!.note, verifier, `${origin}/${logId}`);
  expect(opened.verified).toBe(true);
  const log = await server.app.db.prisma.ledgerLog.findUniqueOrThrow({ where: { seq: BigInt(logSeq(logId)) } });
  expect(opened.checkpoint!.size).toBe(log.treeSize);
  const leaves = await ledgerA.leafHashes(logId, 0, log.treeSize);
  expect(new Set(leaves).size).toBe(leaves.length);
  expect(Buffer.from(rootFromLeafHashes(leaves.map(b64)))).toEqual(Buffer.from(opened.checkpoint!.rootHash));
  return { size: log.treeSize, root: Uint8Array.from(opened.checkpoint!.rootHash), leaves };
}

/** The credential's leaf is included in the stored head, and the head extends an earlier one. */
async function expectProofs(logId: string, credentialHash: Uint8Array, earlier: { size: number; root: Uint8Array }): Promise<void> {
  const now = await checkedLog(logId);
  const found = await ledgerA.findEntry(logId, credentialHash);
  expect(found).not.toBeNull();
  const proof = (await ledgerA.inclusionProof(logId, found!.leafIndex, now.size)).map(b64);
  expect(verifyInclusion(leafHash(credentialHash), found!.leafIndex, now.size, proof, now.root)).toBe(true);
  const consistency = (await ledgerA.consistencyProof(logId, earlier.size, now.size)).map(b64);
  expect(verifyConsistency(earlier.size, now.size, consistency, earlier.root, now.root)).toBe(true);
}

test('consecutive ticks on the same log skip the read: 5 statements cold, then 4, and the tree stays right', async () => {
  const log = await newLog();
  const start = await checkedLog(log.logId);
  const cold = await measured(() => repoA.issue(log.input, build(log.logId)));
  expect(cold).toMatchObject({ statements: 5, read: true });
  for (let i = 0; i < 3; i++) {
    const warm = await measured(() => repoA.issue(log.input, build(log.logId)));
    expect(warm).toMatchObject({ statements: 4, read: false });
    await expectProofs(log.logId, warm.result.credentialHash, start);
  }
  expect((await checkedLog(log.logId)).size).toBe(start.size + 4);
});

test('an issuance that does not name its log: the ledger locks the log in a statement of its own (one more), same tree', async () => {
  const log = await newLog();
  const start = await checkedLog(log.logId);
  const { logId: _named, ...unnamed } = log.input;
  expect(await measured(() => repoA.issue(unnamed, build(log.logId)))).toMatchObject({ statements: 6, read: true });
  const warm = await measured(() => repoA.issue(unnamed, build(log.logId)));
  expect(warm).toMatchObject({ statements: 5, read: false });
  await expectProofs(log.logId, warm.result.credentialHash, start);
});

test('a tick of several logs reads only when one of them moved; the others come from memory', async () => {
  const [x, y] = [await newLog(), await newLog()];
  // One tick of both logs: a window only a full queue (of 2) ends.
  const repo = new PrismaCredentialRepository(server.app.db, ledgerA, { windowMs: 3_600_000, max: 2 });
  const tick = () => Promise.all([repo.issue(x.input, build(x.logId)), repo.issue(y.input, build(y.logId))]);
  await tick();
  const startX = await checkedLog(x.logId);
  const startY = await checkedLog(y.logId);
  expect(await measured(tick)).toMatchObject({ statements: 4, read: false });
  // y grows through another instance: the next tick reads (y only), builds both correctly.
  await repoB.issue(y.input, build(y.logId));
  const mixed = await measured(tick);
  expect(mixed).toMatchObject({ statements: 5, read: true });
  expect(counter.texts.filter(isStateRead)).toHaveLength(1);
  await expectProofs(x.logId, mixed.result[0].credentialHash, startX);
  await expectProofs(y.logId, mixed.result[1].credentialHash, startY);
  expect((await checkedLog(x.logId)).size).toBe(startX.size + 2);
  expect((await checkedLog(y.logId)).size).toBe(startY.size + 3);
  expect(await measured(tick)).toMatchObject({ statements: 4, read: false });
  await repo.drain();
});

test('another Ledger instance appended between two ticks: the size differs, the next tick reads and extends its tree', async () => {
  const log = await newLog();
  await repoA.issue(log.input, build(log.logId));
  const before = await checkedLog(log.logId);
  // Instance B issues twice (its first tick reads, its second comes from its own memory).
  await repoB.issue(log.input, build(log.logId));
  expect(await measured(() => repoB.issue(log.input, build(log.logId)))).toMatchObject({ read: false });
  const next = await measured(() => repoA.issue(log.input, build(log.logId)));
  expect(next).toMatchObject({ statements: 5, read: true });
  await expectProofs(log.logId, next.result.credentialHash, before);
  expect((await checkedLog(log.logId)).size).toBe(before.size + 3);
  // And B's memory of the log is stale now too: it reads, and the tree is still one tree.
  const fromB = await measured(() => repoB.issue(log.input, build(log.logId)));
  expect(fromB).toMatchObject({ read: true });
  await expectProofs(log.logId, fromB.result.credentialHash, before);
});

test('the Prisma append path (Family A, VC-API) between two ticks, of another instance or this one: the next tick reads', async () => {
  const log = await newLog();
  await repoA.issue(log.input, build(log.logId));
  const before = await checkedLog(log.logId);
  // Another instance (the app's own ledger) appends and settles through Prisma.
  await server.app.ledger.append(log.logId, { entryHash: sha(`prisma ${randomUUID()}`), kind: 'test', ref: 'other-instance' });
  const afterOther = await measured(() => repoA.issue(log.input, build(log.logId)));
  expect(afterOther).toMatchObject({ statements: 5, read: true });
  await expectProofs(log.logId, afterOther.result.credentialHash, before);
  // This instance's own Prisma path, then its settle (as its callers do after the commit).
  await server.app.db.prisma.$transaction((tx) => ledgerA.appendInTransaction(tx, log.logId, { entryHash: sha(`own ${randomUUID()}`), kind: 'test', ref: 'same-instance' }));
  await ledgerA.settle(log.logId);
  const afterOwn = await measured(() => repoA.issue(log.input, build(log.logId)));
  expect(afterOwn).toMatchObject({ statements: 5, read: true });
  await expectProofs(log.logId, afterOwn.result.credentialHash, before);
  expect((await checkedLog(log.logId)).size).toBe(before.size + 4);
});

test('a failed tick (a duplicate credential id) drops the entry: nothing is written, and the next tick reads', async () => {
  const log = await newLog();
  const taken = await repoA.issue(log.input, build(log.logId));
  expect(await measured(() => repoA.issue(log.input, build(log.logId)))).toMatchObject({ read: false });
  const before = await checkedLog(log.logId);
  const failed = await measured(() => repoA.issue(log.input, build(log.logId, { id: taken.id })).catch((e: unknown) => e));
  expect(failed.result).toMatchObject({ code: '23505' });
  // It was a tick from memory (no read), and it rolled back.
  expect(failed.read).toBe(false);
  expect(await checkedLog(log.logId)).toEqual(before);
  const next = await measured(() => repoA.issue(log.input, build(log.logId)));
  expect(next).toMatchObject({ statements: 5, read: true });
  await expectProofs(log.logId, next.result.credentialHash, before);
});

test('a failed tick of several credentials: the per-member retries read, the innocent ones commit, the log stays one tree', async () => {
  const log = await newLog();
  const taken = await repoA.issue(log.input, build(log.logId));
  await repoA.issue(log.input, build(log.logId));
  const before = await checkedLog(log.logId);
  const repo = new PrismaCredentialRepository(server.app.db, ledgerA, { windowMs: 3_600_000, max: 3 });
  const splitsBefore = repo.stats().issue.splits;
  const out = await measured(() =>
    Promise.allSettled([repo.issue(log.input, build(log.logId)), repo.issue(log.input, build(log.logId, { id: taken.id })), repo.issue(log.input, build(log.logId))]),
  );
  expect(out.result.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  expect(repo.stats().issue.splits).toBe(splitsBefore + 1);
  // The whole tick failed from memory; its first retry found no entry and read the log.
  expect(out.read).toBe(true);
  const after = await checkedLog(log.logId);
  expect(after.size).toBe(before.size + 2);
  for (const r of out.result) if (r.status === 'fulfilled') await expectProofs(log.logId, r.value.credentialHash, before);
  await repo.drain();
});

test('an entry hash the log already holds: a tick from memory is refused by the unique entry, then run again reading, and deduplicated as before', async () => {
  const log = await newLog();
  const first = await repoA.issue(log.input, build(log.logId));
  expect(await measured(() => repoA.issue(log.input, build(log.logId)))).toMatchObject({ read: false });
  const before = await checkedLog(log.logId);
  // A new credential whose anchor repeats the first one's entry hash.
  const dup = await measured(() => repoA.issue(log.input, build(log.logId, { entryHash: first.credentialHash })));
  expect(dup.result.status).toBe('issued');
  // Two transactions: the one from memory (refused, 4 statements) and the one that read (5).
  expect(dup).toMatchObject({ statements: 9, read: true });
  expect(await checkedLog(log.logId)).toEqual(before);
  expect(await server.app.db.prisma.ledgerLeaf.count({ where: { logSeq: BigInt(logSeq(log.logId)), entryHash: Buffer.from(first.credentialHash) } })).toBe(1);
  // The tick that read appended nothing: its log is read again next time, as a tick always did.
  const next = await measured(() => repoA.issue(log.input, build(log.logId)));
  expect(next).toMatchObject({ statements: 5, read: true });
  await expectProofs(log.logId, next.result.credentialHash, before);
});

test('two instances issuing on one log at once: every credential gets its own leaf, and the log is one tree under its head', async () => {
  const log = await newLog();
  const before = await checkedLog(log.logId);
  const issued = await Promise.all(
    Array.from({ length: 12 }, async (_, i) => {
      const repo = i % 2 === 0 ? repoA : repoB;
      // Staggered, so ticks of both instances interleave on the log's row lock.
      await new Promise((r) => setTimeout(r, i * 3));
      return repo.issue(log.input, build(log.logId));
    }),
  );
  const after = await checkedLog(log.logId);
  expect(after.size).toBe(before.size + 12);
  for (const c of issued) await expectProofs(log.logId, c.credentialHash, before);
});

test('a frontier node rewritten in the database: an instance that reads (a fresh one, or this one after settling the log) refuses the tick', async () => {
  const log = await newLog();
  const seq = logSeq(log.logId);
  await repoA.issue(log.input, build(log.logId));
  // A level-0 node is in the frontier (the perfect tiles of [0, size)) exactly when the size is odd.
  if ((await checkedLog(log.logId)).size % 2 === 0) await repoA.issue(log.input, build(log.logId));
  const size = (await checkedLog(log.logId)).size;
  expect(size % 2).toBe(1);
  await server.app.db.sql.transaction(async (tx) => {
    await tx.exec('SET LOCAL session_replication_role = replica');
    await tx.query(`UPDATE ledger_nodes SET hash = decode(repeat('ab', 32), 'hex') WHERE log_seq = $1 AND level = 0 AND index = $2`, [seq, size - 1]);
  });
  const fresh = createLedger(server.app.db.prisma, { seed: deriveLedgerSeed(masterKey), origin, sql: server.app.db.sql });
  const repoFresh = new PrismaCredentialRepository(server.app.db, fresh, { windowMs: 0, max: 4 });
  const id = `urn:uuid:${randomUUID()}`;
  await expect(repoFresh.issue(log.input, build(log.logId, { id }))).rejects.toMatchObject({ code: 'INTERNAL' });
  // Instance A remembers the log as it committed it; settling the log makes it forget and read.
  await ledgerA.settle(log.logId);
  await expect(repoA.issue(log.input, build(log.logId, { id }))).rejects.toMatchObject({ code: 'INTERNAL' });
  expect(await server.app.db.prisma.credential.count({ where: { id } })).toBe(0);
  expect((await server.app.db.prisma.ledgerLog.findUniqueOrThrow({ where: { seq: BigInt(seq) } })).treeSize).toBe(size);
  await repoFresh.drain();
  await fresh.close();
});
