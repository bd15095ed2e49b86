import { Worker } from 'node:worker_threads';
import { AppError, RetryLaterError } from '../../errors';
import { FairGate } from '../../fairness/fair-gate';
import { currentTenant } from '../../fairness/tenant-context';
import { BBS_WORKER_SOURCE, type BbsFailureKind, type BbsJob, type BbsWorkerData, type BbsWorkerMessage } from './worker-source';

export interface BbsPoolOptions {
  /** Worker threads, started on first use. */
  readonly size: number;
  /** A job still running this long after a worker took it is stopped (its worker killed): 503. */
  readonly deadlineMs: number;
  /** Jobs one tenant may have waiting; one more is refused with 503 instead of queueing without bound. */
  readonly queuePerTenant: number;
  /** Seconds the 503 tells the client to wait. */
  readonly retryAfterSeconds: number;
  readonly workerData: BbsWorkerData;
}

/** What a job rejects with when the worker refused its input or the proof did not verify. */
export class BbsJobFailure extends Error {
  constructor(
    readonly kind: BbsFailureKind,
    message: string,
  ) {
    super(message);
    this.name = 'BbsJobFailure';
  }
}

interface Slot {
  worker: Worker;
  ready: Promise<void>;
  /** Taken by a job from admission to its answer, set before any await so two jobs never share a worker. */
  busy: boolean;
  current?: { id: number; resolve(value: unknown): void; reject(error: unknown): void; timer: NodeJS.Timeout };
}

/** Counters for operators and tests. */
export interface BbsPoolStats {
  completed: number;
  killed: number;
  workersStarted: number;
}

/**
 * bbs-2023 work off the event loop, fairly. A FairGate admits at most `size` jobs at once (one per
 * worker), at most size-1 of them one tenant's when there are two or more workers, and serves
 * waiting tenants round-robin, so one tenant deriving in a loop cannot starve another. The
 * deadline is enforced from the main thread: a worker still busy when it expires is terminated
 * (the only way to stop synchronous JavaScript) and replaced on the next job; its caller gets 503
 * with Retry-After. Workers start lazily and are unref'd while idle.
 */
export class BbsWorkerPool {
  private readonly slots: (Slot | undefined)[];
  private readonly gate: FairGate;
  private nextId = 1;
  private closed = false;
  readonly stats: BbsPoolStats = { completed: 0, killed: 0, workersStarted: 0 };

  constructor(private readonly options: BbsPoolOptions) {
    if (options.size < 1) throw new RangeError('a BBS pool needs at least one worker');
    this.slots = new Array<Slot | undefined>(options.size).fill(undefined);
    this.gate = new FairGate({
      limit: options.size,
      perOwnerLimit: Math.max(1, options.size - 1),
      maxQueuedPerOwner: options.queuePerTenant,
      retryAfterSeconds: options.retryAfterSeconds,
      busyMessage: 'too many BBS proofs are waiting for a worker; retry later',
    });
  }

  /** Runs one job for the current request's tenant. */
  run<T>(job: BbsJob): Promise<T> {
    if (this.closed) return Promise.reject(new AppError('SERVICE_UNAVAILABLE', 'BBS workers are closed'));
    return this.gate.run(currentTenant(), () => this.execute(job) as Promise<T>);
  }

  async close(): Promise<void> {
    this.closed = true;
    const workers = this.slots.filter((s): s is Slot => s !== undefined).map((s) => s.worker);
    this.slots.fill(undefined);
    await Promise.all(workers.map((w) => w.terminate()));
  }

  private async execute(job: BbsJob): Promise<unknown> {
    // The gate admits at most `size` jobs, so one slot is free; it is taken before the first await.
    const index = this.slots.findIndex((s) => s === undefined || !s.busy);
    if (index < 0) throw new Error('the BBS gate admitted more jobs than there are workers');
    const slot = this.slots[index] ?? this.start(index);
    slot.busy = true;
    try {
      await slot.ready;
      if (this.slots[index] !== slot) throw new AppError('SERVICE_UNAVAILABLE', 'a BBS worker stopped');
      return await this.post(index, slot, job);
    } finally {
      slot.busy = false;
    }
  }

  private post(index: number, slot: Slot, job: BbsJob): Promise<unknown> {
    return new Promise<unknown>((resolve, reject) => {
      const id = this.nextId++;
      const timer = setTimeout(() => {
        this.stats.killed += 1;
        this.retire(index, slot, new RetryLaterError('SERVICE_UNAVAILABLE', `the BBS operation exceeded its deadline of ${this.options.deadlineMs} ms and was stopped`, this.options.retryAfterSeconds));
        void slot.worker.terminate();
      }, this.options.deadlineMs);
      slot.current = { id, resolve, reject, timer };
      slot.worker.ref();
      try {
        slot.worker.postMessage({ id, job });
      } catch {
        // Not structured-cloneable (a function, a symbol): the caller's input, not a crash.
        clearTimeout(timer);
        slot.current = undefined;
        reject(new AppError('INVALID_INPUT', 'the credential is not plain JSON'));
      }
    });
  }

  private start(index: number): Slot {
    const worker = new Worker(BBS_WORKER_SOURCE, { eval: true, workerData: this.options.workerData });
    this.stats.workersStarted += 1;
    let ready!: () => void;
    let failed!: (e: unknown) => void;
    const slot: Slot = { worker, busy: false, ready: new Promise<void>((res, rej) => ((ready = res), (failed = rej))) };
    // A worker that dies before it is ready rejects `ready` for whoever awaits it; nobody else must see an unhandled rejection.
    slot.ready.catch(() => undefined);
    this.slots[index] = slot;
    worker.on('message', (msg: BbsWorkerMessage) => {
      if (msg.type === 'ready') {
        ready();
        worker.unref();
        return;
      }
      if (msg.type === 'init-error') {
        failed(new AppError('SERVICE_UNAVAILABLE', 'BBS workers cannot start'));
        this.retire(index, slot, new AppError('SERVICE_UNAVAILABLE', 'BBS workers cannot start'));
        void worker.terminate();
        return;
      }
      const current = slot.current;
      if (!current || current.id !== msg.id) return;
      clearTimeout(current.timer);
      slot.current = undefined;
      worker.unref();
      this.stats.completed += 1;
      if (msg.type === 'result') current.resolve(msg.value);
      else current.reject(new BbsJobFailure(msg.kind, msg.message));
    });
    const onDeath = (): void => {
      failed(new AppError('SERVICE_UNAVAILABLE', 'a BBS worker stopped'));
      this.retire(index, slot, new AppError('SERVICE_UNAVAILABLE', 'a BBS worker stopped'));
    };
    worker.on('error', onDeath);
    worker.on('exit', onDeath);
    return slot;
  }

  private retire(index: number, slot: Slot, error: unknown): void {
    if (this.slots[index] === slot) this.slots[index] = undefined;
    const current = slot.current;
    if (!current) return;
    clearTimeout(current.timer);
    slot.current = undefined;
    current.reject(error);
  }
}
