import { createHash } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { AppError } from '../../src/errors';
import {
  EMPTY_ROOT,
  type MerkleNode,
  type NodeId,
  type NodeReader,
  appendLeaf,
  appendLeaves,
  consistencyProof,
  inclusionProof,
  leafHash,
  nodeHash,
  rootAt,
  rootFromLeafHashes,
  verifyConsistency,
  verifyInclusion,
} from '../../src/domain/merkle';
import { readSharedJson, sharedPath } from '../support/shared';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const fromHex = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'hex'));
const fromB64 = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'base64'));

// ------------------------------------------------------------------------------------------------
// In-memory NodeReader that counts what it is asked for.

class MemoryStore implements NodeReader {
  readonly nodes = new Map<string, Uint8Array>();
  calls = 0;
  reads = 0;
  readonly touched = new Set<string>();

  static key(id: NodeId): string {
    return `${id.level}/${id.index}`;
  }

  put(nodes: readonly MerkleNode[]): void {
    for (const n of nodes) {
      const k = MemoryStore.key(n);
      if (this.nodes.has(k)) throw new Error(`node ${k} written twice`);
      this.nodes.set(k, n.hash);
    }
  }

  async getNodes(ids: ReadonlyArray<NodeId>): Promise<Uint8Array[]> {
    this.calls++;
    this.reads += ids.length;
    return ids.map((id) => {
      const k = MemoryStore.key(id);
      this.touched.add(k);
      const h = this.nodes.get(k);
      if (h === undefined) throw new AppError('NOT_FOUND', `node ${k} not found`);
      return h;
    });
  }

  resetCounters(): void {
    this.calls = 0;
    this.reads = 0;
    this.touched.clear();
  }

  clone(): MemoryStore {
    const c = new MemoryStore();
    this.nodes.forEach((v, k) => c.nodes.set(k, v.slice()));
    return c;
  }
}

async function buildTree(leaves: readonly Uint8Array[]): Promise<MemoryStore> {
  const store = new MemoryStore();
  for (let i = 0; i < leaves.length; i++) store.put(await appendLeaf(i, leaves[i] as Uint8Array, store));
  store.resetCounters();
  return store;
}

// ------------------------------------------------------------------------------------------------
// Straightforward recursive reference of RFC 9162 §2.1.3.1 PATH and §2.1.4.1 SUBPROOF.

function largestPow2Below(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

function refPath(m: number, d: readonly Uint8Array[]): Uint8Array[] {
  const n = d.length;
  if (n === 1) return [];
  const k = largestPow2Below(n);
  return m < k
    ? [...refPath(m, d.slice(0, k)), rootFromLeafHashes(d.slice(k))]
    : [...refPath(m - k, d.slice(k)), rootFromLeafHashes(d.slice(0, k))];
}

function refSubproof(m: number, d: readonly Uint8Array[], b: boolean): Uint8Array[] {
  const n = d.length;
  if (m === n) return b ? [] : [rootFromLeafHashes(d)];
  const k = largestPow2Below(n);
  return m <= k
    ? [...refSubproof(m, d.slice(0, k), b), rootFromLeafHashes(d.slice(k))]
    : [...refSubproof(m - k, d.slice(k), false), rootFromLeafHashes(d.slice(0, k))];
}

const refProof = (m: number, d: readonly Uint8Array[]): Uint8Array[] => refSubproof(m, d, true);

// ------------------------------------------------------------------------------------------------
// Test data: the RFC 6962 reference leaves (vectors README), then distinct derived leaves.

const RFC6962_LEAVES = ['', '00', '10', '2021', '3031', '40414243', '5051525354555657', '606162636465666768696a6b6c6d6e6f'];
const REFERENCE_ROOTS: Record<number, string> = {
  1: '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  2: 'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  3: 'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
  8: '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
};

/** Leaf data i: the RFC 6962 leaves for i < 8, then those leaves varied with the index. */
function leafData(i: number): Uint8Array {
  const base = fromHex(RFC6962_LEAVES[i % 8] as string);
  if (i < 8) return base;
  const suffix = Buffer.alloc(4);
  suffix.writeUInt32BE(i);
  return new Uint8Array(Buffer.concat([base, suffix]));
}

const LEAF_HASHES: Uint8Array[] = Array.from({ length: 1100 }, (_, i) => leafHash(leafData(i)));
/** Exact ceil(log2 n) for n >= 1 (Math.log2 rounds for n near 2^52). */
const ceilLog2 = (n: number): number => (n <= 1 ? 0 : (n - 1).toString(2).length);
const popcount = (n: number): number => n.toString(2).replace(/0/g, '').length;

/** Deterministic pseudo-random generator (xorshift32) for reproducible "random" sizes. */
function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 2 ** 32;
  };
}

