import { GroupSequencer, type LaneBatch } from '../../src/ledger/group-sequencer';
import type { Settled } from '../../src/ledger/sequencer';

/**
 * The tick rules of the cross-issuer group committer, on an in-memory commit that records its
 * ticks (the database behaviour: test/integration/sequencer.test.ts and group-commit.test.ts).
 * Windows are set far beyond the test timeout where something else must end the wait.
 */
const HOUR = 3_600_000;

function recorder(fail: (item: number) => boolean = () => false) {
  const ticks: { key: string; items: number[] }[][] = [];
  let release: (() => void) | null = null;
  let gate: Promise<void> | null = null;
  const commit = async (lanes: readonly LaneBatch<number>[]): Promise<Settled<number>[][]> => {
    ticks.push(lanes.map((l) => ({ key: l.key, items: [...l.items] })));
    if (gate) await gate;
    const bad = lanes.flatMap((l) => l.items).find(fail);
    if (bad !== undefined) throw new Error(`tick with ${bad} failed`);
    return lanes.map((l) => l.items.map((i) => (i < 0 ? { error: new Error(`bad ${i}`) } : { value: i * 10 })));
  };
  return {
    ticks,
    commit,
    hold() {
      gate = new Promise((r) => (release = r));
    },
    open() {
      gate = null;
      release?.();
    },
  };
}

const sortByKey = (tick: { key: string; items: number[] }[]) => [...tick].sort((a, b) => a.key.localeCompare(b.key));

test('every key with work commits in the same tick; each caller gets its own result', async () => {
  const r = recorder();
  const s = new GroupSequencer(r.commit, { windowMs: HOUR, max: 6 });
  const out = Promise.all([s.submit('a', 1), s.submit('b', 2), s.submit('c', 3), s.submit('a', 4), s.submit('b', 5), s.submit('c', 6)]);
  await expect(out).resolves.toEqual([10, 20, 30, 40, 50, 60]);
  expect(r.ticks).toHaveLength(1);
  expect(sortByKey(r.ticks[0]!)).toEqual([
    { key: 'a', items: [1, 4] },
    { key: 'b', items: [2, 5] },
    { key: 'c', items: [3, 6] },
  ]);
  expect(s.stats()).toMatchObject({ requests: 6, batches: 1, splits: 0 });
});

test("a key's flood does not starve another key: the quiet key joins the next tick, whose places are shared round-robin", async () => {
  const r = recorder();
  // A tick is never considered stuck here: the quiet key waits for the flood's tick to end.
  const s = new GroupSequencer(r.commit, { windowMs: 0, max: 4 }, HOUR);
  r.hold();
  const first = s.submit('flood', 0);
  await new Promise((resolve) => setTimeout(resolve, 5));
  const flood = Array.from({ length: 20 }, (_, i) => s.submit('flood', i + 1));
  const quiet = s.submit('quiet', 99);
  await new Promise((resolve) => setTimeout(resolve, 5));
  expect(r.ticks).toHaveLength(1);
  r.open();
  await Promise.all([first, ...flood, quiet]);
  expect(sortByKey(r.ticks[1]!)).toEqual([
    { key: 'flood', items: [1, 2, 3] },
    { key: 'quiet', items: [99] },
  ]);
  expect(r.ticks.slice(2).flatMap((t) => t.flatMap((l) => l.items))).toEqual(Array.from({ length: 17 }, (_, i) => i + 4));
});

