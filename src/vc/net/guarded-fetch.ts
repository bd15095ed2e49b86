import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { rootCertificates } from 'node:tls';
import { isNonPublicAddress } from './ip-policy';
import { BudgetExceeded, currentBudget, type RequestBudget } from './request-budget';

/**
 * GET of a document named by someone else (a did:web host, a status list URL): the one way src/vc
 * reaches the network. Every hop is bounded in time and size and, unless the operator allows it,
 * may only connect to public addresses. The check runs on the addresses the connection is made
 * to (in the socket's DNS lookup), not on the name, so a name that resolves (or re-resolves) to
 * 127.0.0.1 or 169.254.169.254 is refused too.
 */
export interface FetchPolicy {
  /** Whole request, redirects included: connect, headers and body. */
  readonly timeoutMs: number;
  /** Largest response body accepted, in bytes. */
  readonly maxBytes: number;
  /** Allow loopback / private / link-local targets (tests, private deployments). */
  readonly allowPrivate: boolean;
  /** Extra trusted CA certificates (PEM), added to Node's bundled roots. */
  readonly ca?: string | undefined;
  /** Plain http:// targets (only for operator-configured endpoints; documents from others need https). */
  readonly allowHttp?: boolean | undefined;
  /** Redirects followed (each hop re-checked); default 3. */
  readonly maxRedirects?: number | undefined;
}

export const DEFAULT_FETCH_POLICY: FetchPolicy = Object.freeze({
  timeoutMs: 5000,
  maxBytes: 256 * 1024,
  allowPrivate: false,
});

/** `budget`: the request's outbound budget (count, bytes, deadline; request-budget.ts) is spent; never cached against the URL. */
export type FetchFailure = 'invalid-url' | 'blocked' | 'timeout' | 'too-large' | 'http-status' | 'network' | 'content-type' | 'budget';

/** Why a guarded fetch failed. Messages name the URL asked for, never the addresses behind it. */
export class FetchError extends Error {
  constructor(
    readonly kind: FetchFailure,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'FetchError';
  }
}

export interface FetchedBody {
  /** The URL that answered (after redirects). */
  readonly url: string;
  readonly contentType: string;
  readonly body: Buffer;
}

export interface GuardedGetOptions {
  /** The Accept header sent. */
  readonly accept: string;
  /** Media types (without parameters, lowercase) the answer may carry; 'any' for resources checked by digest. */
  readonly contentTypes: readonly string[] | 'any';
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { all: true, family: options.family ?? 0, ...(options.hints ? { hints: options.hints } : {}) }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      // Refuse when any answer is non-public rather than filter: a name that mixes both is hostile.
      if (addresses.length === 0 || (!allowPrivate && addresses.some((a) => isNonPublicAddress(a.address)))) {
        return callback(new FetchError('blocked', `${hostname} does not resolve to a public address`) as NodeJS.ErrnoException, '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      const first = addresses[0]!;
      return callback(null, first.address, first.family);
    });
  };
}

function checkTarget(raw: string, policy: FetchPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new FetchError('invalid-url', 'not a valid URL');
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowHttp)) {
    throw new FetchError('invalid-url', `${url.protocol.replace(/:$/, '')} URLs are not fetched; use https`);
  }
  if (url.username || url.password) throw new FetchError('invalid-url', 'URLs with credentials are not fetched');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // An address literal never goes through the lookup, so it is checked here.
  if (isIP(host) !== 0 && !policy.allowPrivate && isNonPublicAddress(host)) {
    throw new FetchError('blocked', `${url.origin} is not a public address`);
  }
  return url;
}

function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0]!.trim().toLowerCase();
}

interface Hop {
  readonly redirect?: string;
  readonly fetched?: FetchedBody;
}

const budgetError = (e: BudgetExceeded): FetchError => new FetchError('budget', e.message);