// ------------------------------------------------------------------------------------------------

describe('hashing (RFC 9162 §2.1.1)', () => {
  test('empty root, leaf and node hashes use the 0x00/0x01 domain separation', () => {
    expect(hex(EMPTY_ROOT)).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    const data = fromHex('2021');
    expect(hex(leafHash(data))).toBe(createHash('sha256').update(Buffer.from([0, 0x20, 0x21])).digest('hex'));
    const l = leafHash(fromHex('00'));
    const r = leafHash(fromHex('10'));
    expect(hex(nodeHash(l, r))).toBe(
      createHash('sha256').update(Buffer.concat([Buffer.from([1]), l, r])).digest('hex'),
    );
    expect(() => nodeHash(l, new Uint8Array(31))).toThrow(AppError);
  });

  test('reference roots of the RFC 6962 test tree (sizes 1, 2, 3, 8)', () => {
    for (const [size, root] of Object.entries(REFERENCE_ROOTS)) {
      expect(hex(rootFromLeafHashes(LEAF_HASHES.slice(0, Number(size))))).toBe(root);
    }
    expect(hex(rootFromLeafHashes([]))).toBe(hex(EMPTY_ROOT));
  });
});

// ------------------------------------------------------------------------------------------------

interface InclusionVector {
  leafIdx: number;
  treeSize: number;
  root: string;
  leafHash: string;
  proof: string[] | null;
  desc: string;
  wantErr: boolean;
}

interface ConsistencyVector {
  size1: number;
  size2: number;
  root1: string;
  root2: string;
  proof: string[] | null;
  desc: string;
  wantErr: boolean;
}

function vectorFiles(kind: 'inclusion' | 'consistency'): string[] {
  const root = sharedPath('vectors', 'rfc9162', kind);
  const walk = (dir: string): string[] =>
    readdirSync(dir)
      .sort()
      .flatMap((name) => {
        const full = path.join(dir, name);
        return statSync(full).isDirectory() ? walk(full) : name.endsWith('.json') ? [path.relative(root, full)] : [];
      });
  return walk(root);
}

/** Accepted = returned true. Rejected = returned false or threw AppError INVALID_INPUT. */
function outcome(verify: () => boolean): 'accepted' | 'rejected' {
  try {
    return verify() ? 'accepted' : 'rejected';
  } catch (e) {
    if (e instanceof AppError && e.code === 'INVALID_INPUT') return 'rejected';
    throw e;
  }
}