test("a stuck tick (running past stallMs) does not hold up other keys: they get a tick of their own; the stuck key's queue waits for it", async () => {
  const r = recorder();
  const s = new GroupSequencer(r.commit, { windowMs: 0, max: 4 }, 0);
  r.hold();
  const first = s.submit('flood', 0);
  await new Promise((resolve) => setTimeout(resolve, 5));
  expect(r.ticks).toHaveLength(1);
  // While the flood's first tick is held: 20 more of the flood, then one quiet request.
  const flood = Array.from({ length: 20 }, (_, i) => s.submit('flood', i + 1));
  const quiet = s.submit('quiet', 99);
  await new Promise((resolve) => setTimeout(resolve, 5));
  // The quiet key is in no running tick, so it gets a tick of its own at once; the flood's queue waits for its tick.
  expect(r.ticks).toHaveLength(2);
  expect(r.ticks[1]).toEqual([{ key: 'quiet', items: [99] }]);
  r.open();
  await Promise.all([first, ...flood, quiet]);
  // The flood is then served in order, at most max per tick.
  expect(r.ticks.slice(2).flatMap((t) => t.flatMap((l) => l.items))).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  expect(r.ticks.every((t) => t.reduce((n, l) => n + l.items.length, 0) <= 4)).toBe(true);
});

test('a tick takes its places round-robin across keys: a key with a long queue adds at most its share', async () => {
  const r = recorder();
  const s = new GroupSequencer(r.commit, { windowMs: 3_600_000, max: 6 });
  const long = Array.from({ length: 5 }, (_, i) => s.submit('long', i));
  const short = [s.submit('short', 100)];
  await Promise.all([...long, ...short]);
  expect(sortByKey(r.ticks[0]!)).toEqual([
    { key: 'long', items: [0, 1, 2, 3, 4] },
    { key: 'short', items: [100] },
  ]);
  const s2 = new GroupSequencer(r.commit, { windowMs: 3_600_000, max: 4 });
  const r2 = [...Array.from({ length: 6 }, (_, i) => s2.submit('x', i)), s2.submit('y', 7)];
  await Promise.all(r2);
  // Six of x filled the first tick of four before y arrived; y is in the next one, beside x's rest.
  expect(sortByKey(r.ticks.at(-1)!)).toEqual([
    { key: 'x', items: [4, 5] },
    { key: 'y', items: [7] },
  ]);
});

test('a failing tick is retried lane by lane, then member by member: only the guilty request fails', async () => {
  const r = recorder((i) => i === 7);
  const s = new GroupSequencer(r.commit, { windowMs: HOUR, max: 5 });
  const out = await Promise.allSettled([s.submit('a', 5), s.submit('b', 7), s.submit('a', -1), s.submit('b', 8), s.submit('c', 9)]);
  expect(out.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled', 'fulfilled']);
  expect((out[1] as PromiseRejectedResult).reason.message).toBe('tick with 7 failed');
  expect((out[2] as PromiseRejectedResult).reason.message).toBe('bad -1');
  // The whole tick, then a and c alone (they commit), b alone (fails), then b's members one by one.
  expect(r.ticks.map((t) => sortByKey(t).map((l) => `${l.key}:${l.items.join(',')}`).join(' '))).toEqual(['a:5,-1 b:7,8 c:9', 'a:5,-1', 'b:7,8', 'b:7', 'b:8', 'c:9']);
  expect(s.stats()).toMatchObject({ requests: 5, splits: 1 });
});

test("a key's queue is bounded (503 + Retry-After beyond it); other keys still queue", async () => {
  const r = recorder();
  const s = new GroupSequencer(r.commit, { windowMs: HOUR, max: 100, maxQueued: 2 });
  const queued = [s.submit('a', 1), s.submit('a', 2)];
  await expect(s.submit('a', 3)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE', retryAfterSeconds: 1 });
  const other = s.submit('b', 4);
  await s.drain();
  await expect(Promise.all([...queued, other])).resolves.toEqual([10, 20, 40]);
});

test('drain commits what is queued without waiting out the window, waits for the running tick, then refuses new requests', async () => {
  const r = recorder();
  const s = new GroupSequencer(r.commit, { windowMs: HOUR, max: 100 });
  const queued = [s.submit('a', 1), s.submit('b', 2)];
  await s.drain();
  await expect(Promise.all(queued)).resolves.toEqual([10, 20]);
  await expect(s.submit('a', 4)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  expect(r.ticks).toHaveLength(1);
});
