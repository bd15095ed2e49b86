import { FairScheduler } from '../../src/biometrics/fair-scheduler';
import { RetryLaterError } from '../../src/errors';
import { FairGate } from '../../src/fairness/fair-gate';
import { FairQueue } from '../../src/fairness/fair-queue';

/**
 * Attack (faces): one tenant's burst of face uploads fills the engine's queue and every other
 * tenant gets 503 until it drains. The scheduler in front of the workers is exercised here with a
 * fake job runner: jobs finish when the test says so, and the order they start in is recorded.
 */
class FakeRunner {
  readonly started: string[] = [];
  private readonly pending: (() => void)[] = [];
  job(label: string): () => Promise<string> {
    return () => {
      this.started.push(label);
      return new Promise<string>((resolve) => this.pending.push(() => resolve(label)));
    };
  }
  /** Finishes the oldest running job and lets the scheduler react. */
  async finishOne(): Promise<void> {
    this.pending.shift()?.();
    for (let i = 0; i < 5; i++) await Promise.resolve();
  }
  async finishAll(): Promise<void> {
    while (this.pending.length > 0) await this.finishOne();
  }
}

const settle = <T>(p: Promise<T>) => p.then((v) => ({ ok: true as const, v }), (e: unknown) => ({ ok: false as const, e }));

describe('FairScheduler (face jobs)', () => {
  test("a second tenant's job runs next, not after the first tenant's whole queue", async () => {
    const runner = new FakeRunner();
    const s = new FairScheduler({ concurrency: 1, capacity: 9, retryAfterSeconds: 2 });
    const a = Array.from({ length: 8 }, (_, i) => settle(s.submit('A', runner.job(`A${i}`))));
    const b = settle(s.submit('B', runner.job('B0')));
    await runner.finishAll();
    await Promise.all([...a, b]);
    expect(runner.started.slice(0, 3)).toEqual(['A0', 'B0', 'A1']);
  });

  test("a full engine sheds the flooding tenant's newest waiting job for a newcomer, instead of refusing the newcomer", async () => {
    const runner = new FakeRunner();
    const s = new FairScheduler({ concurrency: 1, capacity: 9, retryAfterSeconds: 2 });
    // Tenant A: 12 uploads of two photos each, as in the attack.
    const a = Array.from({ length: 24 }, (_, i) => settle(s.submit('A', runner.job(`A${i}`))));
    expect(s.heldBy('A')).toBe(9);
    const b = [settle(s.submit('B', runner.job('B0'))), settle(s.submit('B', runner.job('B1')))];
    expect(s.heldBy('B')).toBe(2);
    expect(s.heldBy()).toBe(9);
    await runner.finishAll();
    const aOut = await Promise.all(a);
    const bOut = await Promise.all(b);
    expect(bOut.every((o) => o.ok)).toBe(true);
    // A's overflow and its two shed jobs are 503 with a retry hint; the rest ran.
    const refused = aOut.filter((o) => !o.ok);
    expect(refused).toHaveLength(24 - 9 + 2);
    for (const r of refused) {
      expect(r.e).toBeInstanceOf(RetryLaterError);
      expect((r.e as RetryLaterError).status).toBe(503);
      expect((r.e as RetryLaterError).retryAfterSeconds).toBe(2);
    }
    // B ran right after A's first job, alternating with A.
    expect(runner.started.slice(0, 4)).toEqual(['A0', 'B0', 'A1', 'B1']);
  });

  test('a tenant alone may use the whole capacity; one holding as much as anyone else is refused', async () => {
    const runner = new FakeRunner();
    const s = new FairScheduler({ concurrency: 1, capacity: 4, retryAfterSeconds: 1 });
    const a = Array.from({ length: 2 }, (_, i) => settle(s.submit('A', runner.job(`A${i}`))));
    const b = Array.from({ length: 3 }, (_, i) => settle(s.submit('B', runner.job(`B${i}`))));
    // Full at 2 + 2: B's third would need A to give up its share, which A does not exceed.
    expect(s.heldBy('B')).toBe(2);
    await runner.finishAll();
    expect((await Promise.all(b)).map((o) => o.ok)).toEqual([true, true, false]);
    expect((await Promise.all(a)).every((o) => o.ok)).toBe(true);
    const alone = Array.from({ length: 4 }, (_, i) => settle(s.submit('C', runner.job(`C${i}`))));
    expect(s.heldBy('C')).toBe(4);
    await runner.finishAll();
    expect((await Promise.all(alone)).every((o) => o.ok)).toBe(true);
  });

  test('an optional per-tenant cap refuses beyond it even with room left', async () => {
    const runner = new FakeRunner();
    const s = new FairScheduler({ concurrency: 1, capacity: 10, perOwnerCap: 2, retryAfterSeconds: 1 });
    const out = Array.from({ length: 3 }, (_, i) => settle(s.submit('A', runner.job(`A${i}`))));
    await runner.finishAll();
    expect((await Promise.all(out)).map((o) => o.ok)).toEqual([true, true, false]);
  });
});

describe('FairQueue and FairGate (write admission)', () => {
  test('round-robin across owners; a newcomer is served before owners that already had their turn', () => {
    const q = new FairQueue<string>(3);
    for (const x of ['a1', 'a2', 'a3']) expect(q.push('A', x)).toBe(true);
    expect(q.push('A', 'a4')).toBe(false);
    expect(q.shift()?.item).toBe('a1');
    q.push('B', 'b1');
    q.push('C', 'c1');
    expect([q.shift()?.item, q.shift()?.item, q.shift()?.item, q.shift()?.item]).toEqual(['b1', 'c1', 'a2', 'a3']);
    expect(q.depth()).toBe(0);
  });

  test('a tenant holds at most its share; its excess waits in its own queue; a full queue is 503 + Retry-After', async () => {
    const gate = new FairGate({ limit: 3, perOwnerLimit: 2, maxQueuedPerOwner: 2, retryAfterSeconds: 1, busyMessage: 'busy' });
    const a = [gate.acquire('A'), gate.acquire('A'), gate.acquire('A'), gate.acquire('A')];
    await expect(gate.acquire('A')).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503, retryAfterSeconds: 1 });
    expect(gate.holding('A')).toBe(2);
    expect(gate.queued('A')).toBe(2);
    // B gets the slot A may not take.
    const releaseB = await gate.acquire('B');
    expect(gate.holding()).toBe(3);
    const [r1] = await Promise.all([a[0]!, a[1]!]);
    r1();
    r1(); // releasing twice frees one slot only
    await a[2];
    expect(gate.holding('A')).toBe(2);
    expect(gate.queued('A')).toBe(1);
    releaseB();
    expect(gate.holding('B')).toBe(0);
  });
});
