import { WorkerPool, type Admission } from '../../src/fairness/worker-pool';
import { runAsTenant } from '../../src/fairness/tenant-context';
import { AppError } from '../../src/errors';

/**
 * The one worker pool the canonicalisation, BBS and zero-knowledge pools are built on
 * (src/fairness/worker-pool.ts), with a tiny worker: lazy start, results and worker errors, the
 * deadline (the worker is killed and replaced), bounded and fair admission, input that cannot be
 * cloned, a worker that cannot start, and close. Ordering and outcomes are asserted, never time.
 */
const SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
if (workerData.failInit) {
  parentPort.postMessage({ type: 'init-error', message: 'cannot load' });
} else {
  parentPort.postMessage({ type: 'ready' });
  parentPort.on('message', ({ id, job }) => {
    if (job.op === 'spin') for (;;) {}
    if (job.op === 'fail') return parentPort.postMessage({ type: 'error', id, reason: 'refused ' + job.n });
    setTimeout(() => parentPort.postMessage({ type: 'result', id, value: job.n * 2 }), job.op === 'slow' ? 30 : 0);
  });
}`;

interface Job {
  readonly op: 'double' | 'slow' | 'spin' | 'fail';
  readonly n: number;
  readonly extra?: unknown;
}
type Message = { type: 'ready' } | { type: 'init-error'; message: string } | { type: 'result'; id: number; value: number } | { type: 'error'; id: number; reason: string };

class Refused extends Error {}

function pool(admission: Admission, options: { size?: number; deadlineMs?: number; failInit?: boolean } = {}): WorkerPool<Job, number, Message> {
  return new WorkerPool<Job, number, Message>({
    what: 'test',
    size: options.size ?? 1,
    source: SOURCE,
    workerData: { failInit: options.failInit ?? false },
    admission,
    deadlineMs: options.deadlineMs ?? 60_000,
    overDeadline: (ms) => new AppError('SERVICE_UNAVAILABLE', `over ${ms} ms`),
    message: (id, job) => ({ id, job }),
    result: (msg) => msg.value,
    failure: (msg) => new Refused(msg.reason),
    notPlainData: () => new AppError('INVALID_INPUT', 'not plain data'),
  });
}

const open: WorkerPool<Job, number, Message>[] = [];
const make = (...args: Parameters<typeof pool>): WorkerPool<Job, number, Message> => {
  const p = pool(...args);
  open.push(p);
  return p;
};
afterAll(() => Promise.all(open.map((p) => p.close())));

test('starts no worker before the first job, then answers results and worker errors', async () => {
  const p = make({ kind: 'caller' });
  expect(p.stats.workersStarted).toBe(0);
  await expect(p.run({ op: 'double', n: 21 })).resolves.toBe(42);
  await expect(p.run({ op: 'fail', n: 7 })).rejects.toEqual(new Refused('refused 7'));
  expect(p.stats).toEqual({ completed: 1, failed: 1, killed: 0, workersStarted: 1 });
});

test('a job past its deadline is refused, its worker killed and replaced; the next job runs', async () => {
  const p = make({ kind: 'caller' }, { deadlineMs: 60_000 });
  await expect(p.run({ op: 'spin', n: 0 }, 50)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: 'over 50 ms' });
  expect(p.stats.killed).toBe(1);
  await expect(p.run({ op: 'double', n: 2 })).resolves.toBe(4);
  expect(p.stats.workersStarted).toBe(2);
});

test('a bounded queue refuses one job more than it holds, and runs the others', async () => {
  const p = make({ kind: 'queue', limit: 2, busyMessage: 'queue full' });
  await p.run({ op: 'double', n: 0 }); // the worker is ready: every job below waits only for it
  const first = p.run({ op: 'slow', n: 1 }); // taken by the worker
  const queued = [p.run({ op: 'double', n: 2 }), p.run({ op: 'double', n: 3 })];
  await expect(p.run({ op: 'double', n: 4 })).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: 'queue full' });
  await expect(Promise.all([first, ...queued])).resolves.toEqual([2, 4, 6]);
});

test("fair admission: one tenant's backlog does not hold another tenant back, and a full tenant queue is 503 for that tenant only", async () => {
  const p = make({ kind: 'fair', perTenantQueue: 3, retryAfterSeconds: 2, busyMessage: 'tenant queue full' }, { size: 2 });
  await Promise.all([runAsTenant('warm-1', () => p.run({ op: 'double', n: 0 })), runAsTenant('warm-2', () => p.run({ op: 'double', n: 0 }))]);
  const finished: string[] = [];
  // Tenant A: one running (at most size-1 = 1 of one tenant's) and three waiting fill its queue.
  const backlog = [0, 1, 2, 3].map((i) => runAsTenant('a', () => p.run({ op: 'slow', n: i }).then(() => finished.push(`a${i}`))));
  await expect(runAsTenant('a', () => p.run({ op: 'double', n: 9 }))).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE', retryAfterSeconds: 2 });
  await expect(runAsTenant('b', () => p.run({ op: 'double', n: 5 }).then((v) => (finished.push('b'), v)))).resolves.toBe(10);
  await Promise.all(backlog);
  expect(finished.indexOf('b')).toBeLessThan(finished.indexOf('a3'));
  expect(finished.filter((f) => f.startsWith('a'))).toEqual(['a0', 'a1', 'a2', 'a3']);
});

test('input that cannot be cloned is the caller’s mistake (INVALID_INPUT), and the worker serves the next job', async () => {
  const p = make({ kind: 'caller' });
  await expect(p.run({ op: 'double', n: 1, extra: () => 1 })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  await expect(p.run({ op: 'double', n: 5 })).resolves.toBe(10);
  expect(p.stats.workersStarted).toBe(1);
});

test('a worker that cannot start refuses the waiting jobs with 503 instead of leaving them waiting', async () => {
  const p = make({ kind: 'caller' }, { failInit: true });
  await expect(Promise.all([p.run({ op: 'double', n: 1 }), p.run({ op: 'double', n: 2 })])).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: 'test workers cannot start' });
});

test('close refuses the running and the later jobs', async () => {
  const p = make({ kind: 'caller' });
  await p.run({ op: 'double', n: 0 }); // the worker is ready, so the next job is taken at once
  const running = p.run({ op: 'spin', n: 0 }).catch((e: unknown) => e);
  await p.close();
  expect(await running).toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: 'test workers are closed' });
  await expect(p.run({ op: 'double', n: 1 })).rejects.toMatchObject({ message: 'test workers are closed' });
});

test('a pool without workers is refused at construction', () => {
  expect(() => pool({ kind: 'caller' }, { size: 0 })).toThrow(RangeError);
});
