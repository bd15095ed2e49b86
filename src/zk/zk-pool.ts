import { AppError, RetryLaterError } from '../errors';
import { type WorkerPoolStats, WorkerPool } from '../fairness/worker-pool';
import { ZK_WORKER_SOURCE, type ZkFailureCode, type ZkOp, type ZkWorkerData, type ZkWorkerMessage } from './zk-worker';

/** What a job rejects with when the core refused or failed (not a deadline or a crash). */
export class ZkJobFailure extends Error {
  constructor(readonly code: ZkFailureCode) {
    super(`zero-knowledge operation failed: ${code}`);
    this.name = 'ZkJobFailure';
  }
}

export interface ZkPoolOptions {
  readonly size: number;
  readonly workerData: ZkWorkerData;
  /** Seconds a client is told to wait after a deadline or a full pool. */
  readonly retryAfterSeconds: number;
}

interface ZkJob {
  readonly op: ZkOp;
  readonly input: unknown;
}

/**
 * Worker threads for proving and verifying: the shared worker pool (src/fairness/worker-pool.ts).
 * Its caller (ZkEngine's fair scheduler) never gives it more jobs than it has workers, so it keeps
 * no queue of its own beyond workers still starting. A job still running at its deadline is
 * stopped with its worker (terminate is the only way to stop WASM mid-computation) and answers
 * 503 + Retry-After.
 */
export class ZkWorkerPool {
  private readonly pool: WorkerPool<ZkJob, unknown, ZkWorkerMessage>;

  constructor(options: ZkPoolOptions) {
    this.pool = new WorkerPool<ZkJob, unknown, ZkWorkerMessage>({
      what: 'zero-knowledge',
      size: options.size,
      source: ZK_WORKER_SOURCE,
      workerData: options.workerData,
      admission: { kind: 'caller' },
      // Every job names its own deadline (ZkEngine passes CREDGATE_ZK_DEADLINE_MS); this is the engine's default.
      deadlineMs: 30_000,
      overDeadline: (ms) => new RetryLaterError('SERVICE_UNAVAILABLE', `the zero-knowledge operation exceeded its deadline of ${ms} ms and was stopped; retry later`, options.retryAfterSeconds),
      message: (id, job) => ({ id, op: job.op, input: job.input }),
      result: (msg) => msg.value,
      failure: (msg) => new ZkJobFailure(msg.code),
      notPlainData: () => new AppError('INVALID_INPUT', 'the zero-knowledge input is not plain data'),
    });
  }

  get stats(): Readonly<WorkerPoolStats> {
    return this.pool.stats;
  }

  run(op: ZkOp, input: unknown, deadlineMs: number): Promise<unknown> {
    return this.pool.run({ op, input }, deadlineMs);
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
