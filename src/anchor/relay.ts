import { randomUUID } from 'node:crypto';
import type { Logger } from '../logging/logger';
import { type AnchorAdapter, AnchorRejected } from './anchor.port';
import type { AnchorOutbox, ClaimedRow } from './outbox';
import { DEFAULT_RELAY_OPTIONS, type RelayOptions } from '../config/anchor';

// The relay's tuning is part of the anchor configuration (src/config/anchor.ts), which must not import the relay.
export { DEFAULT_RELAY_OPTIONS, type RelayOptions };

/**
 * Exponential backoff with "equal jitter": half the capped delay is fixed, half random, so relays
 * that failed together (the ledger was down) do not all come back at the same instant.
 */
export function backoffMs(attempts: number, options: Pick<RelayOptions, 'baseDelayMs' | 'maxDelayMs'>, random: () => number = Math.random): number {
  const capped = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** Math.min(attempts - 1, 30));
  return Math.round(capped / 2 + (capped / 2) * random());
}

/** One line, no stack, no request bodies: adapters' errors can carry RPC payloads, never keys (viem does not echo the account key). */
function describe(e: unknown): string {
  const text = e instanceof Error ? (('shortMessage' in e && typeof e.shortMessage === 'string' ? e.shortMessage : e.message) || e.name) : String(e);
  return text.split('\n')[0]!.slice(0, 500);
}

/**
 * Moves outbox rows to the ledger. Any number of relays (in one process or many) may run on one
 * database: claims skip locked rows and leased rows, and the adapter is idempotent on
 * (logId, treeSize), so a row is anchored once even if a relay dies between submitting and
 * recording. Anchoring never blocks issuance: issuance only writes the outbox row.
 */
export class AnchorRelay {
  readonly owner = `relay-${randomUUID()}`;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;
  /** Set by stop(): rows claimed but not yet submitted are given back. */
  private stopping = false;

  constructor(
    private readonly outbox: AnchorOutbox,
    private readonly adapter: AnchorAdapter,
    private readonly options: RelayOptions,
    private readonly logger?: Logger,
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.stopping = false;
    this.schedule(0);
  }

  /** Stops polling and waits for the submission in progress (its outcome is recorded). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** One poll: claims due rows and submits them in order. Returns how many rows it claimed. */
  async tick(): Promise<number> {
    const rows = await this.outbox.claim(this.owner, this.options.batchSize, this.options.leaseMs);
    // One at a time: an EVM account's nonces (and a Hedera operator's transactions) are sequential.
    for (const [i, row] of rows.entries()) {
      if (this.stopping) {
        await Promise.all(rows.slice(i).map((r) => this.outbox.release(this.owner, r)));
        break;
      }
      await this.process(row);
    }
    return rows.length;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.running = this.tick()
        .then((claimed) => this.schedule(claimed >= this.options.batchSize ? 0 : this.options.pollMs))
        .catch((e: unknown) => {
          // The database is unreachable or busy: keep polling, the rows are safe in the outbox.
          this.logger?.warn({ err: describe(e) }, 'anchor relay: poll failed');
          this.schedule(this.options.pollMs);
        })
        .finally(() => {
          this.running = undefined;
        });
    }, delayMs);
    this.timer.unref();
  }

  private async process(row: ClaimedRow): Promise<void> {
    const checkpoint = { logId: row.logId, treeSize: row.treeSize, rootHash: row.rootHash, ...(row.note ? { note: row.note } : {}) };
    try {
      // An earlier attempt may have reached the ledger before its relay died or timed out.
      const earlier = row.attempts > 1 ? await this.adapter.find(checkpoint) : null;
      const receipt = earlier ?? (await this.adapter.submit(checkpoint));
      await this.outbox.anchored(row, receipt);
      this.logger?.info({ logId: row.logId, treeSize: row.treeSize, network: receipt.network, txId: receipt.txId, resubmission: earlier !== null }, 'anchored checkpoint');
    } catch (e) {
      const final = e instanceof AnchorRejected || row.attempts >= this.options.maxAttempts;
      const delay = backoffMs(row.attempts, this.options);
      const reason = describe(e);
      await this.outbox.attemptFailed(this.owner, row, reason, delay, final);
      const fields = { logId: row.logId, treeSize: row.treeSize, attempts: row.attempts, err: reason };
      if (final) this.logger?.error(fields, 'anchoring failed for good; set the outbox row back to pending to retry');
      else this.logger?.warn({ ...fields, retryInMs: delay }, 'anchoring failed; will retry');
    }
  }
}
