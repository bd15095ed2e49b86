/**
 * Entry point of the Hedera anchor, imported dynamically only when CREDGATE_ANCHOR=hedera so the
 * core never loads @hashgraph/sdk (an optional dependency).
 */
import { AnchorRejected } from '../anchor.port';
import { HederaAnchor, type Sdk } from './adapter';
import { type HederaNetwork, SecretKey } from './config';
import { MirrorClient } from './mirror';

export { FILE_CHUNK_BYTES, HederaAnchor } from './adapter';
export type { DidLedgerEntities } from '../anchor.port';
export { type HederaSettings, parseHederaConfig } from './config';

export interface HederaAnchorOptions {
  /** `testnet`, `mainnet`, or consensus nodes `{ "127.0.0.1:50211": "0.0.3" }`. */
  readonly network: HederaNetwork;
  /** Mirror node REST base URL, e.g. https://testnet.mirrornode.hedera.com. */
  readonly mirrorUrl: string;
  readonly operatorId: string;
  /** DER hex (ed25519 or secp256k1), or `ed25519:<hex>` / `ecdsa:<hex>` for a raw 32-byte key. */
  readonly operatorKey: string | SecretKey;
  /** Topic per log id (a DID's credential/template log → its topic). */
  readonly topics?: Readonly<Record<string, string>>;
  /** Topic-per-DID resolver, asked when `topics` has no entry; null: use `topicId`. */
  readonly topicFor?: (logId: string) => string | null | Promise<string | null>;
  /** DID document-file logs: the current document of the DID whose `ledgerFileId` is `logId`, or null (see HederaAnchorParts.fileFor). */
  readonly fileFor?: (logId: string) => Promise<Uint8Array | null>;
  /** Topic for logs neither `topics` nor `topicFor` names. */
  readonly topicId?: string;
  /** Network name shown in receipts (`hedera:<name>`); defaults to the named network or `local`. */
  readonly networkName?: string;
  /** SDK attempts per transaction before the relay's own backoff takes over (default 5). */
  readonly maxAttempts?: number;
  /** SDK time budget per transaction, ms (default 30 000). */
  readonly requestTimeoutMs?: number;
  /** SDK deadline of one gRPC call, ms (default 10 000; at most requestTimeoutMs). */
  readonly grpcDeadlineMs?: number;
  /** Mirror polling interval and total wait after consensus, ms (defaults 500 / 20 000). */
  readonly mirrorPollMs?: number;
  readonly mirrorWaitMs?: number;
}

function parseKey(sdk: Sdk, raw: string): InstanceType<Sdk['PrivateKey']> {
  const hex = (s: string): string => s.replace(/^0x/, '');
  try {
    if (raw.startsWith('ed25519:')) return sdk.PrivateKey.fromStringED25519(hex(raw.slice(8)));
    if (raw.startsWith('ecdsa:')) return sdk.PrivateKey.fromStringECDSA(hex(raw.slice(6)));
    return sdk.PrivateKey.fromStringDer(hex(raw));
  } catch {
    // Never echo the key: only say what shape was expected.
    throw new AnchorRejected('the Hedera operator key is not a DER ed25519/secp256k1 private key (hex) or ed25519:/ecdsa: raw hex');
  }
}

/**
 * Builds the adapter: an SDK client for the consensus nodes, and a REST client for the mirror.
 * Parsed CREDGATE_HEDERA_* settings (`config.hedera`) are valid options as they are.
 */
export async function createHederaAnchor(options: HederaAnchorOptions): Promise<HederaAnchor> {
  const sdk: Sdk = await import('@hashgraph/sdk');
  const key = options.operatorKey instanceof SecretKey ? options.operatorKey.reveal() : options.operatorKey;
  const operatorKey = parseKey(sdk, key);
  const client = typeof options.network === 'string' ? sdk.Client.forName(options.network) : sdk.Client.forNetwork({ ...options.network });
  client.setOperator(options.operatorId, operatorKey);
  client.setMaxAttempts(options.maxAttempts ?? 5);
  const requestTimeout = options.requestTimeoutMs ?? 30_000;
  client.setGrpcDeadline(Math.min(options.grpcDeadlineMs ?? 10_000, requestTimeout));
  client.setRequestTimeout(requestTimeout);
  const topics = options.topics ?? {};
  const topicFor = async (logId: string): Promise<string | null> => topics[logId] ?? (await options.topicFor?.(logId)) ?? options.topicId ?? null;
  return new HederaAnchor({
    sdk,
    client,
    operatorKey,
    mirror: new MirrorClient(options.mirrorUrl.replace(/\/+$/, ''), Math.min(requestTimeout, 10_000)),
    network: `hedera:${options.networkName ?? (typeof options.network === 'string' ? options.network : 'local')}`,
    topicFor,
    ...(options.fileFor ? { fileFor: options.fileFor } : {}),
    mirrorPollMs: options.mirrorPollMs ?? 500,
    mirrorWaitMs: options.mirrorWaitMs ?? 20_000,
  });
}
