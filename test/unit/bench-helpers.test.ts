/**
 * The pure helpers of `npm run bench` (bench/stats.js, bench/prefill.js): statistics, the target
 * verdicts, and the bulk prefill's Merkle rows against the ledger's normal append path. No load.
 */
import * as merkle from '../../src/domain/merkle';

interface Stats {
  percentile(sorted: ArrayLike<number>, p: number): number;
  latencySummary(latencies: number[]): { count: number; p50: number; p99: number };
  median(values: number[]): number;
  ratio(a: number, b: number): number;
  judgeTargets(input: {
    cells: Record<string, { throughput: number; cpuMsPerOp?: number; half?: { p99: number } }>;
    veramo: Record<string, { throughput: number }>;
    veramoService?: Record<string, { throughput: number }>;
    prefill?: Record<number, number>;
    issuers?: Record<number, number>;
  }): { target: string; value: number; met: boolean | null }[];
}
interface Prefill {
  prefillEntryHash(logSeq: string, i: number): Buffer;
  prefillChunk(
    m: typeof merkle,
    size: number,
    entryHashes: Uint8Array[],
    reader: merkle.NodeReader,
  ): Promise<{ leaves: { index: number; entryHash: Uint8Array; leafHash: Uint8Array }[]; nodes: merkle.MerkleNode[] }>;
  rightEdgeReader(m: typeof merkle, fallback: merkle.NodeReader): merkle.NodeReader & { advance(size: number, created: merkle.MerkleNode[]): void };
}
// Plain CommonJS benchmark modules (run by node without a build step), typed here.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const stats = require('../../bench/stats.js') as Stats;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const prefill = require('../../bench/prefill.js') as Prefill;

describe('bench statistics', () => {
  test('nearest-rank percentiles', () => {
    const sorted = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(stats.percentile(sorted, 50)).toBe(50);
    expect(stats.percentile(sorted, 99)).toBe(99);
    expect(stats.percentile(sorted, 100)).toBe(100);
    expect(stats.percentile([7], 99)).toBe(7);
    expect(stats.percentile([], 50)).toBeNaN();
  });

  test('latency summary sorts numerically, median of even and odd counts', () => {
    expect(stats.latencySummary([10, 2, 33, 4])).toEqual({ count: 4, p50: 4, p99: 33 });
    expect(stats.median([3, 1, 2])).toBe(2);
    expect(stats.median([4, 1, 3, 2])).toBe(2.5);
    expect(stats.median([NaN, 5])).toBe(5);
    expect(stats.median([])).toBeNaN();
    expect(stats.ratio(3, 2)).toBe(1.5);
    expect(stats.ratio(3, 0)).toBeNaN();
  });

  test("targets (issue 19): met and not met, judged from the ratios against both Veramo anchors", () => {
    const verdicts = stats.judgeTargets({
      cells: {
        'fbIssue/REST': { throughput: 500, cpuMsPerOp: 1.2, half: { p99: 12 } },
        'fbIssue/GraphQL': { throughput: 300, half: { p99: 40 } },
        'fbVerify/REST': { throughput: 900, cpuMsPerOp: 1.5 },
      },
      veramo: { issue: { throughput: 1000 }, verify: { throughput: 400 } },
      veramoService: { issue: { throughput: 200 }, verify: { throughput: 500 } },
      prefill: { 1000: 100, 100000: 50, 1000000: 95 },
      issuers: { 1: 100, 10: 89, 100: 10 },
    });
    const by = (prefix: string) => verdicts.find((v) => v.target.startsWith(prefix));
    expect(by('REST issue (Family B) ≥ 0.5x Veramo in-process')).toMatchObject({ value: 0.5, met: true });
    expect(by('REST issue (Family B) ≥ 3x the Veramo service')).toMatchObject({ value: 2.5, met: false });
    expect(by('REST verify (Family B) ≥ 1.0x Veramo in-process')).toMatchObject({ value: 2.25, met: true });
    expect(by('REST verify (Family B) ≥ 2x the Veramo service')).toMatchObject({ value: 1.8, met: false });
    expect(by('CPU per issued credential')).toMatchObject({ value: 1.2, met: true });
    expect(by('CPU per verification')).toMatchObject({ value: 1.5, met: false });
    expect(by('p99 < 25 ms at half of peak: fbIssue/REST')).toMatchObject({ value: 12, met: true });
    expect(by('p99 < 25 ms at half of peak: fbIssue/GraphQL')).toMatchObject({ value: 40, met: false });
    expect(by('10 issuers at once')).toMatchObject({ value: 0.89, met: false });
    // The smallest and the largest log, whatever lies between.
    expect(by('issue throughput at 1000000 leaves within 5% of 1000')).toMatchObject({ value: 0.95, met: true });
    // No Family A figures, no Veramo service: not judged rather than passed.
    expect(by('REST issue (Family A) ≥ 0.5x')).toMatchObject({ met: null });
    expect(
      stats
        .judgeTargets({ cells: { 'fbIssue/REST': { throughput: 500 } }, veramo: { issue: { throughput: 100 } } })
        .filter((v) => v.met !== null)
        .map((v) => v.target),
    ).toEqual(['REST issue (Family B) ≥ 0.5x Veramo in-process']);
  });
});

