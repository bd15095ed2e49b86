import { ConfigError, intSetting, nonEmpty } from './settings';

/**
 * A PostgreSQL streaming replica that read-only operations may read from (issue 19). Absent: every
 * read goes to the primary, as before.
 */
export interface ReadReplicaConfig {
  /** CREDGATE_READ_DATABASE_URL: a hot standby of DATABASE_URL (same database, read-only). */
  readonly url: string;
  /** CREDGATE_READ_MAX_LAG_MS: a replica further behind than this is not read from at all. */
  readonly maxLagMs: number;
  /** CREDGATE_READ_WAIT_MS: how long a read waits for the replica to replay what it must see before it goes to the primary. */
  readonly waitMs: number;
  /** CREDGATE_READ_CHECK_MS: how often the replica's replay position and lag are sampled. */
  readonly checkMs: number;
}

export const READ_REPLICA_DEFAULTS = { maxLagMs: 1000, waitMs: 50, checkMs: 200 } as const;

/** Reads the replica settings; a replica needs a PostgreSQL primary (PGlite cannot stream WAL). */
export function parseReadReplica(env: NodeJS.ProcessEnv, primaryKind: 'postgres' | 'pglite'): ReadReplicaConfig | undefined {
  const raw = nonEmpty(env, 'CREDGATE_READ_DATABASE_URL');
  if (raw === undefined) return undefined;
  if (primaryKind !== 'postgres') throw new ConfigError('CREDGATE_READ_DATABASE_URL needs DATABASE_URL (a PostgreSQL primary): the embedded database has no replicas');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('CREDGATE_READ_DATABASE_URL is not a valid URL');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') throw new ConfigError('CREDGATE_READ_DATABASE_URL must be a postgres:// or postgresql:// URL');
  return Object.freeze({
    url: raw,
    maxLagMs: intSetting(env, 'CREDGATE_READ_MAX_LAG_MS', READ_REPLICA_DEFAULTS.maxLagMs, 10, 600_000),
    waitMs: intSetting(env, 'CREDGATE_READ_WAIT_MS', READ_REPLICA_DEFAULTS.waitMs, 0, 10_000),
    checkMs: intSetting(env, 'CREDGATE_READ_CHECK_MS', READ_REPLICA_DEFAULTS.checkMs, 10, 60_000),
  });
}
