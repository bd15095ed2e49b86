import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { WitnessEndpoint } from '../../src/config';
import { type Database, openDatabase } from '../../src/db/database';
import { migrate, readMigrations } from '../../src/db/migrator';
import { formatLedgerId } from '../../src/domain/dids/service-did';
import { openCheckpoint, publicKeyOf } from '../../src/domain/merkle';
import { type Ledger, type LedgerCheckpoint, createLedger } from '../../src/ledger';
import { type WitnessCosigner, withWitnesses } from '../../src/witness';
import { formatWitnessVerifierKey, noteBody, parseWitnessVerifierKey, signatureLines, verifyCosignature } from '../../src/witness/cosignature';
import { Witness } from '../../src/witness/witness';
import { createWitnessServer } from '../../src/witness/witness-http';
import { JsonFileWitnessState } from '../../src/witness/witness-state';
import { type TestDatabase, createTestDatabase } from '../support/test-db';

/**
 * Two service instances over one PostgreSQL, each with its own head cache (HeadKeeper, 1 s), both
 * wrapped in WitnessedLedger as in production, and two real witnesses over HTTP (quorum 2).
 * Instance A stores and caches head n; instance B stores n+1 and its cosigner gets it to the
 * witnesses first. Witnesses never cosign below their latest size, so head n stays unwitnessed
 * for good; A must serve the stored n+1 (which extends n) with its quorum, not its cached n with 0.
 *
 * The race depends on A's cache still being fresh when A is asked. Rather than hoping the steps
 * between take under a second, A's reads run with Date.now pinned to the instant right after it
 * cached n (the clock HeadKeeper's TTL reads), so the stale head is served every time.
 */
const ORIGIN = 'credgate.test/ledger';
const logSeed = new Uint8Array(randomBytes(32));
const logKey = { name: ORIGIN, publicKey: publicKeyOf(logSeed) };
const clock = { now: () => new Date('2026-11-22T12:00:00Z') };
const QUORUM = 2;

let tdb: TestDatabase;
let dbA: Database;
let dbB: Database;
let dir: string;
let tenantId: string;
const servers: Server[] = [];
let witnesses: WitnessEndpoint[];

/** Instance A as readers see it, and its bare PgLedger (what A's HeadKeeper serves). */
let ledgerA: Ledger;
let innerA: Ledger;
let cosignerA: WitnessCosigner;
let ledgerB: Ledger;
let cosignerB: WitnessCosigner;

async function startWitness(name: string): Promise<WitnessEndpoint> {
  const seed = new Uint8Array(randomBytes(32));
  const witness = new Witness({ logKeys: [logKey], signer: { name, seed }, state: new JsonFileWitnessState(path.join(dir, name.replace(/\W/g, '_'))), clock });
  const server = createWitnessServer(witness);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { name, verifierKey: formatWitnessVerifierKey({ name, publicKey: publicKeyOf(seed) }), url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'credgate-witness-race-'));
  // Two instances need one shared server database (a PGlite folder belongs to one process), so
  // this runs on PostgreSQL even when CREDGATE_TEST_DB=pglite; two pools, as two processes have.
  tdb = await createTestDatabase('postgres');
  dbA = await openDatabase(tdb.config);
  dbB = await openDatabase(tdb.config);
  await migrate(dbA.sql, readMigrations());
  tenantId = randomUUID();
  await dbA.prisma.tenant.create({ data: { id: tenantId, slug: `race-${randomBytes(4).toString('hex')}`, name: 'Witness race tests' } });
  witnesses = [await startWitness('witness.test/one'), await startWitness('witness.test/two')];
  const config = { witnesses, quorum: QUORUM };
  const retry = { baseDelayMs: 10, maxDelayMs: 20, maxAttempts: 2, requestTimeoutMs: 5000 };
  // A's own cosigning request for n is the one that loses the race to B's (the witnesses then
  // answer it 409 at n+1, checked below): here it is never sent, so the witnesses see n+1 first.
  ({ ledger: ledgerA, cosigner: cosignerA } = withWitnesses(dbA.prisma, config, { clock, retry }, () => {
    innerA = createLedger(dbA.prisma, { seed: logSeed, origin: ORIGIN, clock });
    return innerA;
  }));
  ({ ledger: ledgerB, cosigner: cosignerB } = withWitnesses(dbB.prisma, config, { clock, retry }, (onSigned) =>
    createLedger(dbB.prisma, { seed: logSeed, origin: ORIGIN, clock, onSigned }),
  ));
});

afterAll(async () => {
  await cosignerA?.close();
  await cosignerB?.close();
  await ledgerA?.close();
  await ledgerB?.close();
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
  await dbA?.close();
  await dbB?.close();
  await tdb?.drop();
  rmSync(dir, { recursive: true, force: true });
});

const sha = (text: string): Uint8Array => new Uint8Array(createHash('sha256').update(text).digest());

async function newLog(): Promise<string> {
  return formatLedgerId((await dbA.prisma.ledgerLog.create({ data: { tenantId, kind: 'test' } })).seq);
}

/** Appends a batch through one instance, as its sequencer does. */
async function append(db: Database, ledger: Ledger, logId: string, tag: string, n: number): Promise<void> {
  const entries = Array.from({ length: n }, (_, i) => ({ entryHash: sha(`${logId}/${tag}/${i}`), kind: 'test', ref: `${tag}-${i}` }));
  await db.prisma.$transaction((tx) => ledger.appendBatch(tx, logId, entries));
}

