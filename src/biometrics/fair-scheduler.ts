import { RetryLaterError } from '../errors';
import { FairQueue } from '../fairness/fair-queue';

export interface FairSchedulerOptions {
  /** Tasks running at once. */
  readonly concurrency: number;
  /** Tasks admitted at once (running + waiting); the memory bound. */
  readonly capacity: number;
  /** Optional hard cap on one owner's admitted tasks. */
  readonly perOwnerCap?: number;
  readonly retryAfterSeconds: number;
}

interface Entry {
  run(): Promise<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/**
 * Admission and ordering of face jobs across tenants. Waiting jobs sit in one FIFO per tenant,
 * served round-robin, so a newcomer's job runs after at most one job of each other tenant.
 * When the engine is full, a newcomer is not refused while some tenant holds more than it would:
 * that tenant's newest waiting job is shed (503 + Retry-After) to make room ("longest queue
 * drop"). A tenant alone may therefore use the whole capacity, and loses the excess the moment
 * others need it. Only a tenant that already holds at least as much as everyone else is refused.
 */
export class FairScheduler {
  private running = 0;
  private admitted = 0;
  private readonly held = new Map<string, number>();
  private readonly waiting = new FairQueue<Entry>();

  constructor(private readonly options: FairSchedulerOptions) {
    if (options.concurrency < 1 || options.capacity < options.concurrency) throw new RangeError('scheduler needs concurrency >= 1 and capacity >= concurrency');
  }

  submit<R>(owner: string, task: () => Promise<R>): Promise<R> {
    const mine = this.heldBy(owner);
    if (this.options.perOwnerCap !== undefined && mine >= this.options.perOwnerCap) return Promise.reject(this.busy());
    if (this.admitted >= this.options.capacity && !this.shedFor(owner)) return Promise.reject(this.busy());
    this.admitted++;
    this.held.set(owner, mine + 1);
    return new Promise<R>((resolve, reject) => {
      this.waiting.push(owner, { run: task, resolve: resolve as (v: unknown) => void, reject });
      this.dispatch();
    });
  }

  /** Tasks (running or waiting) one owner holds, or all owners. */
  heldBy(owner?: string): number {
    return owner === undefined ? this.admitted : (this.held.get(owner) ?? 0);
  }

  /** Waiting tasks of one owner, or all. */
  waitingFor(owner?: string): number {
    return this.waiting.depth(owner);
  }

  /** Rejects every waiting task (engine closing). */
  drain(error: unknown): void {
    for (const e of this.waiting.drain()) e.reject(error);
    this.admitted = this.running;
    this.held.clear();
  }

  private busy(): RetryLaterError {
    return new RetryLaterError('SERVICE_UNAVAILABLE', 'face engine busy, retry later', this.options.retryAfterSeconds);
  }

  /** Frees one slot for `owner` by shedding the newest waiting task of the largest holder. */
  private shedFor(owner: string): boolean {
    const mine = this.heldBy(owner);
    let hog: string | undefined;
    for (const [o, n] of this.held) {
      if (o === owner || this.waiting.depth(o) === 0 || n <= mine + 1) continue;
      if (hog === undefined || n > this.heldBy(hog)) hog = o;
    }
    if (hog === undefined) return false;
    const shed = this.waiting.popNewest(hog)!;
    this.release(hog);
    shed.reject(this.busy());
    return true;
  }

  private release(owner: string): void {
    this.admitted--;
    const n = this.heldBy(owner) - 1;
    if (n <= 0) this.held.delete(owner);
    else this.held.set(owner, n);
  }

  private dispatch(): void {
    while (this.running < this.options.concurrency) {
      const next = this.waiting.shift();
      if (!next) return;
      this.running++;
      const { owner, item } = next;
      let settled: Promise<unknown>;
      try {
        settled = item.run();
      } catch (e) {
        settled = Promise.reject(e);
      }
      settled.then(item.resolve, item.reject).finally(() => {
        this.running--;
        this.release(owner);
        this.dispatch();
      });
    }
  }
}
