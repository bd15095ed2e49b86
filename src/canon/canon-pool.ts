import { Worker } from 'node:worker_threads';
import { AppError } from '../errors';
import { CANON_WORKER_SOURCE, type CanonFailure, type CanonJobMessage, type CanonWorkerData, type CanonWorkerMessage } from './canon-worker';

export interface CanonJob {
  document: object;
  base?: string;
  extra: [string, unknown][];
}

export interface CanonPoolOptions {
  /** Worker threads, started on first use. */
  size: number;
  /** A job running longer than this (once a worker took it) is killed with its worker. */
  deadlineMs: number;
  /** Jobs allowed to wait for a worker; one more is refused with 503 instead of queueing without bound. */
  queueLimit: number;
  workerData: CanonWorkerData;
}

/** Counters for operators and tests: how many jobs ran, and how many workers were killed over a deadline. */
export interface CanonPoolStats {
  completed: number;
  failed: number;
  killed: number;
  workersStarted: number;
}

/** What a job rejects with when jsonld itself failed; rdf-canonize.ts turns it into an AppError. */
export class CanonJobFailure extends Error {
  constructor(readonly failure: CanonFailure) {
    super(failure.message ?? 'JSON-LD processing failed');
    this.name = 'CanonJobFailure';
  }
}

interface Pending {
  job: CanonJob;
  resolve(nquads: string): void;
  reject(error: unknown): void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  current?: { id: number; pending: Pending; timer: NodeJS.Timeout };
}

export const overDeadline = (deadlineMs: number): AppError =>
  new AppError('CANONICALIZATION_BUDGET', `canonicalisation of the JSON-LD document exceeded its budget of ${deadlineMs} ms and was stopped`);
const unavailable = (message: string): AppError => new AppError('SERVICE_UNAVAILABLE', message);

/**
 * A small pool of canonicalisation workers. Each serves one job at a time; jobs wait in a bounded
 * FIFO queue. The deadline is enforced from the main thread: a worker still busy when it expires
 * is terminated (the only way to stop synchronous JavaScript) and replaced on demand, so a hostile
 * document costs at most `deadlineMs` of one core and never blocks the event loop. Workers start
 * lazily, are unref'd while idle, and are replaced after a crash.
 */
export class CanonWorkerPool {
  private readonly slots: (Slot | undefined)[];
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private closed = false;
  readonly stats: CanonPoolStats = { completed: 0, failed: 0, killed: 0, workersStarted: 0 };

  constructor(private readonly options: CanonPoolOptions) {
    this.slots = new Array<Slot | undefined>(options.size).fill(undefined);
  }

  get deadlineMs(): number {
    return this.options.deadlineMs;
  }

  run(job: CanonJob): Promise<string> {
    if (this.closed) return Promise.reject(unavailable('canonicalisation workers are closed'));
    if (this.queue.length >= this.options.queueLimit) {
      return Promise.reject(unavailable('too many JSON-LD documents are waiting for canonicalisation; retry later'));
    }
    return new Promise<string>((resolve, reject) => {
      this.queue.push({ job, resolve, reject });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const error = unavailable('canonicalisation workers are closed');
    for (const p of this.queue.splice(0)) p.reject(error);
    const workers: Worker[] = [];
    for (let i = 0; i < this.slots.length; i++) {
      const slot = this.slots[i];
      if (!slot) continue;
      this.slots[i] = undefined;
      if (slot.current) {
        clearTimeout(slot.current.timer);
        slot.current.pending.reject(error);
      }
      workers.push(slot.worker);
    }
    await Promise.all(workers.map((w) => w.terminate()));
  }

  private startSlot(index: number): Slot {
    const worker = new Worker(CANON_WORKER_SOURCE, { eval: true, workerData: this.options.workerData });
    const slot: Slot = { worker, ready: false };
    this.slots[index] = slot;
    this.stats.workersStarted += 1;
    worker.on('message', (msg: CanonWorkerMessage) => this.onMessage(index, slot, msg));
    const onDeath = (): void => this.retire(index, slot, unavailable('a canonicalisation worker stopped'));
    worker.on('error', onDeath);
    worker.on('exit', onDeath);
    return slot;
  }

  private onMessage(index: number, slot: Slot, msg: CanonWorkerMessage): void {
    if (this.slots[index] !== slot) return;
    if (msg.type === 'ready') {
      slot.ready = true;
    } else if (msg.type === 'init-error') {
      this.retire(index, slot, unavailable('canonicalisation workers cannot start'));
      void slot.worker.terminate();
      // Nothing would ever take the queued jobs if no worker can start.
      const error = unavailable('canonicalisation workers cannot start');
      for (const p of this.queue.splice(0)) p.reject(error);
      return;
    } else {
      const current = slot.current;
      if (!current || current.id !== msg.id) return;
      clearTimeout(current.timer);
      slot.current = undefined;
      if (msg.type === 'result') {
        this.stats.completed += 1;
        current.pending.resolve(msg.nquads);
      } else {
        this.stats.failed += 1;
        current.pending.reject(new CanonJobFailure(msg.failure));
      }
    }
    this.dispatch();
  }

  /** Forgets a slot (crash, exit, deadline): its job in flight fails with `error`. */
  private retire(index: number, slot: Slot, error: unknown): void {
    if (this.slots[index] !== slot) return;
    this.slots[index] = undefined;
    if (slot.current) {
      clearTimeout(slot.current.timer);
      slot.current.pending.reject(error);
      slot.current = undefined;
    }
    if (!this.closed) this.dispatch();
  }

  private onDeadline(index: number, slot: Slot): void {
    this.stats.killed += 1;
    this.retire(index, slot, overDeadline(this.options.deadlineMs));
    void slot.worker.terminate();
  }

  private dispatch(): void {
    if (this.closed) return;
    for (let i = 0; i < this.slots.length && this.queue.length > 0; i++) {
      const slot = this.slots[i] ?? this.startSlot(i);
      if (!slot.ready || slot.current) continue;
      const pending = this.queue.shift() as Pending;
      const id = this.nextId++;
      const timer = setTimeout(() => this.onDeadline(i, slot), this.options.deadlineMs);
      slot.current = { id, pending, timer };
      const message: CanonJobMessage = { id, document: pending.job.document, extra: pending.job.extra, ...(pending.job.base !== undefined ? { base: pending.job.base } : {}) };
      try {
        slot.worker.postMessage(message);
      } catch {
        // Not structured-cloneable (e.g. a function in the document): a client mistake, not a crash.
        clearTimeout(timer);
        slot.current = undefined;
        pending.reject(new AppError('INVALID_INPUT', 'the JSON-LD document is not plain JSON'));
      }
    }
    this.syncRefs();
  }

  /** A worker holds the process open only while it starts or computes; idle ones are unref'd. */
  private syncRefs(): void {
    for (const slot of this.slots) {
      if (!slot) continue;
      if (slot.current || !slot.ready) slot.worker.ref();
      else slot.worker.unref();
    }
  }
}
