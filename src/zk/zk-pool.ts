import { Worker } from 'node:worker_threads';
import { AppError, RetryLaterError } from '../errors';
import { ZK_WORKER_SOURCE, type ZkFailureCode, type ZkJobMessage, type ZkOp, type ZkWorkerData, type ZkWorkerMessage } from './zk-worker';

/** What a job rejects with when the core refused or failed (not a deadline or a crash). */
export class ZkJobFailure extends Error {
  constructor(readonly code: ZkFailureCode) {
    super(`zero-knowledge operation failed: ${code}`);
    this.name = 'ZkJobFailure';
  }
}

interface Job {
  op: ZkOp;
  input: unknown;
  deadlineMs: number;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  current?: { id: number; job: Job; timer: NodeJS.Timeout | undefined };
}

export interface ZkPoolOptions {
  readonly size: number;
  readonly workerData: ZkWorkerData;
  /** Seconds a client is told to wait after a deadline or a full pool. */
  readonly retryAfterSeconds: number;
}

const unavailable = (message: string): AppError => new AppError('SERVICE_UNAVAILABLE', message);

/**
 * Worker threads for proving and verifying. The caller (ZkEngine's fair scheduler) never gives it
 * more jobs than it has workers, so it keeps no queue of its own beyond workers still starting.
 * The deadline runs from when a worker takes the job: a job still running then is stopped with its
 * worker (terminate is the only way to stop WASM mid-computation) and answers 503 + Retry-After;
 * the slot is refilled on demand, so the other jobs and tenants go on.
 */
export class ZkWorkerPool {
  private readonly slots: (Slot | undefined)[];
  private readonly waiting: Job[] = [];
  private nextId = 1;
  private closed = false;
  readonly stats = { completed: 0, killed: 0, workersStarted: 0 };

  constructor(private readonly options: ZkPoolOptions) {
    this.slots = new Array<Slot | undefined>(options.size).fill(undefined);
  }

  run(op: ZkOp, input: unknown, deadlineMs: number): Promise<unknown> {
    if (this.closed) return Promise.reject(unavailable('zero-knowledge workers are closed'));
    return new Promise((resolve, reject) => {
      this.waiting.push({ op, input, deadlineMs, resolve, reject });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const error = unavailable('zero-knowledge workers are closed');
    for (const j of this.waiting.splice(0)) j.reject(error);
    const workers: Worker[] = [];
    this.slots.forEach((slot, i) => {
      if (!slot) return;
      this.slots[i] = undefined;
      if (slot.current) {
        clearTimeout(slot.current.timer);
        slot.current.job.reject(error);
      }
      workers.push(slot.worker);
    });
    await Promise.all(workers.map((w) => w.terminate()));
  }

  private start(index: number): Slot {
    const worker = new Worker(ZK_WORKER_SOURCE, { eval: true, workerData: this.options.workerData });
    const slot: Slot = { worker, ready: false };
    this.slots[index] = slot;
    this.stats.workersStarted += 1;
    worker.on('message', (msg: ZkWorkerMessage) => this.onMessage(index, slot, msg));
    const onDeath = (): void => this.retire(index, slot, unavailable('a zero-knowledge worker stopped'));
    worker.on('error', onDeath);
    worker.on('exit', onDeath);
    return slot;
  }

  private onMessage(index: number, slot: Slot, msg: ZkWorkerMessage): void {
    if (this.slots[index] !== slot) return;
    if (msg.type === 'ready') slot.ready = true;
    else if (msg.type === 'init-error') {
      this.retire(index, slot, unavailable('zero-knowledge workers cannot start'));
      void slot.worker.terminate();
      const error = unavailable('zero-knowledge workers cannot start');
      for (const j of this.waiting.splice(0)) j.reject(error);
      return;
    } else {
      const current = slot.current;
      if (!current || current.id !== msg.id) return;
      clearTimeout(current.timer);
      slot.current = undefined;
      this.stats.completed += 1;
      if (msg.type === 'result') current.job.resolve(msg.value);
      else current.job.reject(new ZkJobFailure(msg.code));
    }
    this.dispatch();
  }

  private retire(index: number, slot: Slot, error: unknown): void {
    if (this.slots[index] !== slot) return;
    this.slots[index] = undefined;
    if (slot.current) {
      clearTimeout(slot.current.timer);
      slot.current.job.reject(error);
      slot.current = undefined;
    }
    if (!this.closed) this.dispatch();
  }

  private onDeadline(index: number, slot: Slot, deadlineMs: number): void {
    this.stats.killed += 1;
    this.retire(index, slot, new RetryLaterError('SERVICE_UNAVAILABLE', `the zero-knowledge operation exceeded its deadline of ${deadlineMs} ms and was stopped; retry later`, this.options.retryAfterSeconds));
    void slot.worker.terminate();
  }

  private dispatch(): void {
    if (this.closed) return;
    for (let i = 0; i < this.slots.length && this.waiting.length > 0; i++) {
      const slot = this.slots[i] ?? this.start(i);
      if (!slot.ready || slot.current) continue;
      const job = this.waiting.shift() as Job;
      const id = this.nextId++;
      const timer = setTimeout(() => this.onDeadline(i, slot, job.deadlineMs), job.deadlineMs);
      slot.current = { id, job, timer };
      const message: ZkJobMessage = { id, op: job.op, input: job.input };
      slot.worker.postMessage(message);
    }
    for (const slot of this.slots) {
      if (!slot) continue;
      if (slot.current || !slot.ready) slot.worker.ref();
      else slot.worker.unref();
    }
  }
}
