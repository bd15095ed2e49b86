import {
  type Account,
  type Address,
  type Chain,
  type Hex,
  type Log,
  type PublicClient,
  type Transport,
  type WalletClient,
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createWalletClient,
  defineChain,
  http,
  keccak256,
  parseEventLogs,
  toBytes,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { EvmAnchorSettings } from '../../config/anchor';
import { type AnchorAdapter, type AnchorCheckpoint, type AnchorExpectation, type AnchorReceipt, AnchorRejected, type ReceiptCheck } from '../anchor.port';
import { ANCHOR_ABI } from './artifact';

/** One RPC call may take this long; the relay retries the whole submission, so viem's own retries are off. */
const RPC_TIMEOUT_MS = 10_000;
/** A submitted transaction must be mined within this (well under the relay lease). */
const MINE_TIMEOUT_MS = 60_000;

export const rootToBytes32 = (rootHash: string): Hex => `0x${Buffer.from(rootHash, 'base64').toString('hex')}`;
const bytes32ToRoot = (hex: Hex): string => Buffer.from(hex.slice(2), 'hex').toString('base64');
const logKeyOf = (logId: string): Hex => keccak256(toBytes(logId));

export function evmTransport(rpcUrl: string): Transport {
  return http(rpcUrl, { retryCount: 0, timeout: RPC_TIMEOUT_MS });
}

/** Reads the chain id once, so viem checks every transaction is signed for the chain it is sent to. */
export async function connectChain(rpcUrl: string): Promise<{ chain: Chain; publicClient: PublicClient }> {
  const probe = createPublicClient({ transport: evmTransport(rpcUrl) });
  const id = await probe.getChainId();
  const chain = defineChain({ id, name: `evm-${id}`, nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [rpcUrl] } } });
  return { chain, publicClient: createPublicClient({ chain, transport: evmTransport(rpcUrl) }) };
}

type AnchoredLog = Log<bigint, number, false, (typeof ANCHOR_ABI)[number] & { type: 'event' }> & {
  args: { logKey: Hex; size: bigint; root: Hex; logId: string };
};

/**
 * Anchors checkpoints in contracts/CredgateAnchor.sol with viem. The contract keeps the first root
 * of each (logId, size) forever and ignores an identical resubmission, so `submit` is idempotent;
 * `find` reads the `Anchored` event back for a crash between submit and record.
 */
interface Connection {
  readonly publicClient: PublicClient;
  readonly wallet: WalletClient<Transport, Chain, Account>;
}

export class EvmAnchorAdapter implements AnchorAdapter {
  readonly kind = 'evm' as const;
  #chainId: number | undefined;
  #connection: Promise<Connection> | undefined;
  // The key stays in this closure and then inside viem's account; nothing here is ever logged.
  readonly #connect: () => Promise<Connection>;

  private readonly contract: Address;

