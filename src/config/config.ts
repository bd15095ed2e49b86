import path from 'node:path';
import { DEFAULT_JSONLD_BUDGET } from './jsonld-budget';
import { DEFAULT_GRAPHQL_LIMITS, type GraphqlLimits } from './graphql-limits';
import { type DbTimeouts, type FairnessConfig, type RateLimitConfig, parseDbTimeouts, parseFairness, parseRateLimits } from './limits';
import { ConfigError, intSetting, nonEmpty } from './settings';
import { type AnchorConfig, parseAnchor } from './anchor';
import { type WitnessConfig, parseWitnesses } from './witnesses';
import { type DidResolutionConfig, parseDidResolution } from './did-resolution';
import { type VerificationLimits, parseVerificationLimits } from './verification';
import { type TrustProxy, parseTrustProxy } from './trust-proxy';
import { type HederaSettings, parseHederaConfig } from './hedera';
import { type Oid4vcKeysConfig, parseOid4vcKeys } from './oid4vc-keys';
import { type Oid4vciSettings, parseOid4vciSettings } from './oid4vci';
import { type ReadReplicaConfig, parseReadReplica } from './read-replica';

export { ConfigError } from './settings';

export type { DbTimeouts, FairnessConfig, RateLimitConfig } from './limits';
export type { AnchorConfig, AnchorMode, EvmAnchorSettings } from './anchor';
export type { WitnessConfig, WitnessEndpoint } from './witnesses';
export type { DidResolutionConfig } from './did-resolution';
export type { TrustProxy } from './trust-proxy';
export type { Oid4vcKeysConfig } from './oid4vc-keys';
export type { ReadReplicaConfig } from './read-replica';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export type DatabaseConfig =
  | { readonly kind: 'postgres'; readonly url: string }
  | { readonly kind: 'pglite'; readonly dataDir: string };

/** HTTP edge limits: what one client can make the process hold or wait for. */
export interface HttpLimits {
  /** Time allowed to receive request headers (slowloris). */
  readonly headersTimeoutMs: number;
  /** Time allowed to receive a whole request, body included. */
  readonly requestTimeoutMs: number;
  /** Open connections accepted at once; beyond it new connections are dropped. */
  readonly maxConnections: number;
  /** Bytes all in-flight photo uploads may hold together; beyond it 503 + Retry-After. */
  readonly uploadBudgetBytes: number;
  /** An upload that sends nothing for this long is answered 408 and disconnected. */
  readonly uploadIdleTimeoutMs: number;
}

export const DEFAULT_HTTP_LIMITS: HttpLimits = Object.freeze({
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 60_000,
  maxConnections: 1024,
  uploadBudgetBytes: 64 * 1024 * 1024,
  uploadIdleTimeoutMs: 10_000,
});

/** Idempotency keys live a day by default (the IETF draft suggests at least that). */
export const DEFAULT_IDEMPOTENCY_TTL_SECONDS = 86_400;
/** Entries of each in-process record cache (DIDs, templates, status list ids); 0 turns caching off. */
export const DEFAULT_CACHE_ENTRIES = 10_000;

