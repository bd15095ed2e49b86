import { Client, type ClientConfig, type PoolConfig } from 'pg';
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
 *
 * node-postgres uses one option, `connectionTimeoutMillis`, for two waits: opening a connection
 * (the client) and waiting for a free pooled one (the pool). They must differ: a burst of
 * requests larger than the pool on a healthy server waits its turn (bounded by the statement
 * timeout, like the work ahead of it), while a server that does not answer fails in
 * `connectTimeoutMs`. So the pool gets the queue bound and its clients the connect bound.
 */
export function sessionSettings(t: DbTimeouts): PoolConfig {
  return {
    max: t.poolSize,
    lock_timeout: t.lockTimeoutMs,
    statement_timeout: t.statementTimeoutMs,
    idle_in_transaction_session_timeout: Math.max(t.statementTimeoutMs, 60_000),
    connectionTimeoutMillis: Math.max(t.statementTimeoutMs, t.connectTimeoutMs),
    Client: clientWithConnectTimeout(t.connectTimeoutMs),
    keepAlive: true,
    // Each statement is written at once instead of after the previous answer (node-postgres'
    // pipeline mode; every statement keeps its own Sync, so a failure stays its own). Only a
    // transaction issues several at once: BEGIN with its first statement, its last write with
    // COMMIT (src/db/pg-executor.ts). Nothing here reads through portals, the one thing the mode refuses.
    pipeline: true,
  };
}

/** A pg Client whose own connection attempt gives up after `ms`, whatever the pool's queue bound. */
function clientWithConnectTimeout(ms: number): typeof Client {
  return class ConnectTimeoutClient extends Client {
    constructor(config?: string | ClientConfig) {
      super(typeof config === 'string' ? { connectionString: config, connectionTimeoutMillis: ms } : { ...config, connectionTimeoutMillis: ms });
    }
  };
}
