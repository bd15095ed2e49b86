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

/**
 * "The database cannot be reached": socket errors, SQLSTATE class 08 (connection exception) and
 * the server shutting down or starting (57P01-57P03), Prisma's "can't reach" / "timed out
 * reaching" / "connection closed" (P1001, P1002, P1017) and the driver adapter's kinds for them.
 */
const DOWN_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', '57P01', '57P02', '57P03', 'P1001', 'P1002', 'P1017']);
const DOWN_ADAPTER_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed']);
/**
 * node-postgres reports a lost or never-opened connection only in the message (no code): the
 * socket closed under a query, the connect timeout ran out (the pool's wording, or the client's
 * own "timeout expired" when its connection attempt is cut), or a client that already failed.
 */
const DOWN_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|^timeout expired$|Client has encountered a connection error|Connection refused|Can't reach database server|Server has closed the connection/i;

type Signal = 'busy' | 'down';

function signalOf(e: unknown, depth: number): Signal | undefined {
  if (depth > 4 || e === null || typeof e !== 'object') return undefined;
  const o = e as Record<string, unknown>;
  const code = o['code'];
  if (typeof code === 'string') {
    if (DOWN_CODES.has(code) || code.startsWith('08')) return 'down';
    if (BUSY_SQLSTATES.has(code) || BUSY_PRISMA_CODES.has(code)) return 'busy';
  }
  const kind = o['kind'];
  if (typeof kind === 'string') {
    if (DOWN_ADAPTER_KINDS.has(kind)) return 'down';
    if (BUSY_ADAPTER_KINDS.has(kind)) return 'busy';
  }
  if (typeof o['message'] === 'string' && DOWN_MESSAGES.test(o['message'])) return 'down';
  // Driver adapter errors nest the driver's error as `cause` (and Prisma as `meta.driverAdapterError`).
  for (const k of ['cause', 'meta', 'driverAdapterError', 'originalCode']) {
    const s = signalOf(o[k], depth + 1);
    if (s) return s;
  }
  return undefined;
}

/**
 * A lock or statement timeout (or a pool/transaction wait that ran out), or a database that
 * cannot be reached (down, restarting, network cut), becomes 503 with Retry-After: the client did
 * nothing wrong and may retry; nothing of Prisma's or the driver's text leaks. The one place
 * database failures are classified; both transports map through it.
 */
export function databaseBusyError(e: unknown): RetryLaterError | undefined {
  switch (signalOf(e, 0)) {
    case 'busy':
      return new RetryLaterError('SERVICE_UNAVAILABLE', 'the database is busy, retry later', 1);
    case 'down':
      return new RetryLaterError('SERVICE_UNAVAILABLE', 'the database is unavailable, retry later', 2);
    default:
      return undefined;
  }
}
