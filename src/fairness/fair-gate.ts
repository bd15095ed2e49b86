import { RetryLaterError } from '../errors';
import { FairQueue } from './fair-queue';

export interface FairGateOptions {
  /** Holders at once across all owners. */
  readonly limit: number;
  /** Holders at once per owner. */
  readonly perOwnerLimit: number;
  /** Waiters per owner; one more is refused with 503. */
  readonly maxQueuedPerOwner: number;
  /** What the 503 tells the client. */
  readonly retryAfterSeconds: number;
  readonly busyMessage: string;
}

export type Release = () => void;

interface Waiter {
  grant(release: Release): void;
}

/**
 * A counting semaphore with per-owner caps and a fair (round-robin) wait queue. Used to admit
 * write requests: one tenant can hold at most `perOwnerLimit` of the `limit` slots (and so of the
 * database connections behind them); its excess waits in its own queue, in memory, holding no
 * connection; a full queue answers 503 with Retry-After.
 */
export class FairGate {
  private running = 0;
  private readonly active = new Map<string, number>();
  private readonly waiting: FairQueue<Waiter>;

  constructor(private readonly options: FairGateOptions) {
    if (options.limit < 1 || options.perOwnerLimit < 1) throw new RangeError('gate limits must be at least 1');
    this.waiting = new FairQueue<Waiter>(options.maxQueuedPerOwner);
  }

  /** Resolves with a release function once the owner may proceed; throws 503 when its queue is full. */
  acquire(owner: string): Promise<Release> {
    return new Promise<Release>((resolve, reject) => {
      if (!this.waiting.push(owner, { grant: resolve })) {
        reject(new RetryLaterError('SERVICE_UNAVAILABLE', this.options.busyMessage, this.options.retryAfterSeconds));
        return;
      }
      this.dispatch();
    });
  }

  /** Runs `fn` holding one slot of `owner`. */
  async run<T>(owner: string, fn: () => Promise<T>): Promise<T> {
    const release = await this.acquire(owner);
    try {
      return await fn();
    } finally {
      release();
    }
  }

  /** Waiters of one owner (or all). */
  queued(owner?: string): number {
    return this.waiting.depth(owner);
  }

  /** Slots held by one owner (or all). */
  holding(owner?: string): number {
    return owner === undefined ? this.running : (this.active.get(owner) ?? 0);
  }

  private dispatch(): void {
    while (this.running < this.options.limit) {
      const next = this.waiting.shift((owner) => (this.active.get(owner) ?? 0) < this.options.perOwnerLimit);
      if (!next) return;
      this.running++;
      this.active.set(next.owner, (this.active.get(next.owner) ?? 0) + 1);
      next.item.grant(this.releaser(next.owner));
    }
  }

  private releaser(owner: string): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running--;
      const n = (this.active.get(owner) ?? 1) - 1;
      if (n === 0) this.active.delete(owner);
      else this.active.set(owner, n);
      this.dispatch();
    };
  }
}