/** Everything the service reads from the environment, parsed and checked once at start-up. */
export interface Config {
  readonly port: number;
  readonly host: string;
  readonly publicUrl: string;
  readonly database: DatabaseConfig;
  /** CREDGATE_READ_DATABASE_URL and its lag bounds: a streaming replica for read-only operations; absent: the primary only. */
  readonly readReplica?: ReadReplicaConfig | undefined;
  readonly dataDir: string;
  /** 32 raw bytes, or undefined when the embedded default should generate/load one from dataDir. */
  readonly masterKey: Buffer | undefined;
  /** CREDGATE_MASTER_KEY_PREVIOUS: during a master-key rotation, the old key (opens, never seals). */
  readonly masterKeyPrevious?: Buffer | undefined;
  readonly adminApiKey: string | undefined;
  readonly didMethod: string;
  readonly network: string;
  readonly logLevel: LogLevel;
  readonly bodyLimitBytes: number;
  /** Deepest JSON nesting accepted in any body (REST, GraphQL variables); deeper is 400 JSON_TOO_DEEP. */
  readonly jsonMaxDepth: number;
  /** GraphQL depth, alias, cost and token limits (CREDGATE_GRAPHQL_MAX_DEPTH/_ALIASES/_COST/_TOKENS). */
  readonly graphql: GraphqlLimits;
  /** GraphiQL at GET /graphql (CREDGATE_GRAPHQL_PLAYGROUND) and introspection (CREDGATE_GRAPHQL_INTROSPECTION). */
  readonly graphqlUi: { readonly playground: boolean; readonly introspection: boolean };
  /** The Swagger UI reference page at GET /docs (CREDGATE_API_DOCS); /openapi.json is always served. */
  readonly apiDocs: boolean;
  /** CREDGATE_VC_API_BASE: the base path of the W3C VC-API routes (default `/vc-api`). */
  readonly vcApiBase?: string;
  /** CREDGATE_HEADERS_TIMEOUT_MS, _REQUEST_TIMEOUT_MS, _MAX_CONNECTIONS, _UPLOAD_BUDGET_BYTES, _UPLOAD_IDLE_TIMEOUT_MS. */
  readonly http: HttpLimits;
  readonly faces: {
    /** Euclidean distance at or below which two faces match. */
    readonly threshold: number;
    readonly maxImageBytes: number;
    /** Inference workers; defaults to the number of cores. */
    readonly workers: number | undefined;
  };
  /**
   * Zero-knowledge range proofs (issue 18): worker threads, per-job deadline, admission capacity,
   * and `library`, the optional package's entry (null: not installed, the feature answers
   * FEATURE_OFF). Optional so hand-built configs keep working: the defaults then.
   */
  readonly zk?: {
    readonly workers: number;
    readonly deadlineMs: number;
    readonly capacity: number;
    readonly library?: string | null;
  };
  /**
   * W3C bbs-2023 (issue 18): worker threads and the deadline of one sign, derive or verify, over
   * which the worker is stopped and the request answers 503 + Retry-After. Optional so hand-built
   * configs keep working: the defaults then (src/formats/bbs-2023/engine.ts).
   */
  readonly bbs?: {
    readonly workers: number;
    readonly deadlineMs: number;
  };
  /** JSON-LD canonicalisation: structural budget, worker threads and deadline (docs/security/canon.md). */
  readonly canon: {
    readonly workers: number;
    readonly deadlineMs: number;
    readonly queueLimit: number;
    /** Most JSON objects a document may contain (each a potential blank node). */
    readonly maxObjects: number;
    /** Most JSON values (of any kind) a document may contain. */
    readonly maxValues: number;
  };
  /** Shared (PostgreSQL) rate limits on oracle-shaped and public routes. */
  readonly rateLimits: RateLimitConfig;
  /** Per-tenant fair admission of writes and face jobs. */
  readonly fairness: FairnessConfig;
  /** Pool size, lock and statement timeouts of PostgreSQL connections. */
  readonly dbTimeouts: DbTimeouts;
  /** The issuance sequencer: how long requests of one log wait to be batched, and the largest batch. */
  readonly batch: { readonly windowMs: number; readonly max: number };
  /** How long an Idempotency-Key is remembered (CREDGATE_IDEMPOTENCY_TTL_SECONDS); 24 h when absent. */
  readonly idempotencyTtlSeconds?: number;
  /** Checkpoint anchoring on an external ledger (CREDGATE_ANCHOR and its adapter's settings); none when absent. */
  readonly anchor?: AnchorConfig;
  /** Witnesses asked to cosign each new head, and the quorum (CREDGATE_WITNESSES, CREDGATE_WITNESS_QUORUM). */
  readonly witness?: WitnessConfig;