describe('transparency-dev/merkle test vectors', () => {
  const inclusionFiles = vectorFiles('inclusion');
  const consistencyFiles = vectorFiles('consistency');

  test('the vector directories are present and contain happy and corrupted cases', () => {
    const all = [
      ...inclusionFiles.map((f) => readSharedJson<InclusionVector>('vectors', 'rfc9162', 'inclusion', f)),
      ...consistencyFiles.map((f) => readSharedJson<ConsistencyVector>('vectors', 'rfc9162', 'consistency', f)),
    ];
    expect(inclusionFiles.length).toBeGreaterThanOrEqual(80);
    expect(consistencyFiles.length).toBeGreaterThanOrEqual(80);
    expect(all.filter((v) => v.wantErr).length).toBeGreaterThan(100);
    expect(all.filter((v) => !v.wantErr).length).toBeGreaterThanOrEqual(10);
  });

  test.each(inclusionFiles)('inclusion %s', (file) => {
    const v = readSharedJson<InclusionVector>('vectors', 'rfc9162', 'inclusion', file);
    const proof = (v.proof ?? []).map(fromB64);
    const got = outcome(() => verifyInclusion(fromB64(v.leafHash), v.leafIdx, v.treeSize, proof, fromB64(v.root)));
    expect(got).toBe(v.wantErr ? 'rejected' : 'accepted');
  });

  test.each(consistencyFiles)('consistency %s', (file) => {
    const v = readSharedJson<ConsistencyVector>('vectors', 'rfc9162', 'consistency', file);
    const proof = (v.proof ?? []).map(fromB64);
    const got = outcome(() => verifyConsistency(v.size1, v.size2, proof, fromB64(v.root1), fromB64(v.root2)));
    expect(got).toBe(v.wantErr ? 'rejected' : 'accepted');
  });
});

// ------------------------------------------------------------------------------------------------

