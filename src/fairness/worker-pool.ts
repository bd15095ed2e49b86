import { Worker } from 'node:worker_threads';
import { AppError } from '../errors';
import { FairGate } from './fair-gate';
import { currentTenant } from './tenant-context';

/**
 * What every pool worker posts: `ready` once loaded, `init-error` when it cannot load, then one
 * `result` or `error` per job id. The payloads differ per worker; the pool reads them through
 * `WorkerPoolOptions.result` and `.failure`.
 */
export type PoolWorkerMessage = { readonly type: 'ready' } | { readonly type: 'init-error'; readonly message: string } | { readonly type: 'result' | 'error'; readonly id: number };

/**
 * How jobs wait for a worker:
 * - `caller`: the caller admits at most `size` jobs at once (ZkEngine's fair scheduler), so the
 *   pool keeps only the jobs whose worker is still starting;
 * - `queue`: one FIFO queue of at most `limit` jobs; one more is refused with 503;
 * - `fair`: a FairGate per request tenant (`currentTenant()`): at most `size` jobs admitted, at
 *   most size-1 of one tenant's when there are two workers or more, waiting tenants served
 *   round-robin, at most `perTenantQueue` waiting per tenant (one more: 503 + Retry-After).
 */
export type Admission =
  | { readonly kind: 'caller' }
  | { readonly kind: 'queue'; readonly limit: number; readonly busyMessage: string }
  | { readonly kind: 'fair'; readonly perTenantQueue: number; readonly retryAfterSeconds: number; readonly busyMessage: string };

export interface WorkerPoolOptions<Job, Result, Message extends PoolWorkerMessage> {
  /** Names the work in the pool's own errors: "<what> workers are closed", "a <what> worker stopped". */
  readonly what: string;
  /** Worker threads, each started on first need and replaced on demand after a crash or a deadline. */
  readonly size: number;
  /** The worker's JavaScript, started with `eval: true` so the same source runs from dist/ and under jest. */
  readonly source: string;
  readonly workerData: unknown;
  readonly admission: Admission;
  /** A job's deadline unless `run` names one: ms from when a worker takes the job. */
  readonly deadlineMs: number;
  /** What a job still running at its deadline rejects with; its worker is terminated. */
  readonly overDeadline: (deadlineMs: number) => Error;
  /** The message posted to a worker for a job. */
  readonly message: (id: number, job: Job) => unknown;
  readonly result: (message: Extract<Message, { type: 'result' }>) => Result;
  /** What a job rejects with when its worker answered `error` (the input or the computation failed). */
  readonly failure: (message: Extract<Message, { type: 'error' }>) => Error;
  /** What a job rejects with when its input cannot be structured-cloned (a function, a symbol): the caller's input, not a crash. */
  readonly notPlainData: () => Error;
}

/** Counters for operators and tests. */
export interface WorkerPoolStats {
  /** Jobs answered with a result. */
  completed: number;
  /** Jobs answered with an error by their worker. */
  failed: number;
  /** Workers terminated at a job's deadline. */
  killed: number;
  workersStarted: number;
}

interface Pending<Job, Result> {
  readonly job: Job;
  readonly deadlineMs: number;
  resolve(value: Result): void;
  reject(error: unknown): void;
}

interface Slot<Job, Result> {
  readonly worker: Worker;
  ready: boolean;
  current?: { readonly id: number; readonly pending: Pending<Job, Result>; readonly timer: NodeJS.Timeout };
}

/**
 * CPU-heavy work off the event loop (JSON-LD canonicalisation, BBS proofs, zero-knowledge range
 * proofs): one job per worker at a time, bounded admission, a deadline per job. The deadline is
 * enforced from the main thread: a worker still busy when it expires is terminated (the only way to
 * stop synchronous JavaScript or WASM mid-computation) and replaced when the next job needs it, so
 * one hostile input costs at most one deadline of one core and other jobs and tenants go on.
 * Workers start lazily (a deployment that never needs them never loads them) and hold the process
 * open only while they start or compute.
 */
export class WorkerPool<Job, Result, Message extends PoolWorkerMessage> {
  private readonly slots: (Slot<Job, Result> | undefined)[];
  private readonly waiting: Pending<Job, Result>[] = [];
  private readonly gate: FairGate | undefined;
  private nextId = 1;
  private closed = false;
  readonly stats: WorkerPoolStats = { completed: 0, failed: 0, killed: 0, workersStarted: 0 };

  constructor(private readonly options: WorkerPoolOptions<Job, Result, Message>) {
    if (!Number.isInteger(options.size) || options.size < 1) throw new RangeError(`a ${options.what} pool needs at least one worker`);
    this.slots = new Array<Slot<Job, Result> | undefined>(options.size).fill(undefined);
    const a = options.admission;
    this.gate =
      a.kind === 'fair'
        ? new FairGate({ limit: options.size, perOwnerLimit: Math.max(1, options.size - 1), maxQueuedPerOwner: a.perTenantQueue, retryAfterSeconds: a.retryAfterSeconds, busyMessage: a.busyMessage })
        : undefined;
  }

