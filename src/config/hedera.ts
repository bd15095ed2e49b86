/**
 * CREDGATE_HEDERA_* settings, parsed without loading @hashgraph/sdk (parseConfig calls this at
 * start-up for every deployment; the SDK is only imported when CREDGATE_ANCHOR=hedera).
 */
import { ConfigError, nonEmpty } from './settings';

/** Names of the Hedera anchor's variables. */
export const HEDERA_ENV = Object.freeze({
  network: 'CREDGATE_HEDERA_NETWORK',
  mirrorUrl: 'CREDGATE_HEDERA_MIRROR_URL',
  operatorId: 'CREDGATE_HEDERA_OPERATOR_ID',
  operatorKey: 'CREDGATE_HEDERA_OPERATOR_KEY',
  topicId: 'CREDGATE_HEDERA_TOPIC_ID',
  perDid: 'CREDGATE_HEDERA_PER_DID',
  entityTimeoutMs: 'CREDGATE_HEDERA_ENTITY_TIMEOUT_MS',
} as const);

/** Public mirror nodes of the named networks (docs.hedera.com, "Mirror Node REST API"). */
export const PUBLIC_MIRRORS = Object.freeze({
  testnet: 'https://testnet.mirrornode.hedera.com',
  mainnet: 'https://mainnet-public.mirrornode.hedera.com',
});

export type HederaNetwork = keyof typeof PUBLIC_MIRRORS | Readonly<Record<string, string>>;

/** The operator's private key, kept out of logs, JSON and util.inspect output. */
export class SecretKey {
  readonly #value: string;
  constructor(value: string) {
    this.#value = value;
  }
  reveal(): string {
    return this.#value;
  }
  toJSON(): string {
    return '[redacted]';
  }
  toString(): string {
    return '[redacted]';
  }
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return '[redacted]';
  }
}

export interface HederaSettings {
  /** A named network, or consensus nodes `{ "host:port": "0.0.<node account>" }`. */
  readonly network: HederaNetwork;
  /** Mirror node REST base URL (no trailing slash, without /api/v1). */
  readonly mirrorUrl: string;
  readonly operatorId: string;
  readonly operatorKey: SecretKey;
  /** Topic that receives the checkpoints of logs without a topic of their own. */
  readonly topicId: string | undefined;
  /**
   * Per-DID entities (CREDGATE_HEDERA_PER_DID, default true): each new DID gets its credential and
   * template topics and its DID document file on Hedera, and those ids are its log ids. False: the
   * service numbers logs itself and every checkpoint goes to `topicId`.
   */
  readonly perDid?: boolean;
  /** How long creating a DID waits for its Hedera entities before answering 503, ms (default 20 000). */
  readonly entityTimeoutMs?: number;
}

const ENTITY_RE = /^\d{1,10}\.\d{1,10}\.\d{1,19}$/;
const HOST_PORT_RE = /^[A-Za-z0-9.-]+:\d{1,5}$/;
/** DER (hex) of an ed25519 or secp256k1 private key, or a raw 32-byte hex key with its type. */
const KEY_RE = /^(?:(?:0x)?30[0-9a-fA-F]{60,}|(?:ed25519|ecdsa):(?:0x)?[0-9a-fA-F]{64})$/;

function parseNetwork(raw: string): HederaNetwork {
  if (raw === 'testnet' || raw === 'mainnet') return raw;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    parsed = undefined;
  }
  const entries = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? Object.entries(parsed) : [];
  if (entries.length === 0 || !entries.every(([addr, id]) => HOST_PORT_RE.test(addr) && typeof id === 'string' && ENTITY_RE.test(id))) {
    throw new ConfigError(`${HEDERA_ENV.network} must be testnet, mainnet or a JSON object {"host:port":"0.0.<node account>"}`);
  }
  return Object.freeze(Object.fromEntries(entries) as Record<string, string>);
}

function parseEntity(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = nonEmpty(env, name);
  if (raw !== undefined && !ENTITY_RE.test(raw)) throw new ConfigError(`${name} must be an entity id shard.realm.num, e.g. 0.0.1234`);
  return raw;
}

function parseBoolean(env: NodeJS.ProcessEnv, name: string): boolean | undefined {
  const raw = nonEmpty(env, name)?.toLowerCase();
  if (raw === undefined) return undefined;
  if (raw !== 'true' && raw !== 'false') throw new ConfigError(`${name} must be true or false`);
  return raw === 'true';
}

function parseTimeout(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const raw = nonEmpty(env, name);
  if (raw === undefined) return undefined;
  if (!/^\d{1,7}$/.test(raw) || Number(raw) < 1000) throw new ConfigError(`${name} must be a whole number of milliseconds, at least 1000`);
  return Number(raw);
}

/**
 * The Hedera settings, or undefined when no CREDGATE_HEDERA_* variable is set. Pure: reads only
 * `env`. The key's value never appears in an error message.
 */
export function parseHederaConfig(env: NodeJS.ProcessEnv): HederaSettings | undefined {
  if (Object.values(HEDERA_ENV).every((name) => nonEmpty(env, name) === undefined)) return undefined;
  const networkRaw = nonEmpty(env, HEDERA_ENV.network);
  const operatorId = parseEntity(env, HEDERA_ENV.operatorId);
  const key = nonEmpty(env, HEDERA_ENV.operatorKey);
  if (networkRaw === undefined || operatorId === undefined || key === undefined) {
    throw new ConfigError(`${HEDERA_ENV.network}, ${HEDERA_ENV.operatorId} and ${HEDERA_ENV.operatorKey} are required together`);
  }
  if (!KEY_RE.test(key)) {
    throw new ConfigError(`${HEDERA_ENV.operatorKey} must be a DER private key in hex, or ed25519:<64 hex> / ecdsa:<64 hex>`);
  }
  const network = parseNetwork(networkRaw);
  const mirrorRaw = nonEmpty(env, HEDERA_ENV.mirrorUrl) ?? (typeof network === 'string' ? PUBLIC_MIRRORS[network] : undefined);
  if (mirrorRaw === undefined) throw new ConfigError(`${HEDERA_ENV.mirrorUrl} is required with a custom ${HEDERA_ENV.network}`);
  if (!URL.canParse(mirrorRaw) || !['http:', 'https:'].includes(new URL(mirrorRaw).protocol)) {
    throw new ConfigError(`${HEDERA_ENV.mirrorUrl} must be an http(s) URL`);
  }
  return Object.freeze({
    network,
    mirrorUrl: mirrorRaw.replace(/\/+$/, '').replace(/\/api\/v1$/, ''),
    operatorId,
    operatorKey: new SecretKey(key),
    topicId: parseEntity(env, HEDERA_ENV.topicId),
    perDid: parseBoolean(env, HEDERA_ENV.perDid) ?? true,
    entityTimeoutMs: parseTimeout(env, HEDERA_ENV.entityTimeoutMs) ?? 20_000,
  });
}