  /** Bound of each in-process record cache (CREDGATE_CACHE_ENTRIES); DEFAULT_CACHE_ENTRIES when absent, 0: off. */
  readonly cacheEntries?: number;
  /**
   * Longest an API key record is served from memory without hearing of it (CREDGATE_API_KEY_CACHE_TTL_MS):
   * the bound on how long a revoked key keeps working on an instance that missed the notice. 5000 when absent, 0: off.
   */
  readonly apiKeyCacheTtlMs?: number;

  /** Hedera anchoring (CREDGATE_HEDERA_*): undefined when none of its variables is set. */
  readonly hedera?: HederaSettings;

  /** Fetching did:web documents, other issuers' status lists and Universal Resolver answers (CREDGATE_FETCH_*). */
  readonly didResolution?: DidResolutionConfig;
  /** The per-request verification budget (CREDGATE_VERIFY_*); DEFAULT_VERIFICATION_LIMITS when absent. */
  readonly verification?: VerificationLimits;
  /** OAuth2 client-credentials access tokens (CREDGATE_OAUTH_TOKEN_TTL_SECONDS); DEFAULT_OAUTH when absent. */
  readonly oauth?: OAuthConfig;
  /** Reverse proxies allowed to name the client in X-Forwarded-For (CREDGATE_TRUST_PROXY); off when absent. */
  readonly trustProxy?: TrustProxy;
  /** Certificates of the OpenID4VC signing keys and the verifier's trust anchors (CREDGATE_OID4VC_ISSUER_*_FILE, CREDGATE_OID4VC_TRUST_ANCHORS_FILE). */
  readonly oid4vcKeys?: Oid4vcKeysConfig;
  /** OpenID4VCI issuer policies (CREDGATE_OID4VCI_*); DEFAULT_OID4VCI_SETTINGS when absent. */
  readonly oid4vci?: Oid4vciSettings;
}

export interface OAuthConfig {
  /** Lifetime of an access token in seconds. */
  readonly tokenTtlSeconds: number;
}

/** Ten minutes: long enough for a batch of calls, short enough that a stolen token soon dies. */
export const DEFAULT_OAUTH: OAuthConfig = Object.freeze({ tokenTtlSeconds: 600 });

/** Raised for a bad environment; main prints its one-line message and exits non-zero. */
const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
// DID Core: method-name = 1*method-char (lowercase letters and digits).
const METHOD_RE = /^[a-z0-9]+$/;
const NETWORK_RE = /^[a-z0-9]+(-[a-z0-9]+)*$/;

function parsePort(raw: string | undefined): number {
  if (raw === undefined) return 4000;
  if (!/^\d+$/.test(raw) || Number(raw) > 65535) {
    throw new ConfigError('PORT must be an integer from 0 to 65535');
  }
  return Number(raw);
}

/** A 32-byte key as 64 hex digits or 44 base64 characters (also used by `credgate master-key rotate`). */
export function parseMasterKey(raw: string | undefined, name = 'CREDGATE_MASTER_KEY'): Buffer | undefined {
  if (raw === undefined) return undefined;
  if (/^[0-9a-fA-F]{64}$/.test(raw)) return Buffer.from(raw, 'hex');
  if (/^[A-Za-z0-9+/]{43}=$/.test(raw)) return Buffer.from(raw, 'base64');
  throw new ConfigError(`${name} must be 32 bytes as 64 hex digits or 44 base64 characters`);
}

function parseDatabaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('DATABASE_URL is not a valid URL');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new ConfigError('DATABASE_URL must be a postgres:// or postgresql:// URL');
  }
  return raw;
}

function parseBodyLimit(raw: string | undefined): number {
  if (raw === undefined) return 1024 * 1024;
  if (!/^\d+$/.test(raw) || Number(raw) < 1024) {
    throw new ConfigError('CREDGATE_BODY_LIMIT_BYTES must be an integer of at least 1024');
  }
  return Number(raw);
}