  /** Runs one job; `deadlineMs` overrides the pool's deadline for it. */
  run(job: Job, deadlineMs: number = this.options.deadlineMs): Promise<Result> {
    if (this.closed) return Promise.reject(this.unavailable(`${this.options.what} workers are closed`));
    const a = this.options.admission;
    if (this.gate) return this.gate.run(currentTenant(), () => this.enqueue(job, deadlineMs));
    if (a.kind === 'queue' && this.waiting.length >= a.limit) return Promise.reject(this.unavailable(a.busyMessage));
    return this.enqueue(job, deadlineMs);
  }

  /** Refuses the waiting jobs and the running ones, and stops every worker. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const error = this.unavailable(`${this.options.what} workers are closed`);
    for (const p of this.waiting.splice(0)) p.reject(error);
    const workers: Worker[] = [];
    this.slots.forEach((slot, i) => {
      if (!slot) return;
      this.slots[i] = undefined;
      if (slot.current) {
        clearTimeout(slot.current.timer);
        slot.current.pending.reject(error);
      }
      workers.push(slot.worker);
    });
    await Promise.all(workers.map((w) => w.terminate()));
  }

  private unavailable(message: string): AppError {
    return new AppError('SERVICE_UNAVAILABLE', message);
  }

  private enqueue(job: Job, deadlineMs: number): Promise<Result> {
    // The gate may admit a job after close(): it must not start a worker then.
    if (this.closed) return Promise.reject(this.unavailable(`${this.options.what} workers are closed`));
    return new Promise<Result>((resolve, reject) => {
      this.waiting.push({ job, deadlineMs, resolve, reject });
      this.dispatch();
    });
  }

  private start(index: number): Slot<Job, Result> {
    const worker = new Worker(this.options.source, { eval: true, workerData: this.options.workerData });
    const slot: Slot<Job, Result> = { worker, ready: false };
    this.slots[index] = slot;
    this.stats.workersStarted += 1;
    worker.on('message', (msg: Message) => this.onMessage(index, slot, msg));
    const onDeath = (): void => this.retire(index, slot, this.unavailable(`a ${this.options.what} worker stopped`));
    worker.on('error', onDeath);
    worker.on('exit', onDeath);
    return slot;
  }

  private onMessage(index: number, slot: Slot<Job, Result>, msg: Message): void {
    if (this.slots[index] !== slot) return;
    if (msg.type === 'ready') {
      slot.ready = true;
    } else if (msg.type === 'init-error') {
      const error = this.unavailable(`${this.options.what} workers cannot start`);
      this.retire(index, slot, error);
      void slot.worker.terminate();
      // Nothing would ever take the waiting jobs if no worker can start.
      for (const p of this.waiting.splice(0)) p.reject(error);
      return;
    } else {
      const current = slot.current;
      if (!current || current.id !== msg.id) return;
      clearTimeout(current.timer);
      slot.current = undefined;
      if (msg.type === 'result') {
        this.stats.completed += 1;
        current.pending.resolve(this.options.result(msg as Extract<Message, { type: 'result' }>));
      } else {
        this.stats.failed += 1;
        current.pending.reject(this.options.failure(msg as Extract<Message, { type: 'error' }>));
      }
    }
    this.dispatch();
  }

  /** Forgets a slot (crash, exit, deadline): its job in flight fails with `error`. */
  private retire(index: number, slot: Slot<Job, Result>, error: unknown): void {
    if (this.slots[index] !== slot) return;
    this.slots[index] = undefined;
    if (slot.current) {
      clearTimeout(slot.current.timer);
      slot.current.pending.reject(error);
      slot.current = undefined;
    }
    if (!this.closed) this.dispatch();
  }

  private onDeadline(index: number, slot: Slot<Job, Result>, deadlineMs: number): void {
    this.stats.killed += 1;
    this.retire(index, slot, this.options.overDeadline(deadlineMs));
    void slot.worker.terminate();
  }

  private dispatch(): void {
    if (this.closed) return;
    for (let i = 0; i < this.slots.length && this.waiting.length > 0; i++) {
      const slot = this.slots[i] ?? this.start(i);
      if (!slot.ready || slot.current) continue;
      const pending = this.waiting.shift() as Pending<Job, Result>;
      const id = this.nextId++;
      const timer = setTimeout(() => this.onDeadline(i, slot, pending.deadlineMs), pending.deadlineMs);
      slot.current = { id, pending, timer };
      try {
        slot.worker.postMessage(this.options.message(id, pending.job));
      } catch {
        clearTimeout(timer);
        slot.current = undefined;
        pending.reject(this.options.notPlainData());
        i -= 1; // the slot is free again: offer it the next job
      }
    }
    // A worker holds the process open only while it starts or computes; idle ones are unref'd.
    for (const slot of this.slots) {
      if (!slot) continue;
      if (slot.current || !slot.ready) slot.worker.ref();
      else slot.worker.unref();
    }
  }
}
