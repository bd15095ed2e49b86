import { ConfigError, nonEmpty } from './settings';

export type AnchorMode = 'none' | 'evm' | 'hedera';

/** The EVM adapter's settings. The private key is the anchoring account's: never log it. */
export interface EvmAnchorSettings {
  readonly rpcUrl: string;
  /** 0x-address of the deployed contracts/CredgateAnchor.sol. */
  readonly contract: `0x${string}`;
  /** 0x + 64 hex digits. */
  readonly privateKey: `0x${string}`;
}

/** How src/anchor/relay.ts polls, claims and retries outbox rows; defaults below (not read from the environment). */
export interface RelayOptions {
  /** Pause between polls when nothing was due. */
  readonly pollMs: number;
  /** Rows claimed per poll. */
  readonly batchSize: number;
  /**
   * How long a claim keeps other relays off a row. Rows of a claim are submitted one after the
   * other, so it should cover batchSize submissions (each up to the adapter's mining timeout); if
   * it runs out anyway, another relay's `find` and the idempotent contract still prevent a double anchor.
   */
  readonly leaseMs: number;
  /** First retry delay; doubles per attempt up to maxDelayMs, with jitter. */
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** Attempts after which a row is `failed` (an operator sets it back to pending). */
  readonly maxAttempts: number;
}

export const DEFAULT_RELAY_OPTIONS: RelayOptions = Object.freeze({
  pollMs: 1000,
  batchSize: 5,
  leaseMs: 10 * 60_000,
  baseDelayMs: 2000,
  maxDelayMs: 15 * 60_000,
  maxAttempts: 50,
});

/** CREDGATE_ANCHOR and the settings of the chosen adapter (see docs/OPERATIONS.md "Anchoring"). */
export interface AnchorConfig {
  readonly mode: AnchorMode;
  readonly evm?: EvmAnchorSettings;
  /** Relay tuning; defaults in DEFAULT_RELAY_OPTIONS (not read from the environment). */
  readonly relay?: Partial<RelayOptions>;
}

const MODES: readonly AnchorMode[] = ['none', 'evm', 'hedera'];

function required(env: NodeJS.ProcessEnv, name: string, mode: AnchorMode): string {
  const v = nonEmpty(env, name);
  if (v === undefined) throw new ConfigError(`${name} is required when CREDGATE_ANCHOR=${mode}`);
  return v;
}

function parseEvm(env: NodeJS.ProcessEnv): EvmAnchorSettings {
  const rpcUrl = required(env, 'CREDGATE_EVM_RPC_URL', 'evm');
  let url: URL;
  try {
    url = new URL(rpcUrl);
  } catch {
    throw new ConfigError('CREDGATE_EVM_RPC_URL is not a valid URL');
  }
  if (!['http:', 'https:'].includes(url.protocol)) throw new ConfigError('CREDGATE_EVM_RPC_URL must be an http:// or https:// URL');
  const contract = required(env, 'CREDGATE_EVM_CONTRACT', 'evm');
  if (!/^0x[0-9a-fA-F]{40}$/.test(contract)) throw new ConfigError('CREDGATE_EVM_CONTRACT must be a 0x-prefixed 20-byte address');
  const privateKey = required(env, 'CREDGATE_EVM_PRIVATE_KEY', 'evm');
  // The message never repeats the value.
  if (!/^0x[0-9a-fA-F]{64}$/.test(privateKey)) throw new ConfigError('CREDGATE_EVM_PRIVATE_KEY must be 0x followed by 64 hex digits');
  return { rpcUrl, contract: contract as `0x${string}`, privateKey: privateKey as `0x${string}` };
}

export function parseAnchor(env: NodeJS.ProcessEnv): AnchorConfig {
  const mode = (nonEmpty(env, 'CREDGATE_ANCHOR') ?? 'none').toLowerCase() as AnchorMode;
  if (!MODES.includes(mode)) throw new ConfigError(`CREDGATE_ANCHOR must be one of ${MODES.join(', ')}`);
  if (mode === 'evm') return { mode, evm: parseEvm(env) };
  return { mode };
}
