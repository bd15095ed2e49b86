/**
 * Re-runs a transaction that the database aborted only because of concurrent transactions: a
 * serialization failure (SQLSTATE 40001: PostgreSQL at SERIALIZABLE, and CockroachDB at its
 * default isolation) or a deadlock (40P01). Those are not mistakes of the request, and the
 * database expects the client to retry the whole transaction. Anything else is thrown at once;
 * after the last attempt the error is thrown too (and maps to 503 + Retry-After, see busy-errors).
 */

/** SQLSTATEs of "your transaction lost a race; run it again". */
const RETRYABLE_SQLSTATES = new Set(['40001', '40P01']);
/** Prisma's code for the same (write conflict or deadlock), and the driver adapter's kind. */
const RETRYABLE_PRISMA_CODES = new Set(['P2034']);
const RETRYABLE_ADAPTER_KINDS = new Set(['TransactionWriteConflict']);

/**
 * True for a race the database wants retried, however it is wrapped: Prisma reports one from a raw
 * query as P2010 with `meta.driverAdapterError.cause = { kind: 'TransactionWriteConflict',
 * originalCode: '40001' }`, the adapter as a bare kind, node-postgres as `code`.
 */
export function isRetryableTransactionError(e: unknown, depth = 0): boolean {
  if (depth > 5 || e === null || typeof e !== 'object') return false;
  const o = e as Record<string, unknown>;
  for (const field of ['code', 'originalCode']) {
    const code = o[field];
    if (typeof code === 'string' && (RETRYABLE_SQLSTATES.has(code) || RETRYABLE_PRISMA_CODES.has(code))) return true;
  }
  const kind = o['kind'];
  if (typeof kind === 'string' && RETRYABLE_ADAPTER_KINDS.has(kind)) return true;
  return ['meta', 'driverAdapterError', 'cause'].some((field) => isRetryableTransactionError(o[field], depth + 1));
}

export interface RetryOptions {
  /** Attempts in all, the first included (default 4). */
  readonly attempts?: number;
  /** Base of the jittered exponential pause between attempts, ms (default 10). */
  readonly baseDelayMs?: number;
}

export async function retryTransaction<T>(run: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const attempts = options.attempts ?? 4;
  const base = options.baseDelayMs ?? 10;
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (e) {
      if (attempt >= attempts || !isRetryableTransactionError(e)) throw e;
      // Jitter: the transactions that collided should not collide again in lockstep.
      await new Promise((r) => setTimeout(r, base * 2 ** (attempt - 1) * (0.5 + Math.random())));
    }
  }
}
