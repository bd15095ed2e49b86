import { PrismaPg } from '@prisma/adapter-pg';
import { Pool } from 'pg';
import type { DbTimeouts, ReadReplicaConfig } from '../../config';
import { PrismaClient } from '../../generated/prisma/client';
import type { Logger } from '../../logging/logger';
import { sessionSettings } from '../session-settings';
import type { SqlExecutor } from '../sql-executor';
import { type Lsn, parseLsn } from './lsn';
import { ReadRouter } from './read-router';
import { ReplicaMonitor } from './replica-monitor';
import { routingClient, routingSql } from './routing-client';
import { PgExecutor } from '../pg-executor';

export { ReadRouter } from './read-router';
export type { ReadStats } from './read-router';
export type { ReplicaState } from './replica-monitor';
export { type ReadLevel, onPrimary } from './scope';
export { formatLsn, parseLsn } from './lsn';

/** The replica side of the database: its own pool and Prisma client, the monitor and the router. */
export interface ReadReplica {
  readonly router: ReadRouter;
  /** A client that reads from the replica inside read-only operations and is the primary otherwise. */
  readonly prisma: PrismaClient;
  /** The same for raw SQL. */
  readonly sql: SqlExecutor;
  close(): Promise<void>;
}

function lsnOf(text: string | null | undefined, what: string): Lsn {
  const lsn = text ? parseLsn(text) : null;
  if (lsn === null) throw new Error(`${what} returned no WAL position`);
  return lsn;
}

/**
 * Opens the replica named by CREDGATE_READ_DATABASE_URL beside the primary. Start-up does not
 * fail when the replica is down: reads go to the primary until a check finds it answering.
 */
export async function openReadReplica(config: ReadReplicaConfig, timeouts: DbTimeouts, primary: { prisma: PrismaClient; sql: SqlExecutor }, logger: Logger): Promise<ReadReplica> {
  const pool = new Pool({ connectionString: config.url, ...sessionSettings(timeouts) });
  // An idle client error (the replica restarting) must not crash the process; the next read reports it.
  pool.on('error', () => undefined);
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  const monitor = new ReplicaMonitor(
    {
      primaryLsn: async () => lsnOf((await primary.sql.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn'))[0]?.lsn, 'the primary'),
      replayLsn: async () => {
        const { rows } = await pool.query<{ standby: boolean; lsn: string | null }>('SELECT pg_is_in_recovery() AS standby, pg_last_wal_replay_lsn()::text AS lsn');
        const row = rows[0];
        // A promoted or mistaken server is not a copy of this primary: never read from it.
        return row?.standby ? lsnOf(row.lsn, 'the replica') : null;
      },
    },
    { maxLagMs: config.maxLagMs, checkMs: config.checkMs },
  );
  await monitor.start();
  const s = monitor.state();
  logger.info({ replica: s.state, lagMs: s.lagMs }, 'read replica configured (CREDGATE_READ_DATABASE_URL)');
  const router = new ReadRouter(monitor, config.waitMs, logger);
  return {
    router,
    prisma: routingClient(primary.prisma, prisma, router),
    sql: routingSql(primary.sql, new PgExecutor(pool), router),
    close: async () => {
      await monitor.stop();
      await prisma.$disconnect();
      await pool.end();
    },
  };
}