/** Runs `read` with HeadKeeper's clock held at `instant`, so a head cached then is still fresh. */
async function at<T>(instant: number, read: () => Promise<T>): Promise<T> {
  const now = jest.spyOn(Date, 'now').mockReturnValue(instant);
  try {
    return await read();
  } finally {
    now.mockRestore();
  }
}

/** The cosignature lines of a served note that verify under the configured witness keys. */
function verifiedCosignatures(cp: LedgerCheckpoint): string[] {
  const body = noteBody(cp.note)!;
  return witnesses.flatMap((w) => signatureLines(cp.note).filter((l) => verifyCosignature(body, l, parseWitnessVerifierKey(w.verifierKey))).map(() => w.name));
}

/** What a cosigner sends a witness it has not heard from: `old 0`, no proof, the signed note. */
async function offer(w: WitnessEndpoint, note: string): Promise<{ status: number; body: string }> {
  const res = await fetch(`${w.url}/add-checkpoint`, { method: 'POST', headers: { 'content-type': 'text/plain; charset=utf-8' }, body: `old 0\n\n${note}` });
  return { status: res.status, body: await res.text() };
}

test('A\'s cached head n is older than the n+1 B stored and the witnesses cosigned: A serves n+1 with its quorum', async () => {
  const logId = await newLog();
  await append(dbA, ledgerA, logId, 'a', 3);
  await ledgerA.settle(logId);
  // A reads its head once (it is cached from here): nothing newer exists, so n unwitnessed.
  const stale = await ledgerA.checkpoint(logId);
  const cachedAt = Date.now();
  expect(stale).toMatchObject({ treeSize: 3, witnessCosignatures: 0, witnessQuorum: QUORUM });

  await append(dbB, ledgerB, logId, 'b', 1);
  await ledgerB.settle(logId);
  await cosignerB.idle();
  const fromB = await ledgerB.checkpoint(logId);
  expect(fromB).toMatchObject({ treeSize: 4, witnessCosignatures: QUORUM, witnessQuorum: QUORUM });

  // The witnesses are at 4 now: A's head of 3 can never be cosigned (the cosigner stops on this 409).
  for (const w of witnesses) expect(await offer(w, stale.note)).toEqual({ status: 409, body: '4\n' });

  // The precondition the fix is for: A's own cache still hands out the head of 3.
  expect((await at(cachedAt, () => innerA.checkpoint(logId, 3))).treeSize).toBe(3);

  const served = await at(cachedAt, () => ledgerA.checkpoint(logId, 3));
  expect(served).toMatchObject({ logId, treeSize: 4, rootHash: fromB.rootHash, witnessCosignatures: QUORUM, witnessQuorum: QUORUM });
  expect(served.witnesses.map((w) => ({ name: w.name, cosigned: w.cosigned, witnessedSize: w.witnessedSize, lastError: w.lastError }))).toEqual(
    witnesses.map((w) => ({ name: w.name, cosigned: true, witnessedSize: 4, lastError: null })),
  );
  // Checked from scratch, not from the flags: the log's signature and both witnesses' lines verify.
  expect(openCheckpoint(served.note, logKey, `${ORIGIN}/${logId}`)).toMatchObject({ verified: true, checkpoint: { size: 4 } });
  expect(verifiedCosignatures(served)).toEqual(witnesses.map((w) => w.name));
  expect(served.note).toBe(fromB.note);
});

test('with no newer stored head, an unwitnessed head is served as it is: 0 of the quorum, its note untouched', async () => {
  const logId = await newLog();
  await append(dbA, ledgerA, logId, 'lone', 2);
  const head = await ledgerA.settle(logId);
  const cachedAt = Date.now();

  for (const read of [() => ledgerA.checkpoint(logId), () => at(cachedAt, () => ledgerA.checkpoint(logId, 2))]) {
    const served = await read();
    expect(served).toMatchObject({ logId, treeSize: 2, rootHash: head.rootHash, note: head.note, witnessCosignatures: 0, witnessQuorum: QUORUM });
    expect(served.witnesses.map((w) => ({ name: w.name, cosigned: w.cosigned, cosignedAt: w.cosignedAt }))).toEqual(
      witnesses.map((w) => ({ name: w.name, cosigned: false, cosignedAt: null })),
    );
    expect(verifiedCosignatures(served)).toEqual([]);
  }
});

test('a log grown beyond its stored head (no head for the new leaves yet): the re-read\'s retry-later is not surfaced, the stored head is served unwitnessed', async () => {
  const logId = await newLog();
  await append(dbA, ledgerA, logId, 'c', 2);
  const head = await ledgerA.settle(logId);
  const cachedAt = Date.now();
  // Committed leaves no stored head covers, as after a crash between a commit and its head.
  await append(dbB, ledgerB, logId, 'd', 2);

  // A's cached head of 2 has no quorum, so it re-reads for a larger one and meets leaves without
  // a head: SERVICE_UNAVAILABLE (and a background repair) inside, the head of 2 outside.
  const served = await at(cachedAt, () => ledgerA.checkpoint(logId));
  expect(served).toMatchObject({ treeSize: 2, rootHash: head.rootHash, note: head.note, witnessCosignatures: 0, witnessQuorum: QUORUM });
  await ledgerA.close(); // the background repair that read scheduled
});
