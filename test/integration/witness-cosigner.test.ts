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
import { publicKeyOf } from '../../src/domain/merkle';
import { type Ledger, createLedger } from '../../src/ledger';
import { type WitnessCosigner, withWitnesses } from '../../src/witness';
import { formatWitnessVerifierKey } from '../../src/witness/cosignature';
import { Witness } from '../../src/witness/witness';
import { createWitnessServer } from '../../src/witness/witness-http';
import { JsonFileWitnessState } from '../../src/witness/witness-state';
import { type TestDatabase, createTestDatabase } from '../support/test-db';

/**
 * The log side against real PostgreSQL and in-process witnesses over HTTP: a witness that is down
 * leaves heads un-cosigned (reported, never blocking), catches up once it is back; a witness that
 * answers junk is not counted; a cosignature row forged in the database is not reported.
 */
const ORIGIN = 'credgate.test/ledger';
const logSeed = new Uint8Array(randomBytes(32));
const clock = { now: () => new Date('2026-11-22T12:00:00Z') };

interface InProcessWitness extends WitnessEndpoint {
  start(): Promise<void>;
  stop(): Promise<void>;
}

let tdb: TestDatabase;
let db: Database;
let ledger: Ledger;
let cosigner: WitnessCosigner;
let tenantId: string;
let dir: string;
const servers: Server[] = [];

/** A witness on a fixed port that can be stopped and started again with its state kept. */
async function inProcessWitness(name: string, port = 0): Promise<InProcessWitness> {
  const seed = new Uint8Array(randomBytes(32));
  const witness = new Witness({
    logKeys: [{ name: ORIGIN, publicKey: publicKeyOf(logSeed) }],
    signer: { name, seed },
    state: new JsonFileWitnessState(path.join(dir, name.replace(/\W/g, '_'))),
    clock,
  });
  let server: Server | undefined;
  let boundPort = port;
  const w: InProcessWitness = {
    name,
    verifierKey: formatWitnessVerifierKey({ name, publicKey: publicKeyOf(seed) }),
    url: '',
    async start() {
      server = createWitnessServer(witness);
      servers.push(server);
      await new Promise<void>((resolve) => server!.listen(boundPort, '127.0.0.1', () => resolve()));
      boundPort = (server.address() as AddressInfo).port;
    },
    async stop() {
      server?.closeAllConnections();
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      server = undefined;
    },
  };
  await w.start();
  return { ...w, url: `http://127.0.0.1:${boundPort}` };
}

/** A remote that answers 200 with a line that is no cosignature of its key (a true external boundary). */
async function junkWitness(name: string): Promise<WitnessEndpoint> {
  const { createServer } = await import('node:http');
  const server = createServer((_req, res) => res.end(`\u2014 ${name} ${Buffer.alloc(76, 7).toString('base64')}\n`));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { name, verifierKey: formatWitnessVerifierKey({ name, publicKey: publicKeyOf(new Uint8Array(randomBytes(32))) }), url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

let up: InProcessWitness;
let down: InProcessWitness;
let junk: WitnessEndpoint;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'credgate-cosigner-'));
  tdb = await createTestDatabase();
  db = await openDatabase(tdb.config);
  await migrate(db.sql, readMigrations());
  tenantId = randomUUID();
  await db.prisma.tenant.create({ data: { id: tenantId, slug: `wit-${randomBytes(4).toString('hex')}`, name: 'Witness tests' } });
  up = await inProcessWitness('witness.test/up');
  down = await inProcessWitness('witness.test/flaky');
  await down.stop();
  junk = await junkWitness('witness.test/junk');
  const retry = { baseDelayMs: 10, maxDelayMs: 20, maxAttempts: 3, requestTimeoutMs: 2000 };
  ({ ledger, cosigner } = withWitnesses(db.prisma, { witnesses: [up, down, junk], quorum: 2 }, { clock, retry }, (onSigned) =>
    createLedger(db.prisma, { seed: logSeed, origin: ORIGIN, clock, onSigned }),
  ));
});

afterAll(async () => {
  await cosigner?.close();
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
  await db?.close();
  await tdb?.drop();
  rmSync(dir, { recursive: true, force: true });
});

const sha = (text: string): Uint8Array => new Uint8Array(createHash('sha256').update(text).digest());

async function grow(logId: string, tag: string, n: number): Promise<void> {
  for (let i = 0; i < n; i++) await ledger.append(logId, { entryHash: sha(`${tag}/${i}`), kind: 'test', ref: `${tag}-${i}` });
}

const byName = (cp: Awaited<ReturnType<Ledger['checkpoint']>>) => Object.fromEntries(cp.witnesses.map((w) => [w.name, w]));

test('a witness that is down leaves the head un-cosigned by it, reported; once back it catches up from size 0, the other from its last size', async () => {
  const logId = formatLedgerId((await db.prisma.ledgerLog.create({ data: { tenantId, kind: 'test' } })).seq);
  await grow(logId, 'a', 5);
  await ledger.checkpoint(logId);
  await cosigner.idle();
  const first = await ledger.checkpoint(logId);
  expect(first).toMatchObject({ treeSize: 5, witnessCosignatures: 1, witnessQuorum: 2 });
  expect(byName(first)[up.name]).toMatchObject({ cosigned: true, witnessedSize: 5, lastError: null });
  expect(byName(first)[down.name]).toMatchObject({ cosigned: false, witnessedSize: null, lastError: expect.stringMatching(/^request failed: /) });
  expect(byName(first)[junk.name]).toMatchObject({ cosigned: false, lastError: 'the witness answered 200 without a valid cosignature from its key' });
  // Three attempts were made, then it gave up on this head.
  expect(await db.prisma.ledgerWitnessState.findUnique({ where: { logSeq_witness: { logSeq: BigInt(logId.slice(4)), witness: down.name } } })).toMatchObject({ attempts: 3 });

  await down.start();
  await grow(logId, 'b', 4);
  await ledger.checkpoint(logId);
  await cosigner.idle();
  const second = await ledger.checkpoint(logId);
  expect(second).toMatchObject({ treeSize: 9, witnessCosignatures: 2, witnessQuorum: 2 });
  expect(byName(second)[up.name]).toMatchObject({ cosigned: true, witnessedSize: 9 });
  expect(byName(second)[down.name]).toMatchObject({ cosigned: true, witnessedSize: 9, lastError: null });
});

test('a cosignature row rewritten in the database is not reported: every read re-verifies the line', async () => {
  const logId = formatLedgerId((await db.prisma.ledgerLog.create({ data: { tenantId, kind: 'test' } })).seq);
  await grow(logId, 'c', 3);
  await ledger.checkpoint(logId);
  await cosigner.idle();
  expect((await ledger.checkpoint(logId)).witnessCosignatures).toBe(2);
  const logSeq = BigInt(logId.slice(4));
  // The up witness's line, relabelled as the flaky witness's: a real signature, but not by that key.
  const line = (await db.prisma.ledgerCosignature.findFirst({ where: { logSeq, witness: up.name } }))!.line;
  await db.prisma.ledgerCosignature.update({
    where: { logSeq_witness_treeSize: { logSeq, witness: down.name, treeSize: 3 } },
    data: { line: line.replace(up.name, down.name) },
  });
  const cp = await ledger.checkpoint(logId);
  expect(cp.witnessCosignatures).toBe(1);
  expect(byName(cp)[down.name]).toMatchObject({ cosigned: false, cosignedAt: null });
  expect(cp.note.split('\n').filter((l) => l.startsWith('\u2014 '))).toHaveLength(2);
});