  constructor(settings: EvmAnchorSettings) {
    const { rpcUrl, privateKey } = settings;
    this.contract = settings.contract;
    this.#connect = async () => {
      const { chain, publicClient } = await connectChain(rpcUrl);
      this.#chainId = chain.id;
      return { publicClient, wallet: createWalletClient({ account: privateKeyToAccount(privateKey), chain, transport: evmTransport(rpcUrl) }) };
    };
  }

  /** `evm:<chainId>`; just `evm` until the chain was first reached. */
  get network(): string {
    return this.#chainId === undefined ? 'evm' : `evm:${this.#chainId}`;
  }

  /**
   * Connects on first use, not at start-up: a chain that is down when the service starts delays
   * anchoring (the relay retries) but never keeps the service from starting. A failed connection
   * is forgotten so the next call tries again.
   */
  private connection(): Promise<Connection> {
    this.#connection ??= this.#connect().catch((e: unknown) => {
      this.#connection = undefined;
      throw e;
    });
    return this.#connection;
  }

  async submit(cp: AnchorCheckpoint): Promise<AnchorReceipt> {
    const { publicClient, wallet } = await this.connection();
    const args = [cp.logId, BigInt(cp.treeSize), rootToBytes32(cp.rootHash)] as const;
    let created: boolean;
    let request;
    try {
      ({ result: created, request } = await publicClient.simulateContract({ address: this.contract, abi: ANCHOR_ABI, functionName: 'anchor', args, account: wallet.account }));
    } catch (e) {
      throw this.classify(e, cp);
    }
    if (!created) {
      // Already on chain with this very root (an earlier attempt went through): no new transaction.
      const earlier = await this.find(cp);
      if (earlier) return earlier;
      throw new Error(`the contract reports (${cp.logId}, ${cp.treeSize}) anchored but its event was not found`);
    }
    const hash = await wallet.writeContract(request);
    const mined = await publicClient.waitForTransactionReceipt({ hash, timeout: MINE_TIMEOUT_MS });
    if (mined.status !== 'success') throw new Error(`anchoring transaction ${hash} reverted`);
    const event = this.anchoredEvents(mined.logs).find((l) => l.args.logId === cp.logId && l.args.size === BigInt(cp.treeSize));
    if (!event) throw new Error(`anchoring transaction ${hash} emitted no Anchored event`);
    return this.receiptOf(event);
  }

  async find(cp: Pick<AnchorCheckpoint, 'logId' | 'treeSize'>): Promise<AnchorReceipt | null> {
    const { publicClient } = await this.connection();
    const stored = await publicClient.readContract({ address: this.contract, abi: ANCHOR_ABI, functionName: 'rootOf', args: [cp.logId, BigInt(cp.treeSize)] });
    if (/^0x0+$/.test(stored)) return null;
    // Both topics are indexed, so the node filters; fromBlock 0 is fine for a contract's own events.
    const logs = await publicClient.getLogs({
      address: this.contract,
      event: ANCHOR_ABI.find((x) => x.type === 'event' && x.name === 'Anchored')!,
      args: { logKey: logKeyOf(cp.logId), size: BigInt(cp.treeSize) },
      fromBlock: 0n,
      toBlock: 'latest',
    });
    const event = this.anchoredEvents(logs).find((l) => l.args.logId === cp.logId);
    return event ? this.receiptOf(event) : null;
  }

  async checkReceipt(receipt: AnchorReceipt, expected: AnchorExpectation): Promise<ReceiptCheck> {
    let publicClient: PublicClient;
    try {
      ({ publicClient } = await this.connection());
    } catch (e) {
      return { status: 'unavailable', reason: e instanceof BaseError ? e.shortMessage : 'the chain could not be reached' };
    }
    if (receipt.adapter !== 'evm' || receipt.network !== this.network || receipt.target.toLowerCase() !== this.contract.toLowerCase()) {
      return { status: 'unavailable', reason: `the receipt is for ${receipt.network} ${receipt.target}; this service anchors on ${this.network} ${this.contract}` };
    }
    try {
      const mined = await publicClient.getTransactionReceipt({ hash: receipt.txId as Hex });
      if (mined.status !== 'success') return { status: 'invalid', reason: 'the anchoring transaction reverted' };
      const event = this.anchoredEvents(mined.logs).find((l) => l.logIndex === receipt.logIndex);
      if (!event) return { status: 'invalid', reason: 'the transaction has no Anchored event at the receipt log index' };
      if (event.args.logId !== expected.logId || event.args.size !== BigInt(expected.treeSize)) {
        return { status: 'invalid', reason: `the event anchors (${event.args.logId}, ${event.args.size}), not (${expected.logId}, ${expected.treeSize})` };
      }
      if (event.args.root !== rootToBytes32(expected.rootHash)) return { status: 'invalid', reason: 'the anchored root differs from the checkpoint root' };
      const stored = await publicClient.readContract({ address: this.contract, abi: ANCHOR_ABI, functionName: 'rootOf', args: [expected.logId, BigInt(expected.treeSize)] });
      if (stored !== event.args.root) return { status: 'invalid', reason: 'the contract stores a different root for this checkpoint' };
      return { status: 'valid' };
    } catch (e) {
      if (e instanceof BaseError && e.walk((x) => x instanceof Error && x.name === 'TransactionReceiptNotFoundError')) {
        return { status: 'invalid', reason: 'the anchoring transaction is not on this chain' };
      }
      return { status: 'unavailable', reason: e instanceof BaseError ? e.shortMessage : 'the chain could not be read' };
    }
  }

  async close(): Promise<void> {
    // viem's http transport holds no sockets between calls.
  }

  private anchoredEvents(logs: readonly Log[]): AnchoredLog[] {
    const own = logs.filter((l) => l.address.toLowerCase() === this.contract.toLowerCase());
    return parseEventLogs({ abi: ANCHOR_ABI, logs: own as Log[], eventName: 'Anchored' }) as unknown as AnchoredLog[];
  }

  private receiptOf(event: AnchoredLog): AnchorReceipt {
    return {
      adapter: 'evm',
      network: this.network,
      txId: event.transactionHash,
      target: this.contract,
      blockNumber: event.blockNumber.toString(),
      logIndex: event.logIndex,
      logId: event.args.logId,
      treeSize: Number(event.args.size),
      rootHash: bytes32ToRoot(event.args.root),
    };
  }

  /** A revert is permanent (a conflicting root is a forked log; NotOwner is a wrong key); anything else is retried. */
  private classify(e: unknown, cp: AnchorCheckpoint): Error {
    const revert = e instanceof BaseError ? e.walk((x) => x instanceof ContractFunctionRevertedError) : null;
    if (revert instanceof ContractFunctionRevertedError) {
      const name = revert.data?.errorName ?? revert.reason ?? 'unknown';
      if (name === 'ConflictingRoot') {
        return new AnchorRejected(`the chain already holds a different root for (${cp.logId}, ${cp.treeSize}): the log history forked`);
      }
      return new AnchorRejected(`the anchoring contract rejected the checkpoint (${name})`);
    }
    return e instanceof Error ? e : new Error(String(e));
  }
}

export async function createEvmAnchorAdapter(settings: EvmAnchorSettings): Promise<AnchorAdapter> {
  return new EvmAnchorAdapter(settings);
}
