import { AppError, RetryLaterError } from '../../errors';
import { type WorkerPoolStats, WorkerPool } from '../../fairness/worker-pool';
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

/** Counters for operators and tests. */
export type BbsPoolStats = WorkerPoolStats;

/**
 * bbs-2023 work off the event loop, fairly: the shared worker pool (src/fairness/worker-pool.ts)
 * with fair admission per request tenant. At most `size` jobs run at once (one per worker), at most
 * size-1 of them one tenant's when there are two or more workers, and waiting tenants are served
 * round-robin, so one tenant deriving in a loop cannot starve another. A worker still busy at the
 * deadline is terminated (the only way to stop synchronous JavaScript) and replaced on the next
 * job; its caller gets 503 with Retry-After. Workers start lazily and are unref'd while idle.
 */
export class BbsWorkerPool {
  private readonly pool: WorkerPool<BbsJob, unknown, BbsWorkerMessage>;

  constructor(options: BbsPoolOptions) {
    this.pool = new WorkerPool<BbsJob, unknown, BbsWorkerMessage>({
      what: 'BBS',
      size: options.size,
      source: BBS_WORKER_SOURCE,
      workerData: options.workerData,
      admission: { kind: 'fair', perTenantQueue: options.queuePerTenant, retryAfterSeconds: options.retryAfterSeconds, busyMessage: 'too many BBS proofs are waiting for a worker; retry later' },
      deadlineMs: options.deadlineMs,
      overDeadline: (ms) => new RetryLaterError('SERVICE_UNAVAILABLE', `the BBS operation exceeded its deadline of ${ms} ms and was stopped`, options.retryAfterSeconds),
      message: (id, job) => ({ id, job }),
      result: (msg) => msg.value,
      failure: (msg) => new BbsJobFailure(msg.kind, msg.message),
      notPlainData: () => new AppError('INVALID_INPUT', 'the credential is not plain JSON'),
    });
  }

  get stats(): Readonly<BbsPoolStats> {
    return this.pool.stats;
  }

  /** Runs one job for the current request's tenant. */
  run<T>(job: BbsJob): Promise<T> {
    return this.pool.run(job) as Promise<T>;
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
