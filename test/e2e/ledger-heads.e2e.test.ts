import { createHash } from 'node:crypto';
import type { Clock } from '../../src/domain/ports';
import type { LedgerCheckpoint } from '../../src/ledger/ledger.port';
import { type TestServer, startTestServer } from '../support/harness';
import { request } from '../support/http';
import { type Outcome, gqlOutcome } from '../support/transports';

/**
 * Reads of a log serve its stored signed tree head (STH): they never sign. With the clock moving
 * between two reads, both transports return the same head, `signedAt` included; a new head is
 * signed only when the log grew. A tampered log is never re-signed through a read.
 */
type CheckpointRead = (key: string, logId: string) => Promise<Outcome<LedgerCheckpoint & { signedAt: string }>>;

let now = new Date('2026-11-23T04:00:00.000Z');
const clock: Clock = { now: () => new Date(now) };
let server: TestServer;
let key: string;
let reads: [string, CheckpointRead][];

beforeAll(async () => {
  server = await startTestServer({ clock });
  key = await server.apiKey('acme', ['issuer']);
  const rest: CheckpointRead = async (k, logId) => {
    const res = await request(server.baseUrl, 'GET', `/ledger/${encodeURIComponent(logId)}/checkpoint`, { headers: { 'X-API-Key': k } });
    return res.status === 200 ? { ok: true, data: res.json } : { ok: false, status: res.status };
  };
  const graphql: CheckpointRead = (k, logId) =>
    gqlOutcome(async () => (await server.sdk(k).ledgerCheckpoint({ logId })).ledgerCheckpoint as LedgerCheckpoint & { signedAt: string });
  reads = [
    ['REST', rest],
    ['GraphQL', graphql],
  ];
});

afterAll(async () => {
  await server?.stop();
});

async function newDidLog(): Promise<string> {
  const kp = await request(server.baseUrl, 'GET', '/generate-keypair', { headers: { 'X-API-Key': key } });
  const did = await request(server.baseUrl, 'POST', '/dids', { headers: { 'X-API-Key': key }, body: { method: 'credgate', publicKey: kp.json.publicKey } });
  expect(did.status).toBe(201);
  return did.json.ledgerFileId as string;
}

const ok = <T>(o: Outcome<T>): T => {
  if (!o.ok) throw new Error(`expected success, got ${o.status} ${o.code ?? ''}`);
  return o.data;
};
const sha = (s: string): Uint8Array => new Uint8Array(createHash('sha256').update(s).digest());

test('REST and GraphQL serve the same stored head; a moving clock does not change it; growth signs a new one', async () => {
  now = new Date('2026-11-23T04:00:10.000Z');
  const logId = await newDidLog();
  const heads: LedgerCheckpoint[] = [];
  for (const [, read] of reads) {
    const cp = ok(await read(key, logId));
    expect(cp.signedAt).toBe('2026-11-23T04:00:10.000Z');
    heads.push(cp);
    now = new Date(now.getTime() + 3_600_000);
  }
  expect(heads[1]).toEqual(heads[0]);

  now = new Date('2026-11-23T09:00:00.000Z');
  await server.app.ledger.append(logId, { entryHash: sha('grow'), kind: 'test', ref: 'grow' });
  for (const [, read] of reads) {
    const cp = ok(await read(key, logId));
    expect(cp).toMatchObject({ treeSize: heads[0]!.treeSize + 1, signedAt: '2026-11-23T09:00:00.000Z' });
    expect(cp.note).not.toBe(heads[0]!.note);
    now = new Date(now.getTime() + 3_600_000);
  }
});

test('after an operator rewrites a node (triggers off), reads still return the signed head, and the next head is refused', async () => {
  now = new Date('2026-11-23T10:00:00.000Z');
  const logId = await newDidLog();
  const seq = logId.slice('0.0.'.length);
  const signed = ok(await reads[0]![1](key, logId));
  await server.app.db.sql.transaction(async (tx) => {
    await tx.exec('SET LOCAL session_replication_role = replica');
    await tx.query('UPDATE ledger_nodes SET hash = set_byte(hash, 0, get_byte(hash, 0) # 1) WHERE log_seq = $1 AND level = 0 AND index = 0', [seq]);
  });
  for (const [, read] of reads) expect(ok(await read(key, logId))).toEqual(signed);

  // The writer's head after growth is refused (the append committed but is not reported done) ...
  await expect(server.app.ledger.append(logId, { entryHash: sha('after-tamper'), kind: 'test', ref: 'x' })).rejects.toMatchObject({ code: 'INTERNAL' });
  expect(server.logs.text()).toMatch(/refusing to sign/);
  // ... and reads, which never sign, keep serving the head signed before the tampering.
  for (const [, read] of reads) expect(ok(await read(key, logId))).toEqual(signed);
});

test('an entry whose leaf row was forged (triggers off, nodes intact) is not served as anchored, on both transports', async () => {
  const logId = await newDidLog();
  const seq = logId.slice('0.0.'.length);
  await server.app.ledger.append(logId, { entryHash: sha('honest'), kind: 'test', ref: 'honest' });
  const signed = ok(await reads[0]![1](key, logId));
  const forged = sha('forged');
  const forgedLeaf = createHash('sha256').update(Buffer.from([0])).update(forged).digest();
  await server.app.db.sql.transaction(async (tx) => {
    await tx.exec('SET LOCAL session_replication_role = replica');
    await tx.query('UPDATE ledger_leaves SET entry_hash = $2, leaf_hash = $3 WHERE log_seq = $1 AND index = 1', [seq, Buffer.from(forged), forgedLeaf]);
  });
  const hex = Buffer.from(forged).toString('hex');
  const rest = await request(server.baseUrl, 'GET', `/ledger/${logId}/entries/${hex}`, { headers: { 'X-API-Key': key } });
  const gql = await gqlOutcome(async () => (await server.sdk(key).ledgerEntry({ logId, entryHash: hex })).ledgerEntry);
  expect(rest.status).toBe(500);
  expect(gql).toMatchObject({ ok: false, status: 500 });
  // The signed head itself is untouched and still served.
  for (const [, read] of reads) expect(ok(await read(key, logId))).toEqual(signed);
});
