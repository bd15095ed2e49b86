import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { type Database, openDatabase } from '../../src/db/database';
import { migrate, readMigrations } from '../../src/db/migrator';
import type { SqlExecutor } from '../../src/db/sql-executor';
import { formatLedgerId } from '../../src/domain/dids/service-did';
import { type NoteVerifier, appendLeaves, leafHash, openCheckpoint, publicKeyOf, rootFromLeafHashes } from '../../src/domain/merkle';
import type { Clock } from '../../src/domain/ports';
import { type Ledger, type LedgerCheckpoint, createLedger } from '../../src/ledger';
import { createLogger } from '../../src/logging/logger';
import { LogCapture } from '../support/harness';
import { type TestDatabase, createTestDatabase } from '../support/test-db';

/**
 * Attacks by an operator with database access on the transparency logs: rewriting, deleting or
 * truncating ledger rows, deleting the tenant that owns a log, and (as a superuser who disables
 * the triggers) forging a leaf and rebuilding the tree so that it is self-consistent. The signer
 * must never put its signature on a head that forks from one it signed before.
 */
const ORIGIN = 'credgate.test/ledger';
const seed = new Uint8Array(randomBytes(32));
const verifier: NoteVerifier = { name: ORIGIN, publicKey: publicKeyOf(seed) };

let tdb: TestDatabase;
let db: Database;
let ledger: Ledger;
let tenantId: string;
const logs = new LogCapture();
let now = new Date('2026-11-23T04:00:00.000Z');
const clock: Clock = { now: () => new Date(now) };

beforeAll(async () => {
  tdb = await createTestDatabase();
  db = await openDatabase(tdb.config);
  await migrate(db.sql, readMigrations());
  ledger = createLedger(db.prisma, { seed, origin: ORIGIN, clock, logger: createLogger('info', logs) } as Parameters<typeof createLedger>[1]);
  tenantId = await newTenant();
});

afterAll(async () => {
  await db?.close();
  await tdb?.drop();
});

const sha = (text: string): Uint8Array => new Uint8Array(createHash('sha256').update(text).digest());
const entry = (tag: string, i: number) => ({ entryHash: sha(`${tag}/${i}`), kind: 'test', ref: `${tag}-${i}` });
const b64 = (s: string): Buffer => Buffer.from(s, 'base64');

async function newTenant(): Promise<string> {
  const id = randomUUID();
  await db.prisma.tenant.create({ data: { id, slug: `t-${randomBytes(4).toString('hex')}`, name: 'Ledger integrity' } });
  return id;
}

async function newLog(owner = tenantId): Promise<{ logId: string; seq: string }> {
  const log = await db.prisma.ledgerLog.create({ data: { tenantId: owner, kind: 'test' } });
  // As the DID repository does for the logs it creates: the writer stores the first head.
  await ledger.settle(formatLedgerId(log.seq));
  return { logId: formatLedgerId(log.seq), seq: String(log.seq) };
}

async function fill(logId: string, tag: string, from: number, to: number): Promise<void> {
  for (let i = from; i < to; i++) await ledger.append(logId, entry(tag, i));
}

/** Every stored row of a log, as text: "nothing changed" is checked exactly. */
async function rowsOf(seq: string): Promise<string[]> {
  const rows = await db.sql.query<{ r: string }>(
    `SELECT 'leaf ' || to_jsonb(l)::text AS r FROM ledger_leaves l WHERE log_seq = $1
     UNION ALL SELECT 'node ' || to_jsonb(n)::text FROM ledger_nodes n WHERE log_seq = $1
     UNION ALL SELECT 'log ' || to_jsonb(g)::text FROM ledger_logs g WHERE seq = $1`,
    [seq],
  );
  return rows.map((x) => x.r).sort();
}

/** What a superuser can do: run statements with triggers (and FK checks) switched off. */
function asSuperuserWithoutTriggers<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
  return db.sql.transaction(async (tx) => {
    await tx.exec('SET LOCAL session_replication_role = replica');
    return fn(tx);
  });
}

/**
 * Replaces the entry at `index` with a forged one and rewrites every stored node so that the
 * stored tree is self-consistent again: the strongest rewrite an operator can make.
 */
