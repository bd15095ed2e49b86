import { AppError } from '../errors';
import { type WorkerPoolStats, WorkerPool } from '../fairness/worker-pool';
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
export type CanonPoolStats = WorkerPoolStats;

/** What a job rejects with when jsonld itself failed; rdf-canonize.ts turns it into an AppError. */
export class CanonJobFailure extends Error {
  constructor(readonly failure: CanonFailure) {
    super(failure.message ?? 'JSON-LD processing failed');
    this.name = 'CanonJobFailure';
  }
}

export const overDeadline = (deadlineMs: number): AppError =>
  new AppError('CANONICALIZATION_BUDGET', `canonicalisation of the JSON-LD document exceeded its budget of ${deadlineMs} ms and was stopped`);

/**
 * The canonicalisation workers: the shared worker pool (src/fairness/worker-pool.ts) with one
 * bounded FIFO queue, the canonicalisation budget as deadline (a hostile document costs at most
 * `deadlineMs` of one core and never blocks the event loop), and jsonld's failures as CanonJobFailure.
 */
export class CanonWorkerPool extends WorkerPool<CanonJob, string, CanonWorkerMessage> {
  constructor(options: CanonPoolOptions) {
    super({
      what: 'canonicalisation',
      size: options.size,
      source: CANON_WORKER_SOURCE,
      workerData: options.workerData,
      admission: { kind: 'queue', limit: options.queueLimit, busyMessage: 'too many JSON-LD documents are waiting for canonicalisation; retry later' },
      deadlineMs: options.deadlineMs,
      overDeadline,
      message: (id, job): CanonJobMessage => ({ id, document: job.document, extra: job.extra, ...(job.base !== undefined ? { base: job.base } : {}) }),
      result: (msg) => msg.nquads,
      failure: (msg) => new CanonJobFailure(msg.failure),
      notPlainData: () => new AppError('INVALID_INPUT', 'the JSON-LD document is not plain JSON'),
    });
    this.deadlineMs = options.deadlineMs;
  }

  readonly deadlineMs: number;
}
