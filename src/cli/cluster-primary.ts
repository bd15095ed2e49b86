import cluster, { type Worker } from 'node:cluster';
import path from 'node:path';
import { parseConfig } from '../config';
import { openDatabase } from '../db/database';
import { migrate, readMigrations } from '../db/migrator';
import { resolveMasterKey } from '../kms/master-key';
import { databaseHasMasterKey } from '../kms/master-key-check';
import { createLogger, type Logger } from '../logging/logger';
import { unlock } from './keyed-database';
import { RestartBudget } from './restart-budget';

/** At most this many worker restarts in any minute; beyond it the primary stops (exit 1). */
export const RESTART_BOUND = { max: 5, windowMs: 60_000 };

/**
 * The primary of `credgate start --workers N` (N ≥ 2, PostgreSQL only). It never serves: it
 * prepares the database once, forks N workers that each run the ordinary service
 * (`dist/main.js`) on the shared port (node:cluster hands connections out round-robin), restarts
 * a worker that dies within RESTART_BOUND, and on SIGTERM/SIGINT passes the signal to every
 * worker, waits for each to drain its issuance batches and exit, and exits 0 when all did.
 *
 * Correctness across workers needs nothing new: they are separate instances on one database, as
 * several machines would be (per-list batches under PostgreSQL advisory locks, src/ledger/sequencer.ts;
 * cache invalidation through LISTEN/NOTIFY, src/cache).
 */
export async function runPrimary(workers: number, env: NodeJS.ProcessEnv): Promise<number> {
  const config = parseConfig(env);
  const logger = createLogger(config.logLevel).child({ role: 'primary' });
  await prepareDatabase(config, logger);
  logger.info({ workers }, 'database migrated and master key checked: starting the workers');

  // Workers run the service's entry point, with this process's environment and no arguments.
  cluster.setupPrimary({ exec: path.join(__dirname, '..', 'main.js'), args: [] });
  const budget = new RestartBudget(RESTART_BOUND.max, RESTART_BOUND.windowMs);
  const listening = new Set<number>();
  let stopping = false;
  let code = 0;
  let announced = false;

  return new Promise<number>((resolve) => {
    const live = (): Worker[] => Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
    const finishIfDone = (): void => {
      if (!stopping || live().length > 0) return;
      logger.info({ code }, 'every worker stopped');
      resolve(code);
    };
    const stop = (signal: NodeJS.Signals, exitCode: number): void => {
      if (stopping) return;
      stopping = true;
      code = exitCode;
      logger.info({ signal, workers: live().length }, 'shutting down: draining every worker');
      // Each worker drains on its own signal handler (src/main.ts): stop accepting, commit queued
      // batches and their heads, close the database, exit 0.
      for (const w of live()) w.process.kill(signal);
      finishIfDone();
    };

    cluster.on('listening', (worker) => {
      listening.add(worker.id);
      if (!announced && listening.size >= workers) {
        announced = true;
        logger.info({ workers, port: config.port }, 'credgate cluster: every worker listening');
        // A supervisor that started us with an IPC channel hears it too: 'ready' is what PM2's
        // wait_ready waits for, and what the bench waits for before it measures.
        process.send?.('ready');
      }
    });
    cluster.on('exit', (worker, exitCode, signal) => {
      const everListened = listening.delete(worker.id);
      if (stopping) {
        // A worker that did not drain cleanly makes the whole stop a failure (a supervisor should know).
        if (exitCode !== 0) code = 1;
        finishIfDone();
        return;
      }
      if (!everListened && !announced) {
        // The cluster never came up: a start-up failure (busy port, unreachable database) is not
        // cured by restarting. A replacement that fails later counts against the restart bound.
        logger.error({ worker: worker.id, code: exitCode, signal }, 'a worker failed to start; stopping');
        stop('SIGTERM', 1);
        return;
      }
      if (!budget.take(Date.now())) {
        logger.error({ worker: worker.id, code: exitCode, signal, bound: RESTART_BOUND }, 'workers keep dying: restart bound reached; stopping');
        stop('SIGTERM', 1);
        return;
      }
      logger.warn({ worker: worker.id, code: exitCode, signal }, 'a worker died; starting another');
      cluster.fork();
    });

    process.on('SIGTERM', () => stop('SIGTERM', 0));
    process.on('SIGINT', () => stop('SIGINT', 0));
    for (let i = 0; i < workers; i++) cluster.fork();
  });
}

/**
 * Migrations and the master key check, once, before any worker starts: N workers would otherwise
 * race to migrate (they would queue on the migrator's advisory lock, but each would pay for it)
 * and a wrong key would crash every worker in a restart loop instead of stopping here in one line.
 * Each worker's own start-up then finds nothing to apply.
 */
async function prepareDatabase(config: ReturnType<typeof parseConfig>, logger: Logger): Promise<void> {
  const db = await openDatabase(config.database, config.dbTimeouts);
  try {
    const applied = await migrate(db.sql, readMigrations(), (name) => logger.info({ migration: name }, 'applying database migration'));
    if (applied.length > 0) logger.info({ applied }, 'applied database migrations');
    const masterKey = resolveMasterKey(config, logger, await databaseHasMasterKey(db.prisma));
    const unlocked = await unlock({ db, masterKey, close: () => db.close() }, config);
    // Only the check was wanted here; the workers derive their own copy.
    unlocked.ledgerSeed.fill(0);
  } finally {
    await db.close();
  }
}