async function forgeLeaf(seq: string, size: number, tag: string, index: number): Promise<void> {
  const forged = sha('forged entry');
  const leaves = Array.from({ length: size }, (_, i) => (i === index ? leafHash(forged) : leafHash(entry(tag, i).entryHash)));
  const nodes = await appendLeaves(0, leaves, { getNodes: async () => [] });
  await asSuperuserWithoutTriggers(async (tx) => {
    await tx.query('UPDATE ledger_leaves SET entry_hash = $2, leaf_hash = $3 WHERE log_seq = $1 AND index = $4', [seq, Buffer.from(forged), Buffer.from(leafHash(forged)), index]);
    for (const n of nodes) {
      await tx.query('UPDATE ledger_nodes SET hash = $4 WHERE log_seq = $1 AND level = $2 AND index = $3', [seq, n.level, n.index, Buffer.from(n.hash)]);
    }
  });
}

function opened(cp: LedgerCheckpoint, logId: string): { size: number; root: Buffer } {
  const o = openCheckpoint(cp.note, verifier, `${ORIGIN}/${logId}`);
  expect(o.verified).toBe(true);
  return { size: o.checkpoint!.size, root: Buffer.from(o.checkpoint!.rootHash) };
}

describe('ledger rows are append-only in the database', () => {
  test('UPDATE, DELETE and TRUNCATE of leaves and nodes, and rewinding or deleting a log, are refused', async () => {
    const { logId, seq } = await newLog();
    await fill(logId, 'ro', 0, 5);
    await ledger.checkpoint(logId);
    const before = await rowsOf(seq);
    const refused = /append-only/;
    const attempts = [
      `UPDATE ledger_leaves SET leaf_hash = set_byte(leaf_hash, 0, get_byte(leaf_hash, 0) # 1) WHERE log_seq = ${seq} AND index = 2`,
      `UPDATE ledger_leaves SET ref = 'other' WHERE log_seq = ${seq}`,
      `DELETE FROM ledger_leaves WHERE log_seq = ${seq} AND index = 4`,
      `UPDATE ledger_nodes SET hash = set_byte(hash, 0, get_byte(hash, 0) # 1) WHERE log_seq = ${seq} AND level = 2 AND index = 0`,
      `DELETE FROM ledger_nodes WHERE log_seq = ${seq}`,
      `UPDATE ledger_logs SET tree_size = 3 WHERE seq = ${seq}`,
      `UPDATE ledger_logs SET kind = 'other' WHERE seq = ${seq}`,
      `DELETE FROM ledger_logs WHERE seq = ${seq}`,
      `TRUNCATE ledger_leaves CASCADE`,
      `TRUNCATE ledger_nodes CASCADE`,
      `UPDATE ledger_heads SET tree_size = 0 WHERE log_seq = ${seq}`,
      `DELETE FROM ledger_heads WHERE log_seq = ${seq}`,
    ];
    for (const sql of attempts) await expect(db.sql.query(sql)).rejects.toThrow(refused);
    expect(await rowsOf(seq)).toEqual(before);
    // Appends still work.
    await fill(logId, 'ro', 5, 6);
    expect((await ledger.checkpoint(logId)).treeSize).toBe(6);
  });

  test('deleting the tenant that owns a log does not delete the log', async () => {
    const owner = await newTenant();
    const { logId, seq } = await newLog(owner);
    await fill(logId, 'owner', 0, 3);
    const head = await ledger.checkpoint(logId);
    const before = await rowsOf(seq);
    await expect(db.sql.query('DELETE FROM tenants WHERE id = $1', [owner])).rejects.toThrow(/ledger_logs/);
    expect(await rowsOf(seq)).toEqual(before);
    expect(await ledger.checkpoint(logId)).toEqual(head);
  });
});

