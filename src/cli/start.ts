import { ConfigError } from '../config/settings';
import { MAX_WORKERS, workersSetting } from '../config/workers';
import { UsageError } from './parse';
import { COMMANDS, commandUsage } from './spec';

export { MAX_WORKERS };

/**
 * The number of service processes `credgate start` runs: `--workers N`, else CREDGATE_WORKERS,
 * else 1 (one process, no cluster primary). A bad flag is a usage error; a bad variable a
 * configuration error; both name what is allowed.
 */
export function workerCount(flag: string | undefined, env: NodeJS.ProcessEnv): number {
  if (flag !== undefined) {
    if (!/^\d+$/.test(flag) || Number(flag) < 1 || Number(flag) > MAX_WORKERS) {
      throw new UsageError(`--workers must be an integer from 1 to ${MAX_WORKERS}`, commandUsage(COMMANDS.find((c) => c.name === 'start')!));
    }
    return Number(flag);
  }
  return workersSetting(env);
}

/**
 * Embedded PGlite is one process per data folder (src/db/folder-lock.ts): a second worker would
 * only meet the folder lock and die, restart, and die again. Refused up front, in one line.
 */
export function refuseEmbeddedCluster(workers: number, env: NodeJS.ProcessEnv): void {
  if (workers > 1 && (env['DATABASE_URL'] ?? '').trim() === '') {
    throw new ConfigError(`--workers ${workers} needs DATABASE_URL: the embedded database (PGlite) serves one process; use PostgreSQL or run one worker`);
  }
}

/**
 * `credgate start`: one worker runs the service in this process, as `npm start` does; more run
 * under a node:cluster primary (src/cli/cluster-primary.ts) that shares the port between them.
 * Resolves only when the process is about to exit (the service exits itself after draining).
 */
export async function start(values: Readonly<Record<string, string | undefined>>, env: NodeJS.ProcessEnv): Promise<number> {
  const workers = workerCount(values['workers'], env);
  refuseEmbeddedCluster(workers, env);
  if (workers === 1) {
    // The service's own entry point: it listens, and exits itself on SIGTERM/SIGINT after draining.
    await import('../main.js');
    return new Promise<number>(() => undefined);
  }
  const { runPrimary } = await import('./cluster-primary.js');
  return runPrimary(workers, env);
}
