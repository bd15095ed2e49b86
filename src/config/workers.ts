import { intSetting } from './settings';

/** An upper bound well above any machine's cores: a typo (`--workers 800`) is refused, not obeyed. */
export const MAX_WORKERS = 64;

/**
 * CREDGATE_WORKERS: how many service processes `credgate start` runs on one port (node:cluster,
 * src/cli/cluster-primary.ts); 1 by default. Read by the start command only, not by parseConfig:
 * a worker is one ordinary instance and never reads it.
 */
export function workersSetting(env: NodeJS.ProcessEnv): number {
  return intSetting(env, 'CREDGATE_WORKERS', 1, 1, MAX_WORKERS);
}