describe('the signed tree head is stored; reads serve it and never sign', () => {
  test('with the clock moving, repeated reads return the same stored head; only growth (the writer) signs a new one', async () => {
    const { logId } = await newLog();
    now = new Date('2026-11-23T04:00:01.000Z');
    await fill(logId, 'sth', 0, 4);
    const first = await ledger.checkpoint(logId);
    expect(first).toMatchObject({ treeSize: 4, signedAt: '2026-11-23T04:00:01.000Z' });
    now = new Date('2026-11-23T05:00:00.000Z');
    expect(await ledger.checkpoint(logId)).toEqual(first);
    // Proof reads are answered under the stored head too.
    expect(await ledger.inclusionProof(logId, 1, 4)).toHaveLength(2);
    expect(await ledger.checkpoint(logId)).toEqual(first);

    await fill(logId, 'sth', 4, 5);
    const grown = await ledger.checkpoint(logId);
    expect(grown).toMatchObject({ treeSize: 5, signedAt: '2026-11-23T05:00:00.000Z' });
    expect(grown.note).not.toBe(first.note);
    now = new Date('2026-11-23T06:00:00.000Z');
    expect(await ledger.checkpoint(logId)).toEqual(grown);
  });
});

describe('a superuser who disables the triggers cannot get a fork signed', () => {
  test('a forged leaf with a rebuilt tree: reads keep serving the head signed before it, and the next head is refused loudly', async () => {
    const { logId, seq } = await newLog();
    await fill(logId, 'fork', 0, 8);
    const signed = await ledger.checkpoint(logId);
    await forgeLeaf(seq, 8, 'fork', 3);
    const leaves = (await ledger.leafHashes(logId, 0, 8)).map(b64);
    // The stored tree now really is a different tree ...
    expect(Buffer.from(rootFromLeafHashes(leaves)).equals(b64(signed.rootHash))).toBe(false);
    // ... but a read does not sign it: the stored head comes back, byte for byte.
    expect(await ledger.checkpoint(logId)).toEqual(signed);

    // Growth makes the writer sign a larger head, which needs consistency with the stored one: the
    // append commits, but its head is refused, so the append is not reported as done.
    await expect(fill(logId, 'fork', 8, 9)).rejects.toMatchObject({ code: 'INTERNAL', message: expect.stringMatching(/not consistent with the signed head/) });
    await expect(ledger.settle(logId)).rejects.toMatchObject({ code: 'INTERNAL' });
    // Reads still serve the honest head; they never sign (and never fail for the forgery).
    expect(await ledger.checkpoint(logId)).toEqual(signed);
    expect(logs.text()).toMatch(new RegExp(`"level":50.*"logId":"${logId.replace(/\./g, '\\.')}".*refusing to sign`));
    // Nothing was signed over the forged tree: the stored head is still the honest one.
    const heads = await db.sql.query<{ tree_size: number; root_hash: Buffer }>('SELECT tree_size, root_hash FROM ledger_heads WHERE log_seq = $1', [seq]);
    expect(heads).toHaveLength(1);
    expect(heads[0]!.tree_size).toBe(8);
    expect(Buffer.from(heads[0]!.root_hash).equals(opened(signed, logId).root)).toBe(true);
  });

  test('a log rewound below its signed head (rows deleted with the triggers off) is refused', async () => {
    const { logId, seq } = await newLog();
    await fill(logId, 'rewind', 0, 6);
    await ledger.checkpoint(logId);
    await asSuperuserWithoutTriggers(async (tx) => {
      await tx.query('DELETE FROM ledger_nodes WHERE log_seq = $1 AND ((level = 0 AND index = 5) OR (level = 1 AND index = 2))', [seq]);
      await tx.query('DELETE FROM ledger_leaves WHERE log_seq = $1 AND index = 5', [seq]);
      await tx.query('UPDATE ledger_logs SET tree_size = 5 WHERE seq = $1', [seq]);
    });
    // A different sixth entry takes the freed index: same size as the signed head, different tree.
    await fill(logId, 'rewind-other', 5, 6);
    await expect(fill(logId, 'rewind', 6, 7)).rejects.toMatchObject({ code: 'INTERNAL' });
    await asSuperuserWithoutTriggers((tx) => tx.query('UPDATE ledger_logs SET tree_size = 4 WHERE seq = $1', [seq]));
    await expect(ledger.settle(logId)).rejects.toMatchObject({ code: 'INTERNAL', message: expect.stringMatching(/smaller than its signed head/) });
  });
});
