import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { AnchorOutbox, enqueueAnchor } from '../../src/anchor/outbox';
import { AnchorRelay, DEFAULT_RELAY_OPTIONS, type RelayOptions, backoffMs } from '../../src/anchor/relay';
import { AnchorService } from '../../src/anchor/anchor.service';
import { type Database, openDatabase } from '../../src/db/database';
import { migrate, readMigrations } from '../../src/db/migrator';
import { RecordingLedger } from '../support/anchor-ledger';
import { type TestDatabase, createTestDatabase } from '../support/test-db';

// Claims across connections are a property of the PostgreSQL server, so this file always runs
// on PostgreSQL (PGlite has one connection); the PGlite path is covered at the end.
let tdb: TestDatabase;
let db: Database;
let db2: Database;
const OPTIONS: RelayOptions = { ...DEFAULT_RELAY_OPTIONS, batchSize: 5, baseDelayMs: 60_000, maxDelayMs: 600_000, maxAttempts: 3 };

beforeAll(async () => {
  tdb = await createTestDatabase('postgres');
  db = await openDatabase(tdb.config);
  await migrate(db.sql, readMigrations());
  db2 = await openDatabase(tdb.config);
});

afterAll(async () => {
  await db2?.close();
  await db?.close();
  await tdb?.drop();
});

const root = () => new Uint8Array(randomBytes(32));
const logId = () => `0.0.${1000 + Math.floor(Math.random() * 1e6)}`;

async function enqueue(entries: { logId: string; treeSize: number; rootHash: Uint8Array }[]): Promise<void> {
  await db.prisma.$transaction(async (tx) => {
    for (const e of entries) await enqueueAnchor(tx, e);
  });
}

async function rows(id: string) {
  return db.prisma.anchorOutbox.findMany({ where: { logId: id }, orderBy: { treeSize: 'asc' } });
}

/** Runs relay ticks until a poll claims nothing. */
async function drain(relay: AnchorRelay): Promise<number> {
  let total = 0;
  for (let n = await relay.tick(); n > 0; n = await relay.tick()) total += n;
  return total;
}

test('enqueueAnchor writes in the caller transaction: a rolled-back head leaves no row; a repeat is ignored', async () => {
  const id = logId();
  await expect(
    db.prisma.$transaction(async (tx) => {
      await enqueueAnchor(tx, { logId: id, treeSize: 1, rootHash: root() });
      throw new Error('the head was not stored');
    }),
  ).rejects.toThrow('the head was not stored');
  expect(await rows(id)).toEqual([]);
  const r = root();
  await enqueue([{ logId: id, treeSize: 1, rootHash: r }]);
  await enqueue([{ logId: id, treeSize: 1, rootHash: root() }]);
  const stored = await rows(id);
  expect(stored).toHaveLength(1);
  expect(Buffer.from(stored[0]!.rootHash).equals(Buffer.from(r))).toBe(true);
  expect(stored[0]).toMatchObject({ status: 'pending', attempts: 0, receipt: null });
  await db.prisma.anchorOutbox.deleteMany({ where: { logId: id } }); // the relay tests below count every claim
});