/** An in-memory node store playing the ledger_nodes table. */
function memoryStore() {
  const nodes = new Map<string, Uint8Array>();
  const reader: merkle.NodeReader = {
    getNodes: async (ids) =>
      ids.map(({ level, index }) => {
        const h = nodes.get(`${level}/${index}`);
        if (!h) throw new Error(`missing node ${level}/${index}`);
        return h;
      }),
  };
  const put = (list: merkle.MerkleNode[]) => {
    for (const n of list) {
      expect(nodes.has(`${n.level}/${n.index}`)).toBe(false); // every node is written exactly once
      nodes.set(`${n.level}/${n.index}`, n.hash);
    }
  };
  return { nodes, reader, put };
}

describe('bench prefill', () => {
  test.each([1, 2, 37, 64, 100])('chunked prefill of %i leaves builds the tree the append path builds', async (n) => {
    const entries = Array.from({ length: n }, (_, i) => new Uint8Array(prefill.prefillEntryHash('9', i)));
    // The ledger's normal path: one appendLeaf per entry.
    const normal = memoryStore();
    for (let i = 0; i < n; i++) normal.put(await merkle.appendLeaf(i, merkle.leafHash(entries[i]!), normal.reader));
    // The bench's path: chunks of 7 over the in-memory right edge, the first chunk starting on a
    // non-empty tree (like a real issuer log) whose edge comes from the store.
    const bulk = memoryStore();
    const leafHashes: Uint8Array[] = [];
    bulk.put(await merkle.appendLeaf(0, merkle.leafHash(entries[0]!), bulk.reader));
    leafHashes.push(merkle.leafHash(entries[0]!));
    const edge = prefill.rightEdgeReader(merkle, bulk.reader);
    for (let size = 1; size < n; size += 7) {
      const chunk = await prefill.prefillChunk(merkle, size, entries.slice(size, size + 7), edge);
      edge.advance(Math.min(n, size + 7), chunk.nodes);
      chunk.leaves.forEach((l, i) => {
        expect(l.index).toBe(size + i);
        expect(l.leafHash).toEqual(merkle.leafHash(entries[size + i]!));
      });
      leafHashes.push(...chunk.leaves.map((l) => l.leafHash));
      bulk.put(chunk.nodes);
    }
    expect([...bulk.nodes.keys()].sort()).toEqual([...normal.nodes.keys()].sort());
    const root = await merkle.rootAt(n, bulk.reader);
    expect(root).toEqual(await merkle.rootAt(n, normal.reader));
    expect(root).toEqual(merkle.rootFromLeafHashes(leafHashes));
  });

  test('entry hashes differ per log and per leaf', () => {
    expect(prefill.prefillEntryHash('1', 0)).not.toEqual(prefill.prefillEntryHash('1', 1));
    expect(prefill.prefillEntryHash('1', 0)).not.toEqual(prefill.prefillEntryHash('2', 0));
    expect(prefill.prefillEntryHash('1', 5)).toHaveLength(32);
  });
});
