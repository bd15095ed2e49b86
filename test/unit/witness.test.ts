import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { base64 } from '@scure/base';
import {
  type NodeReader,
  appendLeaf,
  consistencyProof,
  formatCheckpoint,
  leafHash,
  publicKeyOf,
  rootAt,
  signNote,
} from '../../src/domain/merkle';
import {
  cosign,
  formatWitnessSignerKey,
  formatWitnessVerifierKey,
  noteBody,
  parseWitnessSignerKey,
  parseWitnessVerifierKey,
  verifyCosignature,
} from '../../src/witness/cosignature';
import { Witness } from '../../src/witness/witness';
import { createWitnessServer } from '../../src/witness/witness-http';
import { JsonFileWitnessState } from '../../src/witness/witness-state';

const utf8 = new TextEncoder();
const seed = (b: number): Uint8Array => new Uint8Array(32).fill(b);
const LOG = { name: 'log.example/ledger', seed: seed(1) };
const OTHER_LOG = { name: 'log.example/ledger', seed: seed(9) };
const ORIGIN = `${LOG.name}/0.0.7`;
const W1 = { name: 'witness.example/w1', seed: seed(2) };
const W1_KEY = { name: W1.name, publicKey: publicKeyOf(W1.seed) };
const NOW = new Date('2026-11-22T12:00:00Z');

/** An in-memory RFC 9162 tree with the same perfect-node storage as the PostgreSQL log. */
class MemoryTree implements NodeReader {
  private readonly nodes = new Map<string, Uint8Array>();
  size = 0;

  async getNodes(ids: ReadonlyArray<{ level: number; index: number }>): Promise<Uint8Array[]> {
    return ids.map((id) => {
      const h = this.nodes.get(`${id.level}/${id.index}`);
      if (!h) throw new Error(`missing node ${id.level}/${id.index}`);
      return h;
    });
  }

  static async of(entries: readonly string[]): Promise<MemoryTree> {
    const t = new MemoryTree();
    for (const e of entries) {
      for (const n of await appendLeaf(t.size, leafHash(utf8.encode(e)), t)) t.nodes.set(`${n.level}/${n.index}`, n.hash);
      t.size++;
    }
    return t;
  }

  /** The log-signed checkpoint of the first `size` leaves. */
  async checkpoint(size: number, signer = LOG, origin = ORIGIN): Promise<string> {
    return signNote(formatCheckpoint({ origin, size, rootHash: await rootAt(size, this) }), signer);
  }

  async proof(from: number, to: number): Promise<string[]> {
    return from === 0 || from === to ? [] : (await consistencyProof(from, to, this)).map((h) => base64.encode(h));
  }
}

const entries = (n: number, tag = ''): string[] => Array.from({ length: n }, (_, i) => `entry ${i}${i === 1 ? tag : ''}`);
const request = (old: number, proof: readonly string[], note: string): string => `old ${old}\n${proof.map((p) => `${p}\n`).join('')}\n${note}`;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'credgate-witness-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function witnessAt(stateDir = dir): Witness {
  return new Witness({
    logKeys: [{ name: LOG.name, publicKey: publicKeyOf(LOG.seed) }],
    signer: W1,
    state: new JsonFileWitnessState(stateDir),
    clock: { now: () => NOW },
  });
}

/** Cosigns `size` leaves of `tree` from the witness's current size `old`, expecting 200. */
async function cosignTo(w: Witness, tree: MemoryTree, old: number, size: number): Promise<string> {
  const a = await w.addCheckpoint(request(old, await tree.proof(old, size), await tree.checkpoint(size)));
  expect({ status: a.status, body: a.status === 200 ? 'line' : a.body }).toEqual({ status: 200, body: 'line' });
  return a.body;
}

