import { Worker } from 'node:worker_threads';
import { AppError } from '../errors';
import { FACE_WORKER_SOURCE, type FaceJobMessage, type FaceWorkerData, type FaceWorkerMessage } from './face-worker';

export interface FaceJob {
  rgb: Uint8Array;
  width: number;
  height: number;
}

export interface FaceJobResult {
  faceCount: number;
  descriptor?: Float32Array;
}

interface Pending {
  job: FaceJob;
  resolve(result: FaceJobResult): void;
  reject(error: unknown): void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  /** Resolves when the models are loaded; rejects when start-up failed or the pool closed. */
  started: Promise<void>;
  abortStart(error: unknown): void;
  current?: { id: number; pending: Pending };
}

const unavailable = (message: string): AppError => new AppError('SERVICE_UNAVAILABLE', message);
const computationFailed = (): AppError => new AppError('INTERNAL', 'face template computation failed');

/**
 * A fixed-size pool of inference workers. Each worker loads tfjs, the WASM backend and the three
 * networks once, then serves one job at a time; jobs wait in a FIFO queue. Workers are started
 * lazily (first job or warmup()), are unref'd while idle (syncRefs) and are replaced after a
 * crash (the job in flight fails with INTERNAL).
 */
export class FaceWorkerPool {
  private readonly slots: (Slot | undefined)[];
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private closed = false;

  constructor(
    readonly size: number,
    private readonly workerData: FaceWorkerData,
  ) {
    this.slots = new Array<Slot | undefined>(size).fill(undefined);
  }

  /** Starts every worker and waits until all have loaded their models (rejects if one cannot). */
  async warmup(): Promise<void> {
    if (this.closed) throw unavailable('face engine closed');
    await Promise.all(this.slots.map((_, i) => this.ensureSlot(i).started));
  }

  run(job: FaceJob): Promise<FaceJobResult> {
    if (this.closed) return Promise.reject(unavailable('face engine closed'));
    return new Promise<FaceJobResult>((resolve, reject) => {
      this.queue.push({ job, resolve, reject });
      for (let i = 0; i < this.slots.length; i++) this.ensureSlot(i);
      this.dispatch();
      this.syncRefs();
    });
  }

  /** Jobs waiting for a worker (not counting those being computed). */
  get queued(): number {
    return this.queue.length;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const error = unavailable('face engine closed');
    for (const p of this.queue.splice(0)) p.reject(error);
    const workers: Worker[] = [];
    for (let i = 0; i < this.slots.length; i++) {
      const slot = this.slots[i];
      if (!slot) continue;
      this.slots[i] = undefined;
      slot.abortStart(error); // no-op once started
      slot.current?.pending.reject(error);
      slot.current = undefined;
      workers.push(slot.worker);
    }
    await Promise.all(workers.map((w) => w.terminate()));
  }

  private ensureSlot(index: number): Slot {
    const existing = this.slots[index];
    if (existing) return existing;
    const worker = new Worker(FACE_WORKER_SOURCE, { eval: true, workerData: this.workerData });
    let settleStart!: { resolve(): void; reject(e: unknown): void };
    const started = new Promise<void>((resolve, reject) => {
      settleStart = { resolve, reject };
    });
    started.catch(() => undefined); // observed by warmup() or by the queue handling below
    const slot: Slot = { worker, ready: false, started, abortStart: (e) => settleStart.reject(e) };
    this.slots[index] = slot;

    const retire = (): void => {
      if (this.slots[index] === slot) this.slots[index] = undefined;
    };
    worker.on('message', (msg: FaceWorkerMessage) => {
      switch (msg.type) {
        case 'ready':
          slot.ready = true;
          settleStart.resolve();
          this.dispatch();
          this.syncRefs();
          return;
        case 'init-error':
          retire();
          void worker.terminate();
          settleStart.reject(unavailable('face engine could not load its models'));
          this.failQueueIfNoWorker();
          this.syncRefs();
          return;
        case 'result':
        case 'error': {
          const current = slot.current;
          if (!current || current.id !== msg.id) return;
          slot.current = undefined;
          if (msg.type === 'result') {
            current.pending.resolve(msg.descriptor ? { faceCount: msg.faceCount, descriptor: msg.descriptor } : { faceCount: msg.faceCount });
          } else {
            current.pending.reject(computationFailed());
          }
          this.dispatch();
          this.syncRefs();
          return;
        }
      }
    });
    const onDeath = (): void => {
      if (this.slots[index] !== slot) return;
      retire();
      settleStart.reject(unavailable('face engine worker stopped'));
      if (slot.current) {
        slot.current.pending.reject(computationFailed());
        slot.current = undefined;
      }
      if (this.closed) return;
      if (slot.ready) {
        // A crash after a successful start: replace the worker if there is work waiting.
        if (this.queue.length > 0) this.ensureSlot(index);
      } else {
        this.failQueueIfNoWorker();
      }
      this.syncRefs();
    };
    worker.on('error', onDeath);
    worker.on('exit', onDeath);
    this.syncRefs();
    return slot;
  }

  /**
   * A worker keeps the process alive only while it loads its models or computes a job. Idle
   * workers are unref'd, so an engine nobody closed never holds a process (a CLI, a test run)
   * open, while an awaited warmup() or createTemplate always completes.
   */
  private syncRefs(): void {
    for (const slot of this.slots) {
      if (!slot) continue;
      if (slot.current || !slot.ready) slot.worker.ref();
      else slot.worker.unref();
    }
  }

  /** Start-up failed everywhere: nothing would ever take the queued jobs, so fail them now. */
  private failQueueIfNoWorker(): void {
    if (this.slots.some((s) => s !== undefined)) return;
    const error = unavailable('face engine could not load its models');
    for (const p of this.queue.splice(0)) p.reject(error);
  }

  private dispatch(): void {
    if (this.closed) return;
    for (const slot of this.slots) {
      if (this.queue.length === 0) return;
      if (!slot || !slot.ready || slot.current) continue;
      const pending = this.queue.shift() as Pending;
      const id = this.nextId++;
      slot.current = { id, pending };
      // One copy into a buffer of exactly the pixels, transferred (a clone of a view would copy its
      // whole backing store); the caller's buffer is released with the job.
      const rgb = new Uint8Array(pending.job.rgb);
      const message: FaceJobMessage = { id, rgb, width: pending.job.width, height: pending.job.height };
      slot.worker.postMessage(message, [rgb.buffer]);
    }
  }
}
