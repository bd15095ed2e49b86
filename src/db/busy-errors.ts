import { RetryLaterError } from '../errors';

/**
 * SQLSTATEs that mean "the database is busy, try again", not "your request is wrong":
 * lock_not_available (lock_timeout), query_canceled (statement_timeout), deadlock_detected and
 * serialization_failure.
 */
const BUSY_SQLSTATES = new Set(['55P03', '57014', '40P01', '40001']);
/** Prisma: transaction API (could not start / expired), write conflict, pool timeout, server timeout. */
const BUSY_PRISMA_CODES = new Set(['P2028', 'P2034', 'P2024', 'P1008']);
const BUSY_ADAPTER_KINDS = new Set(['TransactionWriteConflict', 'SocketTimeout', 'TooManyConnections']);

function busySignal(e: unknown, depth: number): boolean {
  if (depth > 4 || e === null || typeof e !== 'object') return false;
  const o = e as Record<string, unknown>;
  if (typeof o['code'] === 'string' && (BUSY_SQLSTATES.has(o['code']) || BUSY_PRISMA_CODES.has(o['code']))) return true;
  if (typeof o['kind'] === 'string' && BUSY_ADAPTER_KINDS.has(o['kind'])) return true;
  // Driver adapter errors nest the driver's error as `cause` (and Prisma as `meta.driverAdapterError`).
  return ['cause', 'meta', 'driverAdapterError', 'originalCode'].some((k) => busySignal(o[k], depth + 1));
}

/**
 * A lock or statement timeout (or a pool/transaction wait that ran out) becomes 503 with
 * Retry-After: the client did nothing wrong and may retry; nothing of Prisma's text leaks.
 */
export function databaseBusyError(e: unknown): RetryLaterError | undefined {
  return busySignal(e, 0) ? new RetryLaterError('SERVICE_UNAVAILABLE', 'the database is busy, retry later', 1) : undefined;
}
