import { type Settled, Sequencer } from '../../src/ledger/sequencer';

/**
 * The batching rules of the sequencer, on an in-memory commit that records its batches (the
 * database behaviour is covered by test/integration/sequencer.test.ts). Windows are set far
 * beyond the test timeout where a test relies on something else ending the wait.
 */
const HOUR = 3_600_000;

function recorder(fail: (item: number) => boolean = () => false) {
  const batches: { key: string; items: number[] }[] = [];
  let release: (() => void) | null = null;
  let gate: Promise<void> | null = null;
  const commit = async (key: string, items: readonly number[]): Promise<Settled<number>[]> => {
    batches.push({ key, items: [...items] });
    if (gate) await gate;
    if (items.some(fail)) throw new Error(`batch with ${items.find(fail)} failed`);
    return items.map((i) => (i < 0 ? { error: new Error(`bad ${i}`) } : { value: i * 10 }));
  };
  return {
    batches,
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

test('a full queue commits at once, without waiting out the window; results go to their own callers', async () => {
  const r = recorder();
  const s = new Sequencer(r.commit, { windowMs: HOUR, max: 3 });
  await expect(Promise.all([1, 2, 3].map((i) => s.submit('a', i)))).resolves.toEqual([10, 20, 30]);
  expect(r.batches).toEqual([{ key: 'a', items: [1, 2, 3] }]);
  expect(s.stats()).toMatchObject({ requests: 3, batches: 1, splits: 0 });
});

test('requests arriving while a batch commits form the next batch; keys are batched apart', async () => {
  const r = recorder();
  const s = new Sequencer(r.commit, { windowMs: 0, max: 100 });
  r.hold();
  const first = s.submit('a', 1);
  await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setTimeout(resolve, 5));
  expect(r.batches).toHaveLength(1);
  const later = [2, 3, 4].map((i) => s.submit('a', i));
  const other = s.submit('b', 9);
  await new Promise((resolve) => setTimeout(resolve, 5));
  r.open();
  await expect(Promise.all([first, ...later, other])).resolves.toEqual([10, 20, 30, 40, 90]);
  expect(r.batches).toEqual([
    { key: 'a', items: [1] },
    { key: 'b', items: [9] },
    { key: 'a', items: [2, 3, 4] },
  ]);
});

test('a per-item error fails that caller only; a failing batch is retried one by one so only the guilty member fails', async () => {
  const r = recorder((i) => i === 7);
  const s = new Sequencer(r.commit, { windowMs: HOUR, max: 4 });
  const out = await Promise.allSettled([5, -1, 7, 8].map((i) => s.submit('a', i)));
  expect(out.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
  expect((out[1] as PromiseRejectedResult).reason.message).toBe('bad -1');
  expect((out[2] as PromiseRejectedResult).reason.message).toBe('batch with 7 failed');
  expect(r.batches.map((b) => b.items)).toEqual([[5, -1, 7, 8], [5], [-1], [7], [8]]);
  expect(s.stats()).toMatchObject({ requests: 4, batches: 5, splits: 1 });
  expect([...s.stats().sizes.entries()]).toEqual([
    [4, 1],
    [1, 4],
  ]);
});

test('drain commits what is queued without waiting out the window, waits for running batches, then refuses new requests', async () => {
  const r = recorder();
  const s = new Sequencer(r.commit, { windowMs: HOUR, max: 100 });
  const queued = [1, 2].map((i) => s.submit('a', i));
  const elsewhere = s.submit('b', 3);
  await s.drain();
  await expect(Promise.all([...queued, elsewhere])).resolves.toEqual([10, 20, 30]);
  await expect(s.submit('a', 4)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  expect(r.batches).toHaveLength(2);
});
