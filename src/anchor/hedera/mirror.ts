/**
 * Reads the Hedera Mirror Node REST API (v1) with fetch: the SDK only speaks the mirror's gRPC
 * API, and the REST shapes are the documented, stable ones operators already expose.
 */

/** A topic message as `/api/v1/topics/{id}/messages` returns it. */
export interface MirrorTopicMessage {
  readonly consensus_timestamp: string;
  readonly sequence_number: number;
  /** base64 */
  readonly running_hash: string;
  /** base64 */
  readonly message: string;
  readonly topic_id: string;
  readonly payer_account_id: string;
  /** Set for messages sent by the SDKs (which always send chunk info, even for one chunk). */
  readonly chunk_info?: { readonly initial_transaction_id?: { readonly account_id?: string; readonly transaction_valid_start?: string } | null } | null;
}

export interface MirrorTransaction {
  readonly consensus_timestamp: string;
  readonly transaction_id: string;
  readonly result: string;
  readonly name: string;
  readonly entity_id: string | null;
}

/** The mirror could not be reached or answered with a server error (not "absent"). */
export class MirrorUnavailable extends Error {
  override readonly name = 'MirrorUnavailable';
}

const isMessage = (v: unknown): v is MirrorTopicMessage => {
  const o = v as Record<string, unknown> | null;
  return !!o && typeof o.consensus_timestamp === 'string' && typeof o.sequence_number === 'number' && typeof o.running_hash === 'string' && typeof o.message === 'string' && typeof o.topic_id === 'string';
};

/** `0.0.5@1700000000.000000123` (SDK) → `0.0.5-1700000000-000000123` (mirror REST path). */
export function mirrorTransactionId(txId: string): string {
  const m = /^(\d+\.\d+\.\d+)@(\d+)\.(\d+)$/.exec(txId);
  if (!m) throw new Error(`not a transaction id: ${txId}`);
  return `${m[1]}-${m[2]}-${m[3]!.padStart(9, '0')}`;
}

export class MirrorClient {
  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs: number,
  ) {}

  /** The JSON body, or null on 404; MirrorUnavailable on network errors and 5xx. */
  private async get(path: string): Promise<unknown> {
    let res: Response;
    try {
      res = await fetch(`${this.baseUrl}${path}`, { signal: AbortSignal.timeout(this.timeoutMs), headers: { accept: 'application/json' } });
    } catch (e) {
      throw new MirrorUnavailable(`mirror node unreachable: ${(e as Error).message}`);
    }
    if (res.status === 404) {
      await res.body?.cancel();
      return null;
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw new MirrorUnavailable(`mirror node answered ${res.status} for ${path.split('?')[0]}`);
    }
    try {
      return await res.json();
    } catch {
      throw new MirrorUnavailable('mirror node sent a body that is not JSON');
    }
  }

  async message(topicId: string, sequenceNumber: string): Promise<MirrorTopicMessage | null> {
    const body = await this.get(`/api/v1/topics/${topicId}/messages/${sequenceNumber}`);
    if (body === null) return null;
    if (!isMessage(body)) throw new MirrorUnavailable('mirror node sent an unexpected topic message shape');
    return body;
  }

  /** The topic's messages, newest first, page by page (at most `maxPages`; the callback stops the scan by returning true). */
  async scanTopic(topicId: string, visit: (m: MirrorTopicMessage) => boolean, maxPages = Infinity): Promise<boolean> {
    let path: string | null = `/api/v1/topics/${topicId}/messages?limit=100&order=desc`;
    for (let page = 0; path !== null && page < maxPages; page += 1) {
      const body = (await this.get(path)) as { messages?: unknown; links?: { next?: unknown } } | null;
      if (body === null) return false;
      if (!Array.isArray(body.messages) || !body.messages.every(isMessage)) throw new MirrorUnavailable('mirror node sent an unexpected messages page');
      for (const m of body.messages) if (visit(m)) return true;
      const next = body.links?.next;
      path = typeof next === 'string' && next.startsWith('/api/v1/') ? next : null;
    }
    return false;
  }

  async transaction(txId: string): Promise<MirrorTransaction | null> {
    const body = (await this.get(`/api/v1/transactions/${mirrorTransactionId(txId)}`)) as { transactions?: unknown } | null;
    if (body === null) return null;
    const first = Array.isArray(body.transactions) ? (body.transactions[0] as MirrorTransaction | undefined) : undefined;
    if (!first || typeof first.consensus_timestamp !== 'string' || typeof first.result !== 'string') throw new MirrorUnavailable('mirror node sent an unexpected transaction shape');
    return first;
  }
}
