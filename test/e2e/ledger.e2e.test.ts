import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  type NoteVerifier,
  formatVerifierKey,
  leafHash,
  openCheckpoint,
  publicKeyOf,
  rootFromLeafHashes,
  verifyConsistency,
  verifyInclusion,
} from '../../src/domain/merkle';
import { MASTER_KEY_FILE } from '../../src/kms/master-key';
import { deriveLedgerSeed } from '../../src/ledger';
import type { LedgerCheckpoint } from '../../src/ledger/ledger.port';
import type { LedgerConsistency, LedgerEntryProof, LedgerInclusion, LedgerLeafRange } from '../../src/services/ledger.service';
import { type TestServer, startTestServer } from '../support/harness';
import { type HttpResponse, request } from '../support/http';
import { type Outcome, gqlOutcome } from '../support/transports';

/**
 * The ledger read API through REST and GraphQL (generated SDK), normalised so each expectation
 * is stated once. Every proof and checkpoint is verified here, client-side, with the domain
 * verifiers and a log key the test derives itself from the master key (never the served one).
 */
interface LedgerTransport {
  readonly name: string;
  checkpoint(key: string | undefined, logId: string): Promise<Outcome<LedgerCheckpoint>>;
  inclusion(key: string | undefined, logId: string, leafIndex: number, treeSize?: number): Promise<Outcome<LedgerInclusion>>;
  consistency(key: string | undefined, logId: string, from: number, to?: number): Promise<Outcome<LedgerConsistency>>;
  entry(key: string | undefined, logId: string, entryHash: string): Promise<Outcome<LedgerEntryProof>>;
  leaves(key: string | undefined, logId: string, start: number, end: number): Promise<Outcome<LedgerLeafRange>>;
}

function familyB<T>(res: HttpResponse): Outcome<T> {
  if (res.status >= 400) {
    expect(Object.keys(res.json).slice(0, 2)).toEqual(['error', 'code']);
    expect(typeof res.json.error).toBe('string');
    return { ok: false, status: res.status };
  }
  expect(res.status).toBe(200);
  return { ok: true, data: res.json as T };
}

function restLedger(server: TestServer): LedgerTransport {
  const get = async <T>(key: string | undefined, p: string, query: Record<string, number | undefined> = {}): Promise<Outcome<T>> => {
    const q = new URLSearchParams(Object.entries(query).flatMap(([k, v]): [string, string][] => (v === undefined ? [] : [[k, String(v)]])));
    return familyB<T>(await request(server.baseUrl, 'GET', `${p}${q.size ? `?${q}` : ''}`, { headers: key ? { 'X-API-Key': key } : {} }));
  };
  const base = (logId: string) => `/ledger/${encodeURIComponent(logId)}`;
  return {
    name: 'REST',
    checkpoint: (key, logId) => get(key, `${base(logId)}/checkpoint`),
    inclusion: (key, logId, leafIndex, treeSize) => get(key, `${base(logId)}/proof/inclusion`, { leafIndex, treeSize }),
    consistency: (key, logId, from, to) => get(key, `${base(logId)}/proof/consistency`, { from, to }),
    entry: (key, logId, entryHash) => get(key, `${base(logId)}/entries/${encodeURIComponent(entryHash)}`),
    leaves: (key, logId, start, end) => get(key, `${base(logId)}/leaves`, { start, end }),
  };
}

function graphqlLedger(server: TestServer): LedgerTransport {
  return {
    name: 'GraphQL',
    checkpoint: (key, logId) => gqlOutcome(async () => (await server.sdk(key).ledgerCheckpoint({ logId })).ledgerCheckpoint),
    inclusion: (key, logId, leafIndex, treeSize) =>
      gqlOutcome(async () => (await server.sdk(key).ledgerInclusionProof({ logId, leafIndex, ...(treeSize === undefined ? {} : { treeSize }) })).ledgerInclusionProof),
    consistency: (key, logId, from, to) =>
      gqlOutcome(async () => (await server.sdk(key).ledgerConsistencyProof({ logId, from, ...(to === undefined ? {} : { to }) })).ledgerConsistencyProof),
    entry: (key, logId, entryHash) => gqlOutcome(async () => (await server.sdk(key).ledgerEntry({ logId, entryHash })).ledgerEntry),
    leaves: (key, logId, start, end) => gqlOutcome(async () => (await server.sdk(key).ledgerLeaves({ logId, start, end })).ledgerLeaves),
  };
}

