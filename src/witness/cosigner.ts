import type { WitnessEndpoint } from '../config/witnesses';
import type { Ledger, LedgerCheckpoint } from '../ledger/ledger.port';
import type { Logger } from '../logging/logger';
import { errorMessage } from './errors';
import { noteBody, parseWitnessVerifierKey, signatureLines, verifyCosignature } from './cosignature';
import type { PrismaCosignatureStore } from './cosignature-store';

export interface RetryPolicy {
  /** First back-off delay; doubles per failed attempt up to maxDelayMs. */
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** Attempts per head per witness before the head is left un-cosigned by it. */
  readonly maxAttempts: number;
  /** One request's deadline. */
  readonly requestTimeoutMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = Object.freeze({ baseDelayMs: 500, maxDelayMs: 30_000, maxAttempts: 8, requestTimeoutMs: 10_000 });

export interface CosignerOptions {
  readonly ledger: Pick<Ledger, 'heads' | 'consistencyProof'>;
  readonly store: PrismaCosignatureStore;
  readonly witnesses: readonly WitnessEndpoint[];
  readonly logger?: Logger;
  readonly retry?: RetryPolicy;
}

/** done: cosigned; retry: worth another attempt later; stop: this head will not be cosigned by this witness. */
type Outcome = 'done' | 'retry' | 'stop';

/**
 * The log side of witnessing: after a head is signed, asks every configured witness to cosign it
 * (c2sp.org/tlog-witness add-checkpoint) with a consistency proof from the size that witness last
 * cosigned, verifies and stores the cosignatures. Never on the issuance path: `headSigned` only
 * schedules work, per log one run at a time, and a later head supersedes a pending one (a witness
 * that cosigns size n+k has vouched for everything up to it). A witness that is down is retried
 * with exponential back-off; one that refuses (409 at the same size, 422) is not: the head stays
 * un-cosigned by it and `ledger_witness_state.last_error` says why.
 */
export class WitnessCosigner {
  private readonly retry: RetryPolicy;
  private readonly running = new Map<string, Promise<void>>();
  private readonly rerun = new Set<string>();
  private readonly sleeping = new Set<{ timer: NodeJS.Timeout; wake: () => void }>();
  private closed = false;
  /** Aborts requests in flight on close, so shutdown does not wait for a slow witness. */
  private readonly abort = new AbortController();

  constructor(private readonly options: CosignerOptions) {
    this.retry = options.retry ?? DEFAULT_RETRY;
  }

  /** The hook the log calls after storing a head. Returns at once. */
  headSigned(head: Pick<LedgerCheckpoint, 'logId'>): void {
    if (this.closed || this.options.witnesses.length === 0) return;
    const logId = head.logId;
    if (this.running.has(logId)) {
      this.rerun.add(logId);
      return;
    }
    const run = this.cosignLatest(logId)
      .catch((e: unknown) => this.options.logger?.warn({ logId, err: errorMessage(e) }, 'witness cosigning failed'))
      .finally(() => {
        this.running.delete(logId);
        if (this.rerun.delete(logId)) this.headSigned({ logId });
      });
    this.running.set(logId, run);
  }

  /** Resolves when no cosigning is in flight (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running.values()]);
  }

  /** Stops retrying and waits for requests in flight; later heads are not sent. */
  async close(): Promise<void> {
    this.closed = true;
    this.abort.abort();
    for (const s of this.sleeping) {
      clearTimeout(s.timer);
      s.wake();
    }
    await this.idle();
  }

  private async cosignLatest(logId: string): Promise<void> {
    const head = await this.options.ledger.heads.latest(logId);
    if (!head) return;
    await Promise.all(this.options.witnesses.map((w) => this.cosignWith(w, head)));
  }

  private async cosignWith(w: WitnessEndpoint, head: LedgerCheckpoint): Promise<void> {
    for (let attempt = 0; !this.closed; attempt++) {
      let outcome: Outcome;
      try {
        outcome = await this.attempt(w, head);
      } catch (e) {
        await this.options.store.failed(head.logId, w.name, `request failed: ${errorMessage(e)}`);
        outcome = 'retry';
      }
      if (outcome !== 'retry' || attempt + 1 >= this.retry.maxAttempts) return;
      await this.sleep(Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** attempt));
    }
  }

  private async attempt(w: WitnessEndpoint, head: LedgerCheckpoint): Promise<Outcome> {
    const { store, ledger } = this.options;
    const progress = await store.progress(head.logId, w.name);
    const old = progress?.treeSize ?? 0;
    if (old > head.treeSize) {
      await store.failed(head.logId, w.name, `the witness has cosigned size ${old}, beyond this head of ${head.treeSize}`);
      return 'stop';
    }
    if (old === head.treeSize && (await store.lines(head.logId, head.treeSize)).some((l) => l.witness === w.name)) return 'done';
    const proof = old > 0 && old < head.treeSize ? await ledger.consistencyProof(head.logId, old, head.treeSize) : [];
    const request = `old ${old}\n${proof.map((p) => `${p}\n`).join('')}\n${head.note}`;
    const res = await fetch(`${w.url}/add-checkpoint`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain; charset=utf-8' },
      body: request,
      signal: AbortSignal.any([this.abort.signal, AbortSignal.timeout(this.retry.requestTimeoutMs)]),
    });
    const text = await res.text();
    if (res.status === 200) {
      const body = noteBody(head.note)!;
      const witness = parseWitnessVerifierKey(w.verifierKey);
      const cosig = signatureLines(text).map((l) => verifyCosignature(body, l, witness)).find((c) => c !== undefined);
      if (!cosig) {
        await store.failed(head.logId, w.name, 'the witness answered 200 without a valid cosignature from its key');
        return 'stop';
      }
      await store.cosigned(head.logId, w.name, head.treeSize, cosig.line, new Date(cosig.timestamp * 1000));
      return 'done';
    }
    if (res.status === 409 && /^(0|[1-9][0-9]{0,15})\n$/.test(text)) {
      const known = Number(text.trim());
      await store.failed(head.logId, w.name, `409: the witness is at size ${known}`, known);
      // Out of date (first contact, or state lost on this side): try again from the size it named.
      // At the same size it is a refusal: the witness holds a different root for that size.
      return known !== old && known <= head.treeSize ? 'retry' : 'stop';
    }
    await store.failed(head.logId, w.name, `${res.status}: ${text.trim().slice(0, 200)}`);
    return res.status === 422 || res.status === 403 || res.status === 404 || res.status === 400 ? 'stop' : 'retry';
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const entry = { timer: setTimeout(() => {
        this.sleeping.delete(entry);
        resolve();
      }, ms), wake: resolve };
      this.sleeping.add(entry);
    });
  }
}
