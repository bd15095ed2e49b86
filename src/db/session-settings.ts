import type { PoolConfig } from 'pg';
import type { DbTimeouts } from '../config';

/**
 * Session defaults for every pooled PostgreSQL connection. They bound what one transaction can
 * hold: a row lock that is not granted within `lockTimeoutMs` fails the statement (SQLSTATE
 * 55P03) instead of pinning a pooled connection for a minute; a statement running longer than
 * `statementTimeoutMs` is cancelled (57014). Both are mapped to 503 with Retry-After
 * (src/db/busy-errors.ts). A transaction left idle (a crashed request) is ended by the server.
 * Opening a connection gives up after `connectTimeoutMs` (node-postgres waits forever by default,
 * so an unreachable server would hang every request); TCP keep-alive lets the OS notice a peer
 * that vanished without a FIN. Both failures are mapped to 503 as well.
 */
export function sessionSettings(t: DbTimeouts): PoolConfig {
  return {
    max: t.poolSize,
    lock_timeout: t.lockTimeoutMs,
    statement_timeout: t.statementTimeoutMs,
    idle_in_transaction_session_timeout: Math.max(t.statementTimeoutMs, 60_000),
    connectionTimeoutMillis: t.connectTimeoutMs,
    keepAlive: true,
  };
}
