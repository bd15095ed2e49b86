import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { createHmac } from 'node:crypto';
import { invalidInput } from '../../errors';
import { isNonPublicAddress } from '../../vc/net/ip-policy';
import type { Logger } from '../../logging/logger';
import type { WebhookStatus } from './request-record';

/**
 * Pushes a request's result to the relying party's webhook: a POST with an HMAC-SHA256 signature
 * under the request's own secret (X-Credgate-Signature: sha256=<hex>), a bounded number of
 * attempts, and the same address policy as every other outbound fetch (no private addresses unless
 * CREDGATE_FETCH_ALLOW_PRIVATE), checked on the addresses actually connected to, redirects not
 * followed. Delivery runs after the wallet was answered and never delays it.
 */
export interface WebhookPolicy {
  readonly allowPrivate: boolean;
  readonly timeoutMs: number;
  /** Attempts in all, the first included. */
  readonly attempts: number;
  /** Backoff before the n-th retry: base * 2^(n-1). */
  readonly backoffMs: number;
}

export const DEFAULT_WEBHOOK_POLICY: WebhookPolicy = { allowPrivate: false, timeoutMs: 5000, attempts: 3, backoffMs: 500 };

export interface WebhookSender {
  /** Throws INVALID_INPUT for a URL that could never be delivered to. */
  checkUrl(url: string): string;
  deliver(requestId: string, url: string, secret: string, payload: unknown): void;
  /** Resolves when every delivery started so far has finished (shutdown, tests). */
  drain(): Promise<void>;
}

function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { all: true, family: options.family ?? 0 }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      if (addresses.length === 0 || (!allowPrivate && addresses.some((a) => isNonPublicAddress(a.address)))) {
        return callback(Object.assign(new Error(`${hostname} does not resolve to a public address`), { code: 'EBLOCKED' }), '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      const first = addresses[0]!;
      return callback(null, first.address, first.family);
    });
  };
}

function postOnce(url: URL, body: string, signature: string, policy: WebhookPolicy): Promise<number> {
  return new Promise((resolve, reject) => {
    const mod = url.protocol === 'https:' ? https : http;
    const req = mod.request(url, {
      method: 'POST',
      agent: false,
      timeout: policy.timeoutMs,
      lookup: guardedLookup(policy.allowPrivate),
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-credgate-signature': signature, 'user-agent': 'credgate' },
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.end(body);
  });
}

export class HttpWebhookSender implements WebhookSender {
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly policy: WebhookPolicy,
    private readonly record: (requestId: string, status: WebhookStatus, attempts: number) => Promise<void>,
    private readonly logger?: Logger,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
  ) {}

  checkUrl(raw: string): string {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw invalidInput('webhookUrl is not a URL', [{ field: 'webhookUrl', message: 'not a URL' }]);
    }
    const allowed = url.protocol === 'https:' || (url.protocol === 'http:' && this.policy.allowPrivate);
    if (!allowed || url.username || url.password || raw.length > 2048) throw invalidInput('webhookUrl must be an https URL without credentials', [{ field: 'webhookUrl', message: 'an https URL' }]);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) !== 0 && !this.policy.allowPrivate && isNonPublicAddress(host)) throw invalidInput('webhookUrl is not a public address', [{ field: 'webhookUrl', message: 'not a public address' }]);
    return url.href;
  }

  deliver(requestId: string, url: string, secret: string, payload: unknown): void {
    const run = this.run(requestId, new URL(url), secret, JSON.stringify(payload)).finally(() => this.inFlight.delete(run));
    this.inFlight.add(run);
  }

  private async run(requestId: string, url: URL, secret: string, body: string): Promise<void> {
    const signature = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
    for (let attempt = 1; attempt <= this.policy.attempts; attempt++) {
      let status = 0;
      try {
        status = await postOnce(url, body, signature, this.policy);
      } catch {
        status = 0;
      }
      if (status >= 200 && status < 300) {
        await this.record(requestId, 'delivered', attempt).catch(() => undefined);
        return;
      }
      // 4xx other than 408/429 will not change by retrying.
      const retryable = status === 0 || status === 408 || status === 429 || status >= 500;
      if (!retryable || attempt === this.policy.attempts) {
        this.logger?.warn({ requestId, attempts: attempt, status }, 'oid4vp webhook not delivered');
        await this.record(requestId, 'failed', attempt).catch(() => undefined);
        return;
      }
      await this.sleep(this.policy.backoffMs * 2 ** (attempt - 1));
    }
  }

  async drain(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }
}