describe('cosignature/v1 and witness keys', () => {
  test('a cosignature verifies over "cosignature/v1\\ntime <t>\\n" + the checkpoint body, and nothing else', async () => {
    const tree = await MemoryTree.of(entries(3));
    const body = noteBody(await tree.checkpoint(3))!;
    const line = cosign(body, 1_700_000_000, W1);
    expect(line).toMatch(/^\u2014 witness\.example\/w1 [A-Za-z0-9+/]+=*\n$/);
    // key ID (4) || timestamp (8) || Ed25519 signature (64)
    expect(base64.decode(line.trim().split(' ')[2]!)).toHaveLength(76);
    expect(verifyCosignature(body, line, W1_KEY)).toEqual({ name: W1.name, timestamp: 1_700_000_000, line });
    expect(verifyCosignature(noteBody(await tree.checkpoint(2))!, line, W1_KEY)).toBeUndefined();
    expect(verifyCosignature(body, line, { name: W1.name, publicKey: publicKeyOf(seed(3)) })).toBeUndefined();
    // The timestamp is signed: moving it breaks the signature.
    const blob = base64.decode(line.trim().split(' ')[2]!);
    blob[11]! ^= 1;
    expect(verifyCosignature(body, `\u2014 ${W1.name} ${base64.encode(blob)}\n`, W1_KEY)).toBeUndefined();
  });

  test('vkeys use signature type 0x04 and round-trip; a wrong key ID or type is refused', () => {
    const vkey = formatWitnessVerifierKey(W1_KEY);
    expect(vkey.startsWith(`${W1.name}+`)).toBe(true);
    expect(base64.decode(vkey.split('+').slice(2).join('+'))[0]).toBe(0x04);
    expect(parseWitnessVerifierKey(vkey)).toEqual(W1_KEY);
    expect(parseWitnessSignerKey(formatWitnessSignerKey(W1))).toEqual(W1);
    const [name, id, ...key] = vkey.split('+');
    const wrongId = `${name}+${id === '00000000' ? '00000001' : '00000000'}+${key.join('+')}`;
    expect(() => parseWitnessVerifierKey(wrongId)).toThrow(expect.objectContaining({ code: 'INVALID_PUBLIC_KEY' }));
    const type01 = `${name}+${id}+${base64.encode(Uint8Array.of(0x01, ...W1_KEY.publicKey))}`;
    expect(() => parseWitnessVerifierKey(type01)).toThrow(expect.objectContaining({ code: 'INVALID_PUBLIC_KEY' }));
    expect(() => parseWitnessSignerKey(vkey)).toThrow(expect.objectContaining({ code: 'INVALID_PRIVATE_KEY' }));
  });
});

