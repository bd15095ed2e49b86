import { AppError } from '../../errors';
import type { DidResolutionConfig } from '../../config/did-resolution';
import { fetchPolicyFromConfig } from '../../vc/resolver/from-config';
import { DEFAULT_FETCH_POLICY, type FetchPolicy, FetchError, guardedGet } from '../../vc/net/guarded-fetch';
import { type Loaded, TtlCache } from '../../vc/net/ttl-cache';
import { decodeJws } from '../sd-jwt-vc/jose';
import { STATUS_LIST_JWT_MEDIA_TYPE } from './token';

/** Where Status List Tokens of other issuers come from. */
export interface StatusListTokenSource {
  /** The token served at `uri` (compact JWT, not yet validated). */
  fetchToken(uri: string): Promise<string>;
}

export interface HttpStatusListTokenSourceOptions {
  /** Timeout, size, SSRF switch and CAs (the same as DID resolution's); maxBytes defaults to 1 MiB. */
  readonly fetch?: Partial<FetchPolicy>;
  /** Upper bound of reuse in seconds; the token's own ttl and exp shorten it. 0: no cache. */
  readonly ttlSeconds?: number;
  readonly maxEntries?: number;
  /** Clock in milliseconds (tests). */
  readonly now?: () => number;
}

function sourceError(uri: string, e: unknown): AppError {
  if (e instanceof AppError) return e;
  if (e instanceof FetchError) {
    // The request's budget is spent: a clear 4xx for this request, never remembered against the URL.
    if (e.kind === 'budget') return new AppError('INVALID_INPUT', e.message);
    if (e.kind === 'timeout' || e.kind === 'network' || (e.kind === 'http-status' && (e.status ?? 0) >= 500)) return new AppError('SERVICE_UNAVAILABLE', `status list ${uri} could not be fetched: ${e.message}`);
    if (e.kind === 'http-status' && (e.status === 404 || e.status === 410)) return new AppError('NOT_FOUND', `status list ${uri} was not found`);
    return new AppError('INVALID_INPUT', `status list ${uri} was refused: ${e.message}`);
  }
  return new AppError('SERVICE_UNAVAILABLE', `status list ${uri} could not be fetched`);
}

/**
 * Status List Tokens over HTTPS through the one guarded fetch of src/vc/net (SSRF-guarded, time-
 * and size-bounded, charged to the request's budget), asked with `Accept: application/statuslist+jwt`
 * and cached no longer than the token's ttl or exp allow (§13.7: honour ttl).
 */
export function createHttpStatusListTokenSource(options: HttpStatusListTokenSourceOptions = {}): StatusListTokenSource {
  const policy: FetchPolicy = { ...DEFAULT_FETCH_POLICY, maxBytes: 1024 * 1024, ...options.fetch };
  const now = options.now ?? Date.now;
  const maxTtlMs = (options.ttlSeconds ?? 300) * 1000;
  const cache = new TtlCache<string>({ maxEntries: options.maxEntries ?? 1000, maxWeight: 64 * 1024 * 1024, now });
  const negative = (e: unknown): number => (e instanceof AppError && e.code !== 'SERVICE_UNAVAILABLE' && e.code !== 'INVALID_INPUT' ? Math.min(maxTtlMs, 30_000) : 0);

  async function load(uri: string): Promise<Loaded<string>> {
    try {
      const fetched = await guardedGet(uri, policy, { accept: STATUS_LIST_JWT_MEDIA_TYPE, contentTypes: [STATUS_LIST_JWT_MEDIA_TYPE] });
      const token = fetched.body.toString('utf8').trim();
      const payload = decodeJws(token)?.payload;
      let ttlMs = maxTtlMs;
      if (payload && typeof payload['ttl'] === 'number' && payload['ttl'] > 0) ttlMs = Math.min(ttlMs, payload['ttl'] * 1000);
      if (payload && typeof payload['exp'] === 'number') ttlMs = Math.min(ttlMs, payload['exp'] * 1000 - now());
      return { value: token, ttlMs: Math.max(0, ttlMs), weight: fetched.body.length };
    } catch (e) {
      throw sourceError(uri, e);
    }
  }
  return { fetchToken: (uri) => cache.get(uri, () => load(uri), negative) };
}

/** The options of the configuration: DID resolution's timeout, SSRF switch, CA file and cache TTL, 1 MiB per token. */
export function statusListTokenSourceOptionsFromConfig(config: DidResolutionConfig): HttpStatusListTokenSourceOptions {
  return { fetch: fetchPolicyFromConfig(config, 1024 * 1024), ttlSeconds: config.cacheTtlSeconds };
}
