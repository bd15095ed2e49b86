import { databaseBusyError } from '../../src/db/busy-errors';
import { isRetryLater } from '../../src/errors';

/**
 * The one classification of database failures (both transports map through it): a busy database
 * and an unreachable one are 503 SERVICE_UNAVAILABLE with Retry-After, with a message of our own;
 * anything else is left to the caller (a real bug stays a 500).
 */
const socket = (code: string) => Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code, errno: -111, syscall: 'connect' });

describe('databaseBusyError', () => {
  test.each([
    ['lock_timeout (55P03)', { code: '55P03' }],
    ['statement_timeout (57014)', { code: '57014' }],
    ['Prisma pool timeout (P2024)', { code: 'P2024' }],
    ['adapter write conflict', { kind: 'TransactionWriteConflict' }],
  ])('busy: %s', (_what, err) => {
    const e = databaseBusyError(err);
    expect(isRetryLater(e)).toBe(true);
    expect(e).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503, message: 'the database is busy, retry later' });
  });

  test.each([
    ['ECONNREFUSED', socket('ECONNREFUSED')],
    ['ECONNRESET nested as a cause', { message: 'driver failed', cause: socket('ECONNRESET') }],
    ['node-postgres socket closed under a query', new Error('Connection terminated unexpectedly')],
    ['node-postgres connect timeout', new Error('timeout exceeded when trying to connect')],
    ['node-postgres client connect timeout (its own timer)', new Error('timeout expired')],
    ['SQLSTATE 08006 (connection_failure)', { code: '08006' }],
    ['SQLSTATE 57P01 (admin_shutdown)', { code: '57P01' }],
    ["Prisma P1001 (can't reach)", { code: 'P1001' }],
    ['Prisma P1017 (server closed the connection)', { code: 'P1017' }],
    ['driver adapter DatabaseNotReachable in meta', { code: 'P2010', meta: { driverAdapterError: { cause: { kind: 'DatabaseNotReachable' } } } }],
    ['driver adapter ConnectionClosed', { cause: { kind: 'ConnectionClosed' } }],
  ])('unreachable: %s', (_what, err) => {
    const e = databaseBusyError(err);
    expect(isRetryLater(e)).toBe(true);
    expect(e).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503, message: 'the database is unavailable, retry later' });
    expect(e!.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    // Nothing of the driver's text is carried along.
    expect(e!.message).not.toMatch(/ECONN|terminated|P1001|5432/);
  });

  test.each([
    ['a unique violation (23505)', { code: '23505' }],
    ['Prisma record not found (P2025)', { code: 'P2025' }],
    ['a plain bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['null', null],
    ['a string', 'Connection terminated'],
  ])('not a database outage: %s', (_what, err) => {
    expect(databaseBusyError(err)).toBeUndefined();
  });
});
