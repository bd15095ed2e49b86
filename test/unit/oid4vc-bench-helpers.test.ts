/**
 * The pure helpers of the wallet benchmark (bench/flow-stats.js): the bounded pool of concurrent
 * flows and the per-step / whole-flow summary. A fake clock drives the bounds, so nothing here
 * depends on how fast the machine is.
 */
interface FlowRun {
  completed: { steps: { step: string; ms: number }[]; ms: number }[];
  failures: string[];
  elapsedMs: number;
}
interface FlowStats {
  runFlows(options: {
    concurrency: number;
    maxFlows: number;
    maxMs: number;
    flow: (wallet: number, record: (step: string, ms: number) => void) => Promise<void>;
    now?: () => number;
  }): Promise<FlowRun>;
  summarizeFlows(run: FlowRun): {
    steps: { step: string; count: number; p50: number; p99: number }[];
    flow: { count: number; p50: number; p99: number };
    flowsPerSecond: number;
    completed: number;
    failures: number;
    firstFailure: string | null;
  };
}
// A plain CommonJS benchmark module (run by node without a build step), typed here.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const flows = require('../../bench/flow-stats.js') as FlowStats;

/** A clock that moves only when a flow says so. */
function fakeClock(): { now: () => number; advance: (ms: number) => void } {
  let t = 0;
  return { now: () => t, advance: (ms) => void (t += ms) };
}

describe('wallet bench: bounded concurrent flows', () => {
  test('stops at maxFlows, spreads flows over the wallets, and records each step', async () => {
    const clock = fakeClock();
    const seen: number[] = [];
    const run = await flows.runFlows({
      concurrency: 4,
      maxFlows: 10,
      maxMs: 1_000_000,
      now: clock.now,
      flow: async (w, record) => {
        seen.push(w);
        await Promise.resolve();
        record('a', 2);
        record('b', 3);
        clock.advance(1);
      },
    });
    expect(run.completed).toHaveLength(10);
    expect(run.failures).toEqual([]);
    expect(new Set(seen)).toEqual(new Set([0, 1, 2, 3]));
    expect(run.completed.every((f) => f.steps.map((s) => s.step).join() === 'a,b')).toBe(true);
  });

  test('stops when maxMs has passed even though maxFlows is far away', async () => {
    const clock = fakeClock();
    const run = await flows.runFlows({
      concurrency: 2,
      maxFlows: 1_000_000,
      maxMs: 100,
      now: clock.now,
      flow: async () => {
        await Promise.resolve();
        clock.advance(30);
      },
    });
    // Both wallets start at 0 (the clock reads 60 after them) and again at 60 (120 after): none starts past 100.
    expect(run.completed).toHaveLength(4);
    expect(run.elapsedMs).toBe(120);
  });

  test('a failing flow is counted, its steps are not', async () => {
    let i = 0;
    const run = await flows.runFlows({
      concurrency: 1,
      maxFlows: 4,
      maxMs: 1_000_000,
      now: fakeClock().now,
      flow: async (_w, record) => {
        record('fast-refusal', 0.1);
        if (i++ % 2 === 1) throw new Error(`refused ${i}`);
      },
    });
    const s = flows.summarizeFlows(run);
    expect(s.completed).toBe(2);
    expect(s.failures).toBe(2);
    expect(s.firstFailure).toBe('refused 2');
    expect(s.steps).toEqual([{ step: 'fast-refusal', count: 2, p50: 0.1, p99: 0.1 }]);
  });

  test('bad bounds are refused rather than looping forever or not at all', async () => {
    const flow = async (): Promise<void> => undefined;
    await expect(flows.runFlows({ concurrency: 0, maxFlows: 1, maxMs: 1, flow })).rejects.toThrow(/positive/);
    await expect(flows.runFlows({ concurrency: 1, maxFlows: 0, maxMs: 1, flow })).rejects.toThrow(/positive/);
    await expect(flows.runFlows({ concurrency: 1, maxFlows: 1, maxMs: 0, flow })).rejects.toThrow(/positive/);
  });
});

describe('wallet bench: summary', () => {
  test('per-step p50/p99 in first-seen order, whole-flow latency and flows per second', () => {
    const completed = Array.from({ length: 100 }, (_, i) => ({
      steps: [
        { step: 'offer', ms: i + 1 },
        { step: 'token', ms: 2 * (i + 1) },
      ],
      ms: 3 * (i + 1),
    }));
    const s = flows.summarizeFlows({ completed, failures: [], elapsedMs: 4000 });
    expect(s.steps).toEqual([
      { step: 'offer', count: 100, p50: 50, p99: 99 },
      { step: 'token', count: 100, p50: 100, p99: 198 },
    ]);
    expect(s.flow).toEqual({ count: 100, p50: 150, p99: 297 });
    expect(s.flowsPerSecond).toBe(25);
    expect(s.failures).toBe(0);
    expect(s.firstFailure).toBeNull();
  });

  test('nothing completed: no throughput, NaN percentiles', () => {
    const s = flows.summarizeFlows({ completed: [], failures: ['x'], elapsedMs: 0 });
    expect(s.flowsPerSecond).toBeNaN();
    expect(s.flow.p50).toBeNaN();
    expect(s.steps).toEqual([]);
  });
});