describe('add-checkpoint', () => {
  test('cosigns the first checkpoint from size 0, then a grown one with a consistency proof', async () => {
    const w = witnessAt();
    const tree = await MemoryTree.of(entries(13));
    const first = await cosignTo(w, tree, 0, 5);
    expect(verifyCosignature(noteBody(await tree.checkpoint(5))!, first, W1_KEY)?.timestamp).toBe(NOW.getTime() / 1000);
    const second = await cosignTo(w, tree, 5, 13);
    expect(verifyCosignature(noteBody(await tree.checkpoint(13))!, second, W1_KEY)).toBeDefined();
    // The same checkpoint again (a retried request) is cosigned again; proofs must be empty then.
    await cosignTo(w, tree, 13, 13);
  });

  test('an old size that is not the last cosigned one answers 409 with that size as text/x.tlog.size', async () => {
    const w = witnessAt();
    const tree = await MemoryTree.of(entries(8));
    await cosignTo(w, tree, 0, 3);
    const a = await w.addCheckpoint(request(0, [], await tree.checkpoint(8)));
    expect(a).toEqual({ status: 409, contentType: 'text/x.tlog.size', body: '3\n' });
  });

  test('rollback refused: a smaller checkpoint is never cosigned', async () => {
    const w = witnessAt();
    const tree = await MemoryTree.of(entries(8));
    await cosignTo(w, tree, 0, 8);
    expect((await w.addCheckpoint(request(8, [], await tree.checkpoint(5)))).status).toBe(400);
    expect(await w.addCheckpoint(request(5, [], await tree.checkpoint(5)))).toEqual({ status: 409, contentType: 'text/x.tlog.size', body: '8\n' });
  });

  test('fork refused: another root at the same size is 409, a forked larger tree is 422', async () => {
    const w = witnessAt();
    const honest = await MemoryTree.of(entries(8));
    const forked = await MemoryTree.of(entries(12, ' (rewritten)'));
    await cosignTo(w, honest, 0, 8);
    expect((await w.addCheckpoint(request(8, [], await forked.checkpoint(8)))).status).toBe(409);
    // The operator's own proof from 8, computed on the rewritten tree, does not lead from the cosigned root.
    const a = await w.addCheckpoint(request(8, await forked.proof(8, 12), await forked.checkpoint(12)));
    expect(a.status).toBe(422);
    // Nothing moved: the honest continuation still cosigns from 8.
    const honest12 = await MemoryTree.of(entries(12));
    await cosignTo(w, honest12, 8, 12);
  });

  test('a tampered consistency proof is 422; a proof from size 0 must be empty', async () => {
    const w = witnessAt();
    const tree = await MemoryTree.of(entries(9));
    await cosignTo(w, tree, 0, 4);
    const proof = await tree.proof(4, 9);
    const bad = base64.decode(proof[0]!);
    bad[0]! ^= 0xff;
    expect((await w.addCheckpoint(request(4, [base64.encode(bad), ...proof.slice(1)], await tree.checkpoint(9)))).status).toBe(422);
    expect((await w.addCheckpoint(request(4, proof.slice(1), await tree.checkpoint(9)))).status).toBe(422);
    const fresh = witnessAt(mkdtempSync(path.join(dir, 'fresh-')));
    expect((await fresh.addCheckpoint(request(0, proof, await tree.checkpoint(9)))).status).toBe(422);
  });

  test('an unknown origin is 404; a known origin without a trusted signature is 403', async () => {
    const w = witnessAt();
    const tree = await MemoryTree.of(entries(3));
    expect((await w.addCheckpoint(request(0, [], await tree.checkpoint(3, { name: 'elsewhere.example/log', seed: LOG.seed }, 'elsewhere.example/log/0.0.1')))).status).toBe(404);
    expect((await w.addCheckpoint(request(0, [], await tree.checkpoint(3, OTHER_LOG)))).status).toBe(403);
    // A prefix that is not a path segment of the key name is not covered by the key.
    expect((await w.addCheckpoint(request(0, [], await tree.checkpoint(3, LOG, `${LOG.name}x/0.0.7`)))).status).toBe(404);
  });

  test('malformed requests are 400 and change nothing', async () => {
    const w = witnessAt();
    const tree = await MemoryTree.of(entries(3));
    const note = await tree.checkpoint(3);
    const cases: [string, number][] = [
      [note, 400],
      [`old 01\n\n${note}`, 400],
      [`old -1\n\n${note}`, 400],
      [`old 0\nnot base64!\n\n${note}`, 400],
      [`old 0\n${base64.encode(new Uint8Array(31))}\n\n${note}`, 400],
      [`old 0\n${Array(64).fill(base64.encode(new Uint8Array(32))).join('\n')}\n\n${note}`, 400],
      // No signature at all: nothing trusted signed it.
      [`old 0\n\n${noteBody(note)}`, 403],
    ];
    for (const [body, status] of cases) expect({ body, status: (await w.addCheckpoint(body)).status }).toEqual({ body, status });
    expect(() => readFileSync(path.join(dir, 'witness-state.json'))).toThrow();
    await cosignTo(w, tree, 0, 3);
  });

  test('the cosigned size survives a restart: a new process over the same state refuses what the old one would', async () => {
    const honest = await MemoryTree.of(entries(10));
    await cosignTo(witnessAt(), honest, 0, 10);
    expect(JSON.parse(readFileSync(path.join(dir, 'witness-state.json'), 'utf8'))).toEqual({
      version: 1,
      logs: { [ORIGIN]: { size: 10, rootHash: base64.encode(await rootAt(10, honest)) } },
    });
    const restarted = witnessAt();
    const forked = await MemoryTree.of(entries(10, ' (rewritten)'));
    expect(await restarted.addCheckpoint(request(0, [], await forked.checkpoint(10)))).toEqual({ status: 409, contentType: 'text/x.tlog.size', body: '10\n' });
    expect((await restarted.addCheckpoint(request(10, [], await forked.checkpoint(10)))).status).toBe(409);
  });

  test('concurrent requests are serialised: of two racing first checkpoints only one is cosigned', async () => {
    const w = witnessAt();
    const tree = await MemoryTree.of(entries(6));
    const [a, b] = await Promise.all([w.addCheckpoint(request(0, [], await tree.checkpoint(3))), w.addCheckpoint(request(0, [], await tree.checkpoint(6)))]);
    expect([a.status, b.status]).toEqual([200, 409]);
    expect(b.body).toBe('3\n');
  });
});

describe('the witness over HTTP', () => {
  test('POST /add-checkpoint answers the statuses of the spec; other paths and methods do not', async () => {
    const server = createWitnessServer(witnessAt()).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const tree = await MemoryTree.of(entries(4));
      const post = (body: string | Uint8Array) => fetch(`${url}/add-checkpoint`, { method: 'POST', body });
      const ok = await post(request(0, [], await tree.checkpoint(4)));
      expect(ok.status).toBe(200);
      expect(verifyCosignature(noteBody(await tree.checkpoint(4))!, await ok.text(), W1_KEY)).toBeDefined();
      const conflict = await post(request(0, [], await tree.checkpoint(4)));
      expect([conflict.status, conflict.headers.get('content-type'), await conflict.text()]).toEqual([409, 'text/x.tlog.size', '4\n']);
      expect((await post(Uint8Array.of(0x6f, 0x6c, 0x64, 0x20, 0xff))).status).toBe(400);
      expect((await post('x'.repeat(70 * 1024))).status).toBe(413);
      expect((await fetch(`${url}/add-checkpoint`)).status).toBe(405);
      expect((await fetch(`${url}/other`, { method: 'POST' })).status).toBe(404);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
