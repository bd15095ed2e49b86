import { ConfigError, intSetting } from './settings';

/**
 * Rate limits, per-tenant fairness and database timeouts: parsed from the environment here so
 * config.ts stays a list of fields. Every default is documented in docs/security/limits.md.
 */

/** Fixed-window counters held in PostgreSQL (shared by every instance on one database). */
export interface RateLimitConfig {
  /** Window length in seconds. */
  readonly windowSeconds: number;
  /** Oracle-shaped calls (verification, decrypt, face compare, ...) per API key per window; 0 disables. */
  readonly perApiKey: number;
  /** Verification lookups of one credential id per window, across every key and tenant; 0 disables. */
  readonly perCredential: number;
  /** Requests to public (keyless) routes per client IP per window; 0 disables. */
  readonly perIp: number;
  /**
   * Failed OAuth client authentications (POST /oauth/token) per (client address, client id) per window; 0 disables.
   * Absent: RATE_LIMIT_DEFAULTS.oauthFailuresPerIp.
   */
  readonly oauthFailuresPerIp?: number;
}

/** In-process fair admission of writes and face jobs (per instance). */
export interface FairnessConfig {
  /** Write requests running at once across all tenants (keep below the pool size, so reads find a connection). */
  readonly writeConcurrency: number;
  /** Write requests one tenant may run at once. */
  readonly tenantWriteConcurrency: number;
  /** Write requests one tenant may have waiting; beyond it: 503 with Retry-After. */
  readonly tenantWriteQueue: number;
  /** Face jobs (decoding, queued or computing) one tenant may hold; undefined: half the engine's admission capacity. */
  readonly faceTenantShare: number | undefined;
}

/** Session defaults of every PostgreSQL connection (also bound each transaction's statements). */
export interface DbTimeouts {
  readonly poolSize: number;
  readonly lockTimeoutMs: number;
  readonly statementTimeoutMs: number;
  /**
   * Opening a pooled connection, and the readiness probe's whole round trip: past it the request
   * answers 503 instead of waiting on an unreachable server (the driver's default is forever).
   */
  readonly connectTimeoutMs: number;
}

export const RATE_LIMIT_DEFAULTS: RateLimitConfig = { windowSeconds: 60, perApiKey: 300, perCredential: 30, perIp: 600, oauthFailuresPerIp: 20 };
export const FAIRNESS_DEFAULTS: FairnessConfig = { writeConcurrency: 8, tenantWriteConcurrency: 3, tenantWriteQueue: 256, faceTenantShare: undefined };
export const DB_TIMEOUT_DEFAULTS: DbTimeouts = { poolSize: 10, lockTimeoutMs: 5000, statementTimeoutMs: 30000, connectTimeoutMs: 2000 };

export function parseRateLimits(env: NodeJS.ProcessEnv): RateLimitConfig {
  const d = RATE_LIMIT_DEFAULTS;
  return Object.freeze({
    windowSeconds: intSetting(env, 'CREDGATE_RATE_LIMIT_WINDOW_SECONDS', d.windowSeconds, 1, 86_400),
    perApiKey: intSetting(env, 'CREDGATE_RATE_LIMIT_PER_API_KEY', d.perApiKey, 0, 1_000_000),
    perCredential: intSetting(env, 'CREDGATE_RATE_LIMIT_PER_CREDENTIAL', d.perCredential, 0, 1_000_000),
    perIp: intSetting(env, 'CREDGATE_RATE_LIMIT_PER_IP', d.perIp, 0, 1_000_000),
    oauthFailuresPerIp: intSetting(env, 'CREDGATE_RATE_LIMIT_OAUTH_FAILURES', d.oauthFailuresPerIp ?? 20, 0, 1_000_000),
  });
}

export function parseDbTimeouts(env: NodeJS.ProcessEnv): DbTimeouts {
  const d = DB_TIMEOUT_DEFAULTS;
  return Object.freeze({
    poolSize: intSetting(env, 'CREDGATE_DB_POOL_SIZE', d.poolSize, 2, 1000),
    lockTimeoutMs: intSetting(env, 'CREDGATE_DB_LOCK_TIMEOUT_MS', d.lockTimeoutMs, 1, 600_000),
    statementTimeoutMs: intSetting(env, 'CREDGATE_DB_STATEMENT_TIMEOUT_MS', d.statementTimeoutMs, 1, 3_600_000),
    connectTimeoutMs: intSetting(env, 'CREDGATE_DB_CONNECT_TIMEOUT_MS', d.connectTimeoutMs, 100, 600_000),
  });
}

export function parseFairness(env: NodeJS.ProcessEnv, db: DbTimeouts): FairnessConfig {
  // Two connections stay free of writes by default, so a read never waits behind a write burst.
  const writeConcurrency = intSetting(env, 'CREDGATE_WRITE_CONCURRENCY', Math.max(1, db.poolSize - 2), 1, 1000);
  const tenantWriteConcurrency = intSetting(env, 'CREDGATE_TENANT_WRITE_CONCURRENCY', Math.min(FAIRNESS_DEFAULTS.tenantWriteConcurrency, writeConcurrency), 1, 1000);
  if (tenantWriteConcurrency > writeConcurrency) throw new ConfigError('CREDGATE_TENANT_WRITE_CONCURRENCY must not exceed CREDGATE_WRITE_CONCURRENCY');
  const share = env['CREDGATE_FACE_TENANT_SHARE']?.trim();
  return Object.freeze({
    writeConcurrency,
    tenantWriteConcurrency,
    tenantWriteQueue: intSetting(env, 'CREDGATE_TENANT_WRITE_QUEUE', FAIRNESS_DEFAULTS.tenantWriteQueue, 0, 100_000),
    faceTenantShare: share === undefined || share === '' ? undefined : intSetting(env, 'CREDGATE_FACE_TENANT_SHARE', 1, 1, 10_000),
  });
}