/** A positive integer from the environment within [min, max], or the default. */
/** An on/off switch: true/false, 1/0, on/off, yes/no (any case); unset is the default. */
function boolSetting(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = nonEmpty(env, name);
  if (raw === undefined) return fallback;
  const v = raw.trim().toLowerCase();
  if (['true', '1', 'on', 'yes'].includes(v)) return true;
  if (['false', '0', 'off', 'no'].includes(v)) return false;
  throw new ConfigError(`${name} must be true or false`);
}

function parseFaces(env: NodeJS.ProcessEnv): Config['faces'] {
  const t = nonEmpty(env, 'CREDGATE_FACE_THRESHOLD');
  const threshold = t === undefined ? 0.6 : Number(t);
  if (t !== undefined && (!/^\d*\.?\d+$/.test(t) || threshold <= 0 || threshold >= 2)) {
    throw new ConfigError('CREDGATE_FACE_THRESHOLD must be a number between 0 and 2 (exclusive)');
  }
  const m = nonEmpty(env, 'CREDGATE_FACE_MAX_IMAGE_BYTES');
  if (m !== undefined && (!/^\d+$/.test(m) || Number(m) < 1024)) throw new ConfigError('CREDGATE_FACE_MAX_IMAGE_BYTES must be an integer of at least 1024');
  const w = nonEmpty(env, 'CREDGATE_FACE_WORKERS');
  if (w !== undefined && (!/^\d+$/.test(w) || Number(w) < 1 || Number(w) > 64)) throw new ConfigError('CREDGATE_FACE_WORKERS must be an integer from 1 to 64');
  return { threshold, maxImageBytes: m === undefined ? 8 * 1024 * 1024 : Number(m), workers: w === undefined ? undefined : Number(w) };
}

function intIn(env: NodeJS.ProcessEnv, name: string, min: number, max: number, fallback: number): number {
  const raw = nonEmpty(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) throw new ConfigError(`${name} must be an integer from ${min} to ${max}`);
  return Number(raw);
}

function parseZk(env: NodeJS.ProcessEnv): NonNullable<Config['zk']> {
  return {
    // A range proof takes about a second of one core: two workers keep one request per core.
    workers: intIn(env, 'CREDGATE_ZK_WORKERS', 1, 64, 2),
    deadlineMs: intIn(env, 'CREDGATE_ZK_DEADLINE_MS', 10, 600_000, 30_000),
    capacity: intIn(env, 'CREDGATE_ZK_CAPACITY', 1, 100_000, 64),
  };
}

function parseBbs(env: NodeJS.ProcessEnv): NonNullable<Config['bbs']> {
  return {
    // A derivation or verification is 100-200 ms of one core: two workers keep one job per core.
    workers: intIn(env, 'CREDGATE_BBS_WORKERS', 1, 64, 2),
    deadlineMs: intIn(env, 'CREDGATE_BBS_DEADLINE_MS', 10, 600_000, 10_000),
  };
}

function parseCanon(env: NodeJS.ProcessEnv): Config['canon'] {
  return {
    // Two workers: enough for honest traffic (a credential canonicalises in milliseconds) while a
    // hostile burst can occupy at most two cores for one deadline each.
    workers: intIn(env, 'CREDGATE_CANON_WORKERS', 1, 64, 2),
    deadlineMs: intIn(env, 'CREDGATE_CANON_DEADLINE_MS', 10, 600_000, 2000),
    queueLimit: intIn(env, 'CREDGATE_CANON_QUEUE_LIMIT', 1, 100_000, 256),
    maxObjects: intIn(env, 'CREDGATE_JSONLD_MAX_OBJECTS', 16, 10_000_000, DEFAULT_JSONLD_BUDGET.maxObjects),
    maxValues: intIn(env, 'CREDGATE_JSONLD_MAX_VALUES', 64, 100_000_000, DEFAULT_JSONLD_BUDGET.maxValues),
  };
}

/**
 * Parses the environment into a frozen Config. Throws ConfigError with a one-line reason on the
 * first invalid value, so start-up fails fast instead of misbehaving later.
 */