test('two relays on one database (two connection pools) never submit the same row twice', async () => {
  const id = logId();
  await enqueue(Array.from({ length: 30 }, (_, i) => ({ logId: id, treeSize: i + 1, rootHash: root() })));
  const ledger = new RecordingLedger();
  ledger.delayMs = 15;
  const a = new AnchorRelay(new AnchorOutbox(db.prisma), ledger, OPTIONS);
  const b = new AnchorRelay(new AnchorOutbox(db2.prisma), ledger, OPTIONS);
  const [na, nb] = await Promise.all([drain(a), drain(b)]);
  expect(na + nb).toBe(30);
  expect(na).toBeGreaterThan(0);
  expect(nb).toBeGreaterThan(0);
  const mine = ledger.submissions.filter((k) => k.startsWith(`${id}@`));
  expect(mine).toHaveLength(30);
  expect(new Set(mine).size).toBe(30);
  const stored = await rows(id);
  expect(stored.every((r) => r.status === 'anchored' && r.attempts === 1 && r.leaseOwner === null)).toBe(true);
  expect(stored.map((r) => (r.receipt as { treeSize: number }).treeSize)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
});

test('a claim skips rows another transaction holds locked (SKIP LOCKED) instead of waiting for them', async () => {
  const id = logId();
  await enqueue([1, 2, 3].map((n) => ({ logId: id, treeSize: n, rootHash: root() })));
  const other = new Client({ connectionString: (tdb.config as { url: string }).url });
  await other.connect();
  try {
    await other.query('BEGIN');
    await other.query(`SET LOCAL lock_timeout = '30s'`);
    await other.query('SELECT 1 FROM anchor_outbox WHERE log_id = $1 AND tree_size = 2 FOR UPDATE', [id]);
    // Without SKIP LOCKED this claim would wait for the other transaction (30 s lock_timeout).
    const claimed = await new AnchorOutbox(db.prisma).claim('relay-x', 10, 60_000);
    expect(claimed.filter((c) => c.logId === id).map((c) => c.treeSize)).toEqual([1, 3]);
    await other.query('COMMIT');
  } finally {
    await other.end();
  }
  // Rows 1 and 3 are leased to relay-x: a second relay gets only row 2, now unlocked.
  const next = await new AnchorOutbox(db2.prisma).claim('relay-y', 10, 60_000);
  expect(next.filter((c) => c.logId === id).map((c) => c.treeSize)).toEqual([2]);
});

test('a failed submission is retried after a jittered exponential backoff, then fails for good after maxAttempts', async () => {
  const id = logId();
  await enqueue([{ logId: id, treeSize: 1, rootHash: root() }]);
  const ledger = new RecordingLedger();
  ledger.failNext = 10;
  const outbox = new AnchorOutbox(db.prisma);
  const relay = new AnchorRelay(outbox, ledger, OPTIONS);
  const scheduled: number[] = [];
  for (let attempt = 1; attempt <= 3; attempt++) {
    expect(await drain(relay)).toBe(1);
    const [row] = await rows(id);
    expect(row).toMatchObject({ attempts: attempt, lastError: 'test ledger unreachable', leaseOwner: null });
    // The database clock decides when the row is due: it is not due yet, so another poll claims nothing.
    const [{ wait }] = await db.prisma.$queryRaw<[{ wait: number }]>`SELECT EXTRACT(EPOCH FROM next_attempt_at - now())::float8 * 1000 AS wait FROM anchor_outbox WHERE log_id = ${id}`;
    scheduled.push(wait);
    if (attempt < 3) {
      expect(row!.status).toBe('pending');
      expect(await relay.tick()).toBe(0);
      // Let the backoff elapse without sleeping: make the row due now.
      await db.prisma.$executeRaw`UPDATE anchor_outbox SET next_attempt_at = now() WHERE log_id = ${id}`;
    } else {
      expect(row!.status).toBe('failed');
    }
  }
  // Each delay lies in [cap/2, cap] with cap = base * 2^(attempt-1): 30-60 s, 60-120 s.
  expect(scheduled[0]).toBeGreaterThan(25_000);
  expect(scheduled[0]).toBeLessThanOrEqual(60_000);
  expect(scheduled[1]).toBeGreaterThan(55_000);
  expect(scheduled[1]).toBeLessThanOrEqual(120_000);
  expect(ledger.submissions).toEqual([]);
});

test('backoff doubles per attempt up to the cap, with half of it random', () => {
  const o = { baseDelayMs: 1000, maxDelayMs: 10_000 };
  expect([1, 2, 3, 4, 5, 6].map((n) => backoffMs(n, o, () => 0))).toEqual([500, 1000, 2000, 4000, 5000, 5000]);
  expect([1, 2, 3, 4, 5, 6].map((n) => backoffMs(n, o, () => 1))).toEqual([1000, 2000, 4000, 8000, 10_000, 10_000]);
});

test('a permanent rejection (AnchorRejected) fails the row at once', async () => {
  const id = logId();
  await enqueue([{ logId: id, treeSize: 1, rootHash: root() }]);
  const ledger = new RecordingLedger();
  ledger.reject = true;
  await drain(new AnchorRelay(new AnchorOutbox(db.prisma), ledger, OPTIONS));
  expect(await rows(id)).toEqual([expect.objectContaining({ status: 'failed', attempts: 1, lastError: 'rejected by the test ledger' })]);
});

test('a relay that died after submitting: the next claim finds the receipt on the ledger and does not submit again', async () => {
  const id = logId();
  const r = root();
  await enqueue([{ logId: id, treeSize: 4, rootHash: r }]);
  const ledger = new RecordingLedger();
  const outbox = new AnchorOutbox(db.prisma);
  // Relay A claims and submits, then "crashes" before recording the receipt.
  const [claimed] = (await outbox.claim('relay-dead', 10, 60_000)).filter((c) => c.logId === id);
  const first = await ledger.submit({ logId: id, treeSize: 4, rootHash: claimed!.rootHash });
  // Its lease runs out.
  expect(await new AnchorRelay(outbox, ledger, OPTIONS).tick()).toBe(0);
  await db.prisma.$executeRaw`UPDATE anchor_outbox SET lease_until = now() - interval '1 second' WHERE log_id = ${id}`;
  await drain(new AnchorRelay(new AnchorOutbox(db2.prisma), ledger, OPTIONS));
  const [row] = await rows(id);
  expect(row).toMatchObject({ status: 'anchored', attempts: 2 });
  expect(row!.receipt).toEqual(first);
  expect(ledger.submissions).toEqual([`${id}@4`]);
  // The status read re-checks the receipt against the ledger.
  const service = new AnchorService(outbox, ledger, 'evm');
  expect(await service.status(id, 4, { check: true })).toMatchObject({ status: 'anchored', rootHash: Buffer.from(r).toString('base64'), receipt: first, check: { status: 'valid' } });
  expect(await service.status(id, 5, { check: true })).toBeNull();
});

test('start() polls until stop(); stop() waits for the submission in flight and records it', async () => {
  const id = logId();
  await enqueue([1, 2].map((n) => ({ logId: id, treeSize: n, rootHash: root() })));
  const ledger = new RecordingLedger();
  const relay = new AnchorRelay(new AnchorOutbox(db.prisma), ledger, { ...OPTIONS, pollMs: 20 });
  relay.start();
  for (let i = 0; i < 500 && (await rows(id)).some((r) => r.status !== 'anchored'); i++) await new Promise((r) => setTimeout(r, 20));
  await relay.stop();
  expect((await rows(id)).map((r) => r.status)).toEqual(['anchored', 'anchored']);
  // Stopped: a new row stays pending.
  await enqueue([{ logId: id, treeSize: 3, rootHash: root() }]);
  await new Promise((r) => setTimeout(r, 100));
  expect((await rows(id)).map((r) => r.status)).toEqual(['anchored', 'anchored', 'pending']);
});

test('on PGlite the relay claims and anchors the same way', async () => {
  const lite = await createTestDatabase('pglite');
  const ldb = await openDatabase(lite.config);
  try {
    await migrate(ldb.sql, readMigrations());
    await ldb.prisma.$transaction((tx) => enqueueAnchor(tx, { logId: '0.0.7', treeSize: 2, rootHash: root() }));
    const ledger = new RecordingLedger();
    expect(await drain(new AnchorRelay(new AnchorOutbox(ldb.prisma), ledger, OPTIONS))).toBe(1);
    expect(ledger.submissions).toEqual(['0.0.7@2']);
    expect(await ldb.prisma.anchorOutbox.findMany()).toEqual([expect.objectContaining({ status: 'anchored', attempts: 1 })]);
  } finally {
    await ldb.close();
    await lite.drop();
  }
});