const ok = <T>(o: Outcome<T>): T => {
  if (!o.ok) throw new Error(`expected success, got ${o.status} ${o.code ?? ''}`);
  return o.data;
};
const b64 = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'base64'));
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const eq = (a: Uint8Array, b: Uint8Array): boolean => Buffer.from(a).equals(Buffer.from(b));

const COUNT = 13;
/** Sizes at which the test keeps the signed checkpoint, as a monitoring client would. */
const RECORDED = [1, 2, 4, 5, 8, 12];
const ORIGIN = 'credgate.test/ledger';

let server: TestServer;
let transports: Map<string, LedgerTransport>;
let holderKey: string;
let otherTenantKey: string;
let topicId: string;
let verifier: NoteVerifier;
let seedHex: string;
const entryHashes: Uint8Array[] = [];
const recorded = new Map<number, Uint8Array>();

/** Verifies a served checkpoint with the pinned key and returns its size and root. */
function open(cp: LedgerCheckpoint, logId = topicId): { size: number; root: Uint8Array } {
  const opened = openCheckpoint(cp.note, verifier, `${ORIGIN}/${logId}`);
  expect(opened.verified).toBe(true);
  expect(cp.origin).toBe(`${ORIGIN}/${logId}`);
  expect(opened.checkpoint!.size).toBe(cp.treeSize);
  expect(eq(opened.checkpoint!.rootHash, b64(cp.rootHash))).toBe(true);
  return { size: cp.treeSize, root: opened.checkpoint!.rootHash };
}

beforeAll(async () => {
  server = await startTestServer();
  transports = new Map([restLedger(server), graphqlLedger(server)].map((t) => [t.name, t]));
  holderKey = await server.apiKey('acme', ['holder']);
  otherTenantKey = await server.apiKey('globex', ['verifier']);

  // The pinned log key: derived from the master key exactly as documented.
  const masterKey = server.config.masterKey ?? Buffer.from(readFileSync(path.join(server.config.dataDir, MASTER_KEY_FILE), 'utf8').trim(), 'base64');
  const seed = deriveLedgerSeed(masterKey);
  seedHex = hex(seed);
  verifier = { name: ORIGIN, publicKey: publicKeyOf(seed) };

  // A DID allocates its topic logs.
  const headers = { 'X-API-Key': holderKey };
  const kp = await request(server.baseUrl, 'GET', '/generate-keypair', { headers });
  expect(kp.status).toBe(200);
  const did = await request(server.baseUrl, 'POST', '/dids', { headers, body: { method: 'credgate', publicKey: kp.json.publicKey } });
  expect(did.status).toBe(201);
  topicId = did.json.topicId;
  expect(topicId).toMatch(/^0\.0\.\d+$/);

  // Anchors go in through the Ledger port (services append; the API only reads).
  for (let i = 0; i < COUNT; i++) {
    const entryHash = new Uint8Array(createHash('sha256').update(`anchor ${i}`).digest());
    entryHashes.push(entryHash);
    expect(await server.app.ledger.append(topicId, { entryHash, kind: 'test-anchor', ref: `anchor-${i}` })).toEqual({ leafIndex: i, created: true });
    if (RECORDED.includes(i + 1)) recorded.set(i + 1, b64((await server.app.ledger.checkpoint(topicId)).rootHash));
  }
});

afterAll(async () => {
  await server?.stop();
});