export function parseConfig(env: NodeJS.ProcessEnv, cwd: string = process.cwd()): Config {
  const port = parsePort(nonEmpty(env, 'PORT'));
  const host = nonEmpty(env, 'HOST') ?? '127.0.0.1';
  const dataDir = path.resolve(cwd, nonEmpty(env, 'CREDGATE_DATA_DIR') ?? '.credgate');
  const dbUrl = nonEmpty(env, 'DATABASE_URL');
  const database: DatabaseConfig = dbUrl
    ? { kind: 'postgres', url: parseDatabaseUrl(dbUrl) }
    : { kind: 'pglite', dataDir: path.join(dataDir, 'pgdata') };
  const masterKey = parseMasterKey(nonEmpty(env, 'CREDGATE_MASTER_KEY'));
  if (database.kind === 'postgres' && masterKey === undefined) {
    // A generated key file only makes sense next to an embedded database it travels with.
    throw new ConfigError('CREDGATE_MASTER_KEY is required when DATABASE_URL is set');
  }
  const masterKeyPrevious = parseMasterKey(nonEmpty(env, 'CREDGATE_MASTER_KEY_PREVIOUS'), 'CREDGATE_MASTER_KEY_PREVIOUS');
  if (masterKeyPrevious && !masterKey) throw new ConfigError('CREDGATE_MASTER_KEY_PREVIOUS needs CREDGATE_MASTER_KEY (the new key)');
  const adminApiKey = nonEmpty(env, 'CREDGATE_ADMIN_API_KEY');
  if (adminApiKey !== undefined && adminApiKey.length < 24) {
    throw new ConfigError('CREDGATE_ADMIN_API_KEY must be at least 24 characters');
  }
  const didMethod = nonEmpty(env, 'CREDGATE_DID_METHOD') ?? 'credgate';
  if (!METHOD_RE.test(didMethod) || didMethod === 'key') {
    throw new ConfigError('CREDGATE_DID_METHOD must be lowercase letters and digits, and not "key"');
  }
  const network = nonEmpty(env, 'CREDGATE_NETWORK') ?? 'local';
  if (!NETWORK_RE.test(network)) {
    throw new ConfigError('CREDGATE_NETWORK must be lowercase letters, digits and inner hyphens');
  }
  const logLevel = (nonEmpty(env, 'LOG_LEVEL') ?? 'info') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  }
  const publicUrlRaw = nonEmpty(env, 'CREDGATE_PUBLIC_URL') ?? `http://${host}:${port}`;
  let publicUrl: string;
  try {
    publicUrl = new URL(publicUrlRaw).toString().replace(/\/$/, '');
  } catch {
    throw new ConfigError('CREDGATE_PUBLIC_URL is not a valid URL');
  }
  const dbTimeouts = parseDbTimeouts(env);
  return Object.freeze({
    port,
    host,
    publicUrl,
    database,
    readReplica: parseReadReplica(env, database.kind),
    dataDir,
    masterKey,
    ...(masterKeyPrevious ? { masterKeyPrevious } : {}),
    adminApiKey,
    didMethod,
    network,
    logLevel,
    bodyLimitBytes: parseBodyLimit(nonEmpty(env, 'CREDGATE_BODY_LIMIT_BYTES')),
    jsonMaxDepth: intSetting(env, 'CREDGATE_JSON_MAX_DEPTH', 64, 8, 1000),
    graphql: Object.freeze({
      maxDepth: intSetting(env, 'CREDGATE_GRAPHQL_MAX_DEPTH', DEFAULT_GRAPHQL_LIMITS.maxDepth, 3, 100),
      maxAliases: intSetting(env, 'CREDGATE_GRAPHQL_MAX_ALIASES', DEFAULT_GRAPHQL_LIMITS.maxAliases, 0, 1000),
      maxCost: intSetting(env, 'CREDGATE_GRAPHQL_MAX_COST', DEFAULT_GRAPHQL_LIMITS.maxCost, 100, 1_000_000),
      maxTokens: intSetting(env, 'CREDGATE_GRAPHQL_MAX_TOKENS', DEFAULT_GRAPHQL_LIMITS.maxTokens, 1000, 1_000_000),
    }),
    graphqlUi: Object.freeze({
      playground: boolSetting(env, 'CREDGATE_GRAPHQL_PLAYGROUND', true),
      introspection: boolSetting(env, 'CREDGATE_GRAPHQL_INTROSPECTION', true),
    }),
    apiDocs: boolSetting(env, 'CREDGATE_API_DOCS', true),
    vcApiBase: parseVcApiBase(nonEmpty(env, 'CREDGATE_VC_API_BASE')),
    faces: Object.freeze(parseFaces(env)),
    canon: Object.freeze(parseCanon(env)),
    zk: Object.freeze(parseZk(env)),
    bbs: Object.freeze(parseBbs(env)),
    // 2 ms costs a lone request little next to its ~4 ms commit, and lets a burst share one commit.
    batch: Object.freeze({ windowMs: intIn(env, 'CREDGATE_BATCH_WINDOW_MS', 0, 1000, 2), max: intIn(env, 'CREDGATE_BATCH_MAX', 1, 10_000, 128) }),
    http: Object.freeze({
      headersTimeoutMs: intSetting(env, 'CREDGATE_HEADERS_TIMEOUT_MS', DEFAULT_HTTP_LIMITS.headersTimeoutMs, 1000, 600_000),
      requestTimeoutMs: intSetting(env, 'CREDGATE_REQUEST_TIMEOUT_MS', DEFAULT_HTTP_LIMITS.requestTimeoutMs, 1000, 3_600_000),
      maxConnections: intSetting(env, 'CREDGATE_MAX_CONNECTIONS', DEFAULT_HTTP_LIMITS.maxConnections, 1, 1_000_000),
      uploadBudgetBytes: intSetting(env, 'CREDGATE_UPLOAD_BUDGET_BYTES', DEFAULT_HTTP_LIMITS.uploadBudgetBytes, 1024 * 1024, 2 ** 40),
      uploadIdleTimeoutMs: intSetting(env, 'CREDGATE_UPLOAD_IDLE_TIMEOUT_MS', DEFAULT_HTTP_LIMITS.uploadIdleTimeoutMs, 100, 600_000),
    }),
    rateLimits: parseRateLimits(env),
    dbTimeouts,
    idempotencyTtlSeconds: intSetting(env, 'CREDGATE_IDEMPOTENCY_TTL_SECONDS', DEFAULT_IDEMPOTENCY_TTL_SECONDS, 60, 30 * 86_400),
    cacheEntries: intSetting(env, 'CREDGATE_CACHE_ENTRIES', DEFAULT_CACHE_ENTRIES, 0, 10_000_000),
    apiKeyCacheTtlMs: intSetting(env, 'CREDGATE_API_KEY_CACHE_TTL_MS', 5_000, 0, 60_000),
    fairness: parseFairness(env, dbTimeouts),
    anchor: Object.freeze(parseAnchor(env)),
    witness: parseWitnesses(env),
    hedera: parseHederaConfig(env),
    didResolution: parseDidResolution(env, cwd),
    verification: parseVerificationLimits(env),
    trustProxy: parseTrustProxy(env),
    oid4vcKeys: parseOid4vcKeys(env, cwd),
    oid4vci: parseOid4vciSettings(env),
    oauth: Object.freeze({ tokenTtlSeconds: intSetting(env, 'CREDGATE_OAUTH_TOKEN_TTL_SECONDS', DEFAULT_OAUTH.tokenTtlSeconds, 30, 86_400) }),
  });
}

/** `/vc-api`, `/w3c/vc`: one or more literal path segments, no trailing slash. */
function parseVcApiBase(raw: string | undefined): string {
  if (raw === undefined) return '/vc-api';
  if (!/^(\/[A-Za-z0-9._~-]+)+$/.test(raw)) throw new ConfigError('CREDGATE_VC_API_BASE must be a path such as /vc-api (literal segments, no trailing slash)');
  return raw;
}
