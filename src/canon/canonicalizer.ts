import { createHash } from 'node:crypto';
import { AppError } from '../errors';
import {
  CANONIZE_OPTIONS,
  type CanonicalizationExecutor,
  type CanonicalizationJob,
  type JsonLdBudget,
  PINNED_CONTEXTS,
  jsonLdFailure,
} from '../domain/contexts';
import { CanonJobFailure, CanonWorkerPool, type CanonPoolStats, overDeadline } from './canon-pool';

export interface CanonicalizerOptions {
  workers: number;
  deadlineMs: number;
  queueLimit: number;
  budget: JsonLdBudget;
}

export interface Canonicalizer extends CanonicalizationExecutor {
  readonly stats: CanonPoolStats;
  close(): Promise<void>;
}

/** How many documents that ran out of time are remembered (and refused at once when sent again). */
const OVER_BUDGET_MEMORY = 1024;

/**
 * The off-thread canonicaliser a composition root registers with the domain.
 *
 * Besides the pool (workers + deadline + bounded queue), two guards keep one client from
 * multiplying its cost, e.g. with ten GraphQL aliases sharing one variable:
 * - identical jobs in flight share one computation (single flight);
 * - a document that ran out of time is remembered by its hash and refused at once when sent
 *   again, instead of costing another deadline's worth of CPU.
 */
export function createCanonicalizer(options: CanonicalizerOptions): Canonicalizer {
  const jsonldEntry = require.resolve('jsonld');
  const pool = new CanonWorkerPool({
    size: options.workers,
    deadlineMs: options.deadlineMs,
    queueLimit: options.queueLimit,
    workerData: { jsonldEntry, contexts: [...PINNED_CONTEXTS], canonizeOptions: { ...CANONIZE_OPTIONS } },
  });
  const inFlight = new Map<string, Promise<string>>();
  const overBudget = new Set<string>();

  const remember = (key: string): void => {
    overBudget.add(key);
    if (overBudget.size > OVER_BUDGET_MEMORY) overBudget.delete(overBudget.values().next().value as string);
  };

  const run = async (job: CanonicalizationJob, key: string): Promise<string> => {
    try {
      return await pool.run(job);
    } catch (error) {
      if (error instanceof AppError) {
        if (error.code === 'CANONICALIZATION_BUDGET') remember(key);
        throw error;
      }
      if (error instanceof CanonJobFailure) {
        const { unknownContext } = error.failure;
        throw unknownContext !== undefined ? new AppError('INVALID_INPUT', `unknown JSON-LD context ${unknownContext}`) : jsonLdFailure(error.failure);
      }
      throw error;
    }
  };

  return {
    budget: options.budget,
    stats: pool.stats,
    canonize(job: CanonicalizationJob): Promise<string> {
      let text: string;
      try {
        text = JSON.stringify([job.document, job.base ?? null, job.extra]);
      } catch {
        return Promise.reject(new AppError('INVALID_INPUT', 'the JSON-LD document is not plain JSON'));
      }
      const key = createHash('sha256').update(text).digest('hex');
      if (overBudget.has(key)) return Promise.reject(overDeadline(options.deadlineMs));
      const existing = inFlight.get(key);
      if (existing) return existing;
      const running = run(job, key).finally(() => inFlight.delete(key));
      inFlight.set(key, running);
      return running;
    },
    close: () => pool.close(),
  };
}