function getOnce(url: URL, policy: FetchPolicy, options: GuardedGetOptions, signal: AbortSignal, budget: RequestBudget | undefined, timeoutMs: number): Promise<Hop> {
  return new Promise<Hop>((resolve, reject) => {
    const mod = url.protocol === 'https:' ? https : http;
    const req = mod.request(url, {
      method: 'GET',
      agent: false,
      signal,
      lookup: guardedLookup(policy.allowPrivate),
      headers: { accept: options.accept, 'accept-encoding': 'identity', 'user-agent': 'credgate' },
      ...(policy.ca && url.protocol === 'https:' ? { ca: [...rootCertificates, policy.ca] } : {}),
    });
    const fail = (e: unknown): void => {
      req.destroy();
      if (e instanceof FetchError) return reject(e);
      if (signal.aborted) return reject(new FetchError('timeout', `${url.href} did not answer within ${timeoutMs} ms`));
      const cause = e as { cause?: unknown };
      if (cause.cause instanceof FetchError) return reject(cause.cause);
      reject(new FetchError('network', `${url.href} could not be fetched`));
    };
    req.on('error', fail);
    req.on('response', (res) => {
      res.on('error', fail);
      const status = res.statusCode ?? 0;
      if (REDIRECTS.has(status) && typeof res.headers.location === 'string') {
        res.resume();
        return resolve({ redirect: new URL(res.headers.location, url).href });
      }
      if (status < 200 || status > 299) {
        res.resume();
        return reject(new FetchError('http-status', `${url.href} answered HTTP ${status}`, status));
      }
      const encoding = (res.headers['content-encoding'] ?? 'identity').toLowerCase();
      if (encoding !== 'identity') return fail(new FetchError('content-type', `${url.href} answered with content-encoding ${encoding}`));
      const contentType = mediaType(res.headers['content-type']);
      if (options.contentTypes !== 'any' && !options.contentTypes.includes(contentType)) {
        return fail(new FetchError('content-type', `${url.href} answered ${contentType || 'no content type'}, not one of ${(options.contentTypes as readonly string[]).join(', ')}`));
      }
      const tooLarge = (): FetchError => new FetchError('too-large', `${url.href} answered more than ${policy.maxBytes} bytes`);
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > policy.maxBytes) return fail(tooLarge());
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > policy.maxBytes) return fail(tooLarge());
        try {
          budget?.chargeFetchBytes(chunk.length);
        } catch (e) {
          return fail(e instanceof BudgetExceeded ? budgetError(e) : e);
        }
        chunks.push(chunk);
      });
      let ended = false;
      res.on('end', () => {
        ended = true;
        resolve({ fetched: { url: url.href, contentType, body: Buffer.concat(chunks) } });
      });
      // A body cut short (abort, reset) may close without an error event; never leave the promise open.
      res.on('close', () => {
        if (!ended) fail(signal.aborted ? new FetchError('timeout', `${url.href} did not answer within ${timeoutMs} ms`) : new FetchError('network', `${url.href} closed the connection`));
      });
    });
    req.end();
  });
}

/**
 * GET `raw` under `policy`; throws FetchError for every failure. Inside a verification request
 * (currentBudget), every hop is charged to the request's budget before it connects, every body
 * byte as it arrives, and the time allowed is the shorter of the policy's and what is left of
 * the request's deadline.
 */
export async function guardedGet(raw: string, policy: FetchPolicy, options: GuardedGetOptions): Promise<FetchedBody> {
  const budget = currentBudget();
  const timeoutMs = budget ? Math.min(policy.timeoutMs, Math.floor(budget.remainingMs())) : policy.timeoutMs;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    let next = raw;
    for (let hop = 0; hop <= (policy.maxRedirects ?? 3); hop++) {
      const url = checkTarget(next, policy);
      try {
        budget?.chargeFetch();
      } catch (e) {
        throw e instanceof BudgetExceeded ? budgetError(e) : e;
      }
      const answer = await getOnce(url, policy, options, controller.signal, budget, timeoutMs);
      if (answer.fetched) return answer.fetched;
      next = answer.redirect!;
    }
    throw new FetchError('http-status', `${raw} redirected too many times (at most ${policy.maxRedirects ?? 3} followed)`);
  } finally {
    clearTimeout(timer);
  }
}

/** `guardedGet` and JSON.parse of an object body. */
export async function guardedGetJson(raw: string, policy: FetchPolicy, options: GuardedGetOptions): Promise<{ url: string; json: Record<string, unknown>; bytes: number }> {
  const fetched = await guardedGet(raw, policy, options);
  let json: unknown;
  try {
    json = JSON.parse(fetched.body.toString('utf8'));
  } catch {
    throw new FetchError('content-type', `${raw} did not answer JSON`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new FetchError('content-type', `${raw} did not answer a JSON object`);
  return { url: fetched.url, json: json as Record<string, unknown>, bytes: fetched.body.length };
}