describe.each(['REST', 'GraphQL'])('ledger through %s', (name) => {
  const t = (): LedgerTransport => transports.get(name)!;

  test('the checkpoint is a C2SP note signed by the derived log key, over the RFC 9162 root of the leaves', async () => {
    const cp = ok(await t().checkpoint(holderKey, topicId));
    const { size, root } = open(cp);
    expect(size).toBe(COUNT);
    expect(cp.logId).toBe(topicId);
    expect(cp.verifierKey).toBe(formatVerifierKey(ORIGIN, verifier.publicKey));
    expect(cp.publicKey).toBe(Buffer.from(verifier.publicKey).toString('base64'));
    expect(cp.note).toBe(`${ORIGIN}/${topicId}\n${COUNT}\n${cp.rootHash}\n\n\u2014 ${ORIGIN} ${cp.note.split(' ').pop()}`);
    expect(eq(root, rootFromLeafHashes(entryHashes.map(leafHash)))).toBe(true);
    // The log key never reaches the logs.
    expect(server.logs.text()).not.toContain(seedHex);
    expect(server.logs.text()).not.toContain(Buffer.from(seedHex, 'hex').toString('base64'));
  });

  test('leaves are H(0x00 || entryHash) in order and recompute the signed root', async () => {
    const cp = open(ok(await t().checkpoint(holderKey, topicId)));
    const all = ok(await t().leaves(holderKey, topicId, 0, COUNT));
    expect(all).toMatchObject({ logId: topicId, start: 0, end: COUNT });
    expect(all.leafHashes.map(b64).map(hex)).toEqual(entryHashes.map(leafHash).map(hex));
    expect(eq(rootFromLeafHashes(all.leafHashes.map(b64)), cp.root)).toBe(true);
    expect(ok(await t().leaves(holderKey, topicId, 3, 7)).leafHashes).toEqual(all.leafHashes.slice(3, 7));
    expect(ok(await t().leaves(holderKey, topicId, 5, 5)).leafHashes).toEqual([]);
  });

  test('every inclusion proof verifies, at the head and at every recorded size', async () => {
    for (let i = 0; i < COUNT; i++) {
      const p = ok(await t().inclusion(holderKey, topicId, i));
      const head = open(p.checkpoint);
      expect(p).toMatchObject({ logId: topicId, leafIndex: i, treeSize: COUNT });
      expect(hex(b64(p.leafHash))).toBe(hex(leafHash(entryHashes[i]!)));
      expect(verifyInclusion(leafHash(entryHashes[i]!), i, p.treeSize, p.proof.map(b64), head.root)).toBe(true);
      for (const [size, root] of recorded) {
        if (i >= size) continue;
        const old = ok(await t().inclusion(holderKey, topicId, i, size));
        expect(old.treeSize).toBe(size);
        expect(verifyInclusion(leafHash(entryHashes[i]!), i, size, old.proof.map(b64), root)).toBe(true);
      }
    }
  });

  test('consistency proofs verify from every recorded size to the head and between recorded sizes', async () => {
    for (const [from, oldRoot] of recorded) {
      const p = ok(await t().consistency(holderKey, topicId, from));
      expect(p).toMatchObject({ logId: topicId, fromSize: from, toSize: COUNT });
      expect(verifyConsistency(from, COUNT, p.proof.map(b64), oldRoot, open(p.checkpoint).root)).toBe(true);
      for (const [to, newRoot] of recorded) {
        if (to < from) continue;
        const q = ok(await t().consistency(holderKey, topicId, from, to));
        expect(q.toSize).toBe(to);
        expect(verifyConsistency(from, to, q.proof.map(b64), oldRoot, newRoot)).toBe(true);
      }
    }
  });

  test('an entry is found by its hash (either hex case) with an inclusion proof in the signed head', async () => {
    for (let i = 0; i < COUNT; i++) {
      const spelled = i % 2 === 0 ? hex(entryHashes[i]!) : hex(entryHashes[i]!).toUpperCase();
      const e = ok(await t().entry(holderKey, topicId, spelled));
      expect(e).toMatchObject({ logId: topicId, entryHash: hex(entryHashes[i]!), leafIndex: i, kind: 'test-anchor', ref: `anchor-${i}`, treeSize: COUNT });
      expect(e.checkpoint.treeSize).toBe(e.treeSize);
      expect(verifyInclusion(leafHash(entryHashes[i]!), i, e.treeSize, e.proof.map(b64), open(e.checkpoint).root)).toBe(true);
      expect(hex(b64(e.leafHash))).toBe(hex(leafHash(entryHashes[i]!)));
    }
  });

  test('logs are public: a key of another tenant, with any scope, reads the same data', async () => {
    expect(ok(await t().checkpoint(otherTenantKey, topicId))).toEqual(ok(await t().checkpoint(holderKey, topicId)));
    expect(ok(await t().entry(otherTenantKey, topicId, hex(entryHashes[0]!)))).toEqual(ok(await t().entry(holderKey, topicId, hex(entryHashes[0]!))));
  });

  test('401 without an API key', async () => {
    for (const out of [
      await t().checkpoint(undefined, topicId),
      await t().inclusion(undefined, topicId, 0),
      await t().consistency(undefined, topicId, 1),
      await t().entry(undefined, topicId, hex(entryHashes[0]!)),
      await t().leaves(undefined, topicId, 0, 1),
    ]) {
      expect(out).toMatchObject({ ok: false, status: 401 });
    }
  });

  test('404 for an unknown log or entry; 400 for a malformed log id, entry hash or size', async () => {
    const unknown = '0.0.987654321';
    for (const out of [
      await t().checkpoint(holderKey, unknown),
      await t().inclusion(holderKey, unknown, 0),
      await t().consistency(holderKey, unknown, 1),
      await t().entry(holderKey, unknown, hex(entryHashes[0]!)),
      await t().leaves(holderKey, unknown, 0, 1),
      await t().entry(holderKey, topicId, 'ab'.repeat(32)),
    ]) {
      expect(out).toMatchObject({ ok: false, status: 404 });
    }
    for (const out of [
      await t().checkpoint(holderKey, 'not-a-ledger-id'),
      await t().checkpoint(holderKey, '0.0.01'),
      await t().entry(holderKey, topicId, 'ab'.repeat(31)),
      await t().entry(holderKey, topicId, 'zz'.repeat(32)),
      await t().inclusion(holderKey, topicId, COUNT),
      await t().inclusion(holderKey, topicId, 0, COUNT + 1),
      await t().inclusion(holderKey, topicId, 3, 3),
      await t().inclusion(holderKey, topicId, -1),
      await t().consistency(holderKey, topicId, 0),
      await t().consistency(holderKey, topicId, 5, 4),
      await t().consistency(holderKey, topicId, 1, COUNT + 1),
      await t().leaves(holderKey, topicId, 0, COUNT + 1),
      await t().leaves(holderKey, topicId, 4, 3),
      await t().leaves(holderKey, topicId, 0, 10_001),
      await t().leaves(holderKey, topicId, -1, 2),
    ]) {
      expect(out).toMatchObject({ ok: false, status: 400 });
    }
  });
});