describe('append and rootAt over stored perfect nodes', () => {
  test('rootAt equals the reference MTH for every size 0..70 while the tree grows', async () => {
    const store = new MemoryStore();
    for (let size = 0; size <= 70; size++) {
      expect(hex(await rootAt(size, store))).toBe(hex(rootFromLeafHashes(LEAF_HASHES.slice(0, size))));
      if (REFERENCE_ROOTS[size] !== undefined) expect(hex(await rootAt(size, store))).toBe(REFERENCE_ROOTS[size]);
      store.put(await appendLeaf(size, LEAF_HASHES[size] as Uint8Array, store));
    }
  });

  test('only perfect nodes are stored, each exactly once (2n - popcount(n) of them)', async () => {
    for (const n of [0, 1, 2, 3, 7, 8, 40, 70, 1000]) {
      const store = await buildTree(LEAF_HASHES.slice(0, n));
      expect(store.nodes.size).toBe(2 * n - popcount(n));
      for (const key of store.nodes.keys()) {
        const [level, index] = key.split('/').map(Number) as [number, number];
        expect((index + 1) * 2 ** level).toBeLessThanOrEqual(n);
        expect(hex(store.nodes.get(key) as Uint8Array)).toBe(
          hex(rootFromLeafHashes(LEAF_HASHES.slice(index * 2 ** level, (index + 1) * 2 ** level))),
        );
      }
    }
  });

  test('larger trees: rootAt matches the reference at 1000 and at pseudo-random sizes', async () => {
    const store = await buildTree(LEAF_HASHES.slice(0, 1100));
    const next = rng(9162);
    const sizes = [1000, 1024, 1025, 1099, 1100, ...Array.from({ length: 12 }, () => 1 + Math.floor(next() * 1100))];
    for (const size of sizes) {
      expect(hex(await rootAt(size, store))).toBe(hex(rootFromLeafHashes(LEAF_HASHES.slice(0, size))));
    }
  });

  test('appendLeaves (batched) creates the same nodes as repeated appendLeaf', async () => {
    const next = rng(6962);
    for (let trial = 0; trial < 25; trial++) {
      const start = Math.floor(next() * 300);
      const count = Math.floor(next() * 70);
      const seq = await buildTree(LEAF_HASHES.slice(0, start));
      const batch = seq.clone();
      const expected: MerkleNode[] = [];
      for (let i = start; i < start + count; i++) {
        const nodes = await appendLeaf(i, LEAF_HASHES[i] as Uint8Array, seq);
        seq.put(nodes);
        expected.push(...nodes);
      }
      const created = await appendLeaves(start, LEAF_HASHES.slice(start, start + count), batch);
      expect(batch.calls).toBeLessThanOrEqual(1);
      expect(created.map((n) => `${MemoryStore.key(n)}=${hex(n.hash)}`)).toEqual(
        expected.map((n) => `${MemoryStore.key(n)}=${hex(n.hash)}`),
      );
    }
  });

  test('appendLeaf rejects malformed input', async () => {
    const store = new MemoryStore();
    await expect(appendLeaf(0, new Uint8Array(31), store)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(appendLeaf(-1, LEAF_HASHES[0] as Uint8Array, store)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(appendLeaf(1.5, LEAF_HASHES[0] as Uint8Array, store)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(appendLeaf(Number.MAX_SAFE_INTEGER, LEAF_HASHES[0] as Uint8Array, store)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    await expect(rootAt(2 ** 53, store)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });

  test('a reader that breaks its contract is reported as INTERNAL', async () => {
    const short: NodeReader = { getNodes: async () => [] };
    const badHash: NodeReader = { getNodes: async (ids) => ids.map(() => new Uint8Array(16)) };
    await expect(rootAt(3, short)).rejects.toMatchObject({ code: 'INTERNAL' });
    await expect(inclusionProof(0, 3, badHash)).rejects.toMatchObject({ code: 'INTERNAL' });
  });
});

// ------------------------------------------------------------------------------------------------

describe('proof generation matches RFC 9162 PATH / SUBPROOF and verifies', () => {
  const MAX = 40;
  let store: MemoryStore;
  beforeAll(async () => {
    store = await buildTree(LEAF_HASHES.slice(0, MAX));
  });

  test('every inclusion proof for 0 <= index < size <= 40', async () => {
    let checked = 0;
    for (let size = 1; size <= MAX; size++) {
      const leaves = LEAF_HASHES.slice(0, size);
      const root = rootFromLeafHashes(leaves);
      for (let index = 0; index < size; index++) {
        const proof = await inclusionProof(index, size, store);
        expect(proof.map(hex)).toEqual(refPath(index, leaves).map(hex));
        expect(verifyInclusion(leaves[index] as Uint8Array, index, size, proof, root)).toBe(true);
        // The same proof does not prove another leaf or position. (It may legitimately verify for
        // another size: the path shape of a leaf in a left perfect subtree does not depend on it.)
        expect(verifyInclusion(LEAF_HASHES[size] as Uint8Array, index, size, proof, root)).toBe(false);
        if (size > 1) expect(verifyInclusion(leaves[index] as Uint8Array, (index + 1) % size, size, proof, root)).toBe(false);
        checked++;
      }
    }
    expect(checked).toBe((MAX * (MAX + 1)) / 2);
  });

  test('every consistency proof for 1 <= m <= n <= 40', async () => {
    let checked = 0;
    for (let n = 1; n <= MAX; n++) {
      const newRoot = rootFromLeafHashes(LEAF_HASHES.slice(0, n));
      for (let m = 1; m <= n; m++) {
        const oldRoot = rootFromLeafHashes(LEAF_HASHES.slice(0, m));
        const proof = await consistencyProof(m, n, store);
        expect(proof.map(hex)).toEqual((m === n ? [] : refProof(m, LEAF_HASHES.slice(0, n))).map(hex));
        expect(verifyConsistency(m, n, proof, oldRoot, newRoot)).toBe(true);
        if (m < n) {
          expect(verifyConsistency(m, n, proof, newRoot, oldRoot)).toBe(false);
          expect(verifyConsistency(m, n, proof.slice(0, -1), oldRoot, newRoot)).toBe(false);
          expect(verifyConsistency(m, n, [...proof, newRoot], oldRoot, newRoot)).toBe(false);
        }
        checked++;
      }
    }
    expect(checked).toBe((MAX * (MAX + 1)) / 2);
  });

  test('proofs in a 1100-leaf tree at pseudo-random positions equal the reference and verify', async () => {
    const big = await buildTree(LEAF_HASHES);
    const next = rng(2026);
    for (let i = 0; i < 30; i++) {
      const n = 1 + Math.floor(next() * 1100);
      const m = 1 + Math.floor(next() * n);
      const index = Math.floor(next() * n);
      const leaves = LEAF_HASHES.slice(0, n);
      const root = rootFromLeafHashes(leaves);
      const incl = await inclusionProof(index, n, big);
      expect(incl.map(hex)).toEqual(refPath(index, leaves).map(hex));
      expect(verifyInclusion(leaves[index] as Uint8Array, index, n, incl, root)).toBe(true);
      const cons = await consistencyProof(m, n, big);
      expect(cons.map(hex)).toEqual((m === n ? [] : refProof(m, leaves)).map(hex));
      expect(verifyConsistency(m, n, cons, rootFromLeafHashes(LEAF_HASHES.slice(0, m)), root)).toBe(true);
    }
  });

  test('generation rejects impossible arguments with INVALID_INPUT', async () => {
    await expect(inclusionProof(5, 5, store)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(inclusionProof(0, 0, store)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(consistencyProof(6, 5, store)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(consistencyProof(0, 5, store)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });

  test('verifiers return false (not throw) for sizes that cannot match, and throw only for non-integers', () => {
    const h = LEAF_HASHES[0] as Uint8Array;
    expect(verifyInclusion(h, 3, 3, [], h)).toBe(false);
    expect(verifyConsistency(4, 3, [], h, h)).toBe(false);
    expect(verifyConsistency(0, 0, [], EMPTY_ROOT, EMPTY_ROOT)).toBe(false);
    expect(() => verifyInclusion(h, -1, 3, [], h)).toThrow(AppError);
    expect(() => verifyConsistency(1, 2 ** 64, [], h, h)).toThrow(AppError);
  });
});

// ------------------------------------------------------------------------------------------------

describe('a corrupted stored node breaks exactly the proofs that read it', () => {
  const N = 40;
  const leaves = LEAF_HASHES.slice(0, N);
  const goodRoot = rootFromLeafHashes(leaves);

  async function corrupted(key: string): Promise<MemoryStore> {
    const store = await buildTree(leaves);
    const h = (store.nodes.get(key) as Uint8Array).slice();
    h[0] = (h[0] as number) ^ 0x01;
    store.nodes.set(key, h);
    store.resetCounters();
    return store;
  }

  test.each(['1/5', '0/33', '5/0', '3/4'])('node %s', async (key) => {
    const store = await corrupted(key);
    let failed = 0;
    for (let index = 0; index < N; index++) {
      store.resetCounters();
      const proof = await inclusionProof(index, N, store);
      const readsBadNode = store.touched.has(key);
      expect(verifyInclusion(leaves[index] as Uint8Array, index, N, proof, goodRoot)).toBe(!readsBadNode);
      if (readsBadNode) failed++;
    }
    for (let m = 1; m < N; m++) {
      store.resetCounters();
      const proof = await consistencyProof(m, N, store);
      const readsBadNode = store.touched.has(key);
      expect(verifyConsistency(m, N, proof, rootFromLeafHashes(leaves.slice(0, m)), goodRoot)).toBe(!readsBadNode);
    }
    store.resetCounters();
    const root = await rootAt(N, store);
    expect(hex(root) === hex(goodRoot)).toBe(!store.touched.has(key));
    expect(failed).toBeGreaterThan(0);
  });
});

// ------------------------------------------------------------------------------------------------

/**
 * A consistent "virtual" tree of any size in which every leaf hash is the same, so the stored
 * perfect node at level L is z_L = H(z_{L-1}, z_{L-1}) without materialising 2^L leaves.
 * Used to count reads and exercise index arithmetic up to 2^53 - 1 leaves.
 */
class UniformTree implements NodeReader {
  calls = 0;
  reads = 0;
  private readonly levels: Uint8Array[] = [leafHash(new Uint8Array([7]))];

  constructor(private readonly size: number) {}

  level(l: number): Uint8Array {
    while (this.levels.length <= l) {
      const below = this.levels[this.levels.length - 1] as Uint8Array;
      this.levels.push(nodeHash(below, below));
    }
    return this.levels[l] as Uint8Array;
  }

  async getNodes(ids: ReadonlyArray<NodeId>): Promise<Uint8Array[]> {
    this.calls++;
    this.reads += ids.length;
    return ids.map(({ level, index }) => {
      if ((index + 1) * 2 ** level > this.size) throw new Error(`node ${level}/${index} is not perfect`);
      return this.level(level);
    });
  }
}

describe('operations touch O(log n) stored nodes in one batched read', () => {
  const bound = (n: number): number => 2 * ceilLog2(n) + 2;

  test('appendLeaf / rootAt / proofs on real trees up to 70 leaves and at 1000', async () => {
    const store = new MemoryStore();
    for (let size = 0; size <= 1000; size++) {
      store.resetCounters();
      store.put(await appendLeaf(size, LEAF_HASHES[size] as Uint8Array, store));
      expect(store.calls).toBeLessThanOrEqual(1);
      expect(store.reads).toBeLessThanOrEqual(ceilLog2(size + 1));
      const n = size + 1;
      if (n > 70 && n !== 1000) continue;
      store.resetCounters();
      await rootAt(n, store);
      expect(store.reads).toBe(popcount(n));
      for (let i = 0; i < n; i++) {
        store.resetCounters();
        await inclusionProof(i, n, store);
        expect(store.calls).toBe(n === 1 ? 0 : 1);
        expect(store.reads).toBeLessThanOrEqual(bound(n));
        if (i === 0) continue;
        store.resetCounters();
        await consistencyProof(i, n, store);
        expect(store.calls).toBeLessThanOrEqual(1);
        expect(store.reads).toBeLessThanOrEqual(bound(n));
      }
    }
  });

  test.each([2 ** 20 + 7, 2 ** 40 + 12345, 2 ** 52 + 1, Number.MAX_SAFE_INTEGER])(
    'virtual tree of %d leaves: bounded reads and proofs that verify',
    async (n) => {
      const tree = new UniformTree(n);
      const root = await rootAt(n, tree);
      expect(tree.reads).toBe(popcount(n));
      const leaf = tree.level(0);
      for (const index of [0, 1, Math.floor(n / 3), n - 2, n - 1]) {
        tree.reads = 0;
        const proof = await inclusionProof(index, n, tree);
        expect(tree.reads).toBeLessThanOrEqual(bound(n));
        expect(proof.length).toBeLessThanOrEqual(ceilLog2(n));
        expect(verifyInclusion(leaf, index, n, proof, root)).toBe(true);
        const tampered = proof.map((p) => p.slice());
        const first = tampered[0] as Uint8Array;
        first[31] = (first[31] as number) ^ 0x80;
        expect(verifyInclusion(leaf, index, n, tampered, root)).toBe(false);
      }
      for (const m of [1, 2, 3, Math.floor(n / 2), n - 1]) {
        tree.reads = 0;
        const proof = await consistencyProof(m, n, tree);
        expect(tree.reads).toBeLessThanOrEqual(bound(n));
        expect(verifyConsistency(m, n, proof, await rootAt(m, tree), root)).toBe(true);
      }
      const before = new UniformTree(n - 1);
      const created = await appendLeaf(n - 1, leaf, before);
      expect(before.reads).toBe(created.length - 1);
      expect(created.length).toBeLessThanOrEqual(ceilLog2(n) + 1);
      created.forEach((node, level) => {
        expect(node.level).toBe(level);
        expect(hex(node.hash)).toBe(hex(tree.level(level)));
      });
    },
  );
});