describe('REST and GraphQL agree', () => {
  test('every operation returns the same data through both transports', async () => {
    const [rest, gql] = [transports.get('REST')!, transports.get('GraphQL')!];
    const both = async <T>(f: (x: LedgerTransport) => Promise<Outcome<T>>) => expect(ok(await f(rest))).toEqual(ok(await f(gql)));
    await both((x) => x.checkpoint(holderKey, topicId));
    await both((x) => x.inclusion(holderKey, topicId, 6));
    await both((x) => x.inclusion(holderKey, topicId, 1, 5));
    await both((x) => x.consistency(holderKey, topicId, 5));
    await both((x) => x.consistency(holderKey, topicId, 2, 8));
    await both((x) => x.entry(holderKey, topicId, hex(entryHashes[9]!)));
    await both((x) => x.leaves(holderKey, topicId, 0, COUNT));
  });
});

describe('REST query integers are parsed strictly', () => {
  test.each([
    ['proof/inclusion', 'leafIndex=abc'],
    ['proof/inclusion', 'leafIndex=1.5'],
    ['proof/inclusion', 'leafIndex=-1'],
    ['proof/inclusion', 'leafIndex=01'],
    ['proof/inclusion', 'leafIndex=+1'],
    ['proof/inclusion', 'leafIndex=1e1'],
    ['proof/inclusion', 'leafIndex=0x1'],
    ['proof/inclusion', 'leafIndex=%201'],
    ['proof/inclusion', 'leafIndex='],
    ['proof/inclusion', 'leafIndex=1&leafIndex=2'],
    ['proof/inclusion', 'treeSize=5'],
    ['proof/inclusion', 'leafIndex=0&treeSize=x'],
    ['proof/inclusion', 'leafIndex=0&treeSize=99999999999999999999'],
    ['proof/consistency', ''],
    ['proof/consistency', 'from=one'],
    ['proof/consistency', 'from=1&to=2.0'],
    ['leaves', 'start=0'],
    ['leaves', 'end=3'],
    ['leaves', 'start=0&end=three'],
    ['leaves', 'start[]=0&end=3'],
  ])('GET /ledger/{logId}/%s?%s is 400', async (route, query) => {
    const res = await request(server.baseUrl, 'GET', `/ledger/${topicId}/${route}${query ? `?${query}` : ''}`, { headers: { 'X-API-Key': holderKey } });
    expect(res.status).toBe(400);
    expect(Object.keys(res.json)).toEqual(['error', 'code', 'details']);
    // Rejected by the query parser, which names the parameter, not by a later size check.
    expect(res.json.error).toMatch(/^(the )?(leafIndex|treeSize|from|to|start|end) (must be a non-negative integer|query parameter is required)$/);
  });
});
