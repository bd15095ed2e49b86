import { AppError } from '../../errors';
import type { DidResolutionConfig } from '../../config/did-resolution';
import { fetchPolicyFromConfig } from '../resolver/from-config';
import { MAX_BITSTRING_BYTES } from '../../domain/status-list';
import { DEFAULT_FETCH_POLICY, type FetchPolicy, FetchError, guardedGetJson } from '../net/guarded-fetch';
import { type Loaded, TtlCache } from '../net/ttl-cache';
import type { JsonObject, StatusListSource } from '../ports';
import { declaredInflatedSize } from './read-bits';

/** Media types a status list credential is served with (VCDM 2.0 `application/vc`, 1.1-era JSON-LD, plain JSON). */
export const STATUS_LIST_MEDIA_TYPES = ['application/vc', 'application/vc+ld+json', 'application/ld+json', 'application/json'] as const;

export interface HttpStatusListSourceOptions {
  /** Fetch limits and SSRF guard; maxBytes defaults to 1 MiB here (a 16 MiB list compresses far below it). */
  readonly fetch?: Partial<FetchPolicy>;
  /** Largest decoded bitstring accepted (gzip bombs); default 16 MiB. */
  readonly maxListBytes?: number;
  readonly cache?: {
    /** Upper bound of reuse; a list's validUntil and its subject's `ttl` (ms) shorten it. 0: no cache. */
    readonly ttlSeconds: number;
    readonly maxEntries?: number;
    /** Most response bytes of cached lists held together; default 64 MiB. */
    readonly maxBytes?: number;
    /** Clock in milliseconds (tests). */
    readonly now?: () => number;
  };
}

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function sourceError(url: string, e: unknown): Error {
  if (e instanceof AppError) return e;
  if (e instanceof FetchError) {
    // The request's budget is spent, not the list broken: passed on as is, never cached.
    if (e.kind === 'budget') return e;
    if (e.kind === 'timeout' || e.kind === 'network' || (e.kind === 'http-status' && (e.status ?? 0) >= 500)) {
      return new AppError('SERVICE_UNAVAILABLE', `status list ${url} could not be fetched: ${e.message}`);
    }
    if (e.kind === 'http-status' && (e.status === 404 || e.status === 410)) return new AppError('NOT_FOUND', `status list ${url} was not found`);
    return new AppError('INVALID_INPUT', `status list ${url} was refused: ${e.message}`);
  }
  return new AppError('SERVICE_UNAVAILABLE', `status list ${url} could not be fetched`);
}

/** How long a list may be reused: the configured TTL, shortened by its validUntil and its own `ttl` (ms). */
function listTtlMs(list: JsonObject, maxMs: number, now: number): number {
  let ttl = maxMs;
  const until = typeof list.validUntil === 'string' ? list.validUntil : typeof list.expirationDate === 'string' ? list.expirationDate : undefined;
  if (until !== undefined) {
    const at = Date.parse(until);
    if (!Number.isNaN(at)) ttl = Math.min(ttl, at - now);
  }
  const subject = list.credentialSubject;
  if (isObject(subject) && typeof subject.ttl === 'number' && Number.isFinite(subject.ttl) && subject.ttl >= 0) ttl = Math.min(ttl, subject.ttl);
  return ttl;
}

/**
 * Status list credentials dereferenced over HTTPS: time- and size-bounded, SSRF-guarded (shared
 * with did:web), charged to the request's budget (guardedGet), and cached (coalesced, bounded in
 * entries and bytes) no longer than the list says it is valid. Lists are not inflated here.
 */
export function createHttpStatusListSource(options: HttpStatusListSourceOptions = {}): StatusListSource {
  const policy: FetchPolicy = { ...DEFAULT_FETCH_POLICY, maxBytes: 1024 * 1024, ...options.fetch };
  const maxListBytes = options.maxListBytes ?? MAX_BITSTRING_BYTES;
  const now = options.cache?.now ?? Date.now;
  const ttlMs = (options.cache?.ttlSeconds ?? 300) * 1000;
  const cache = new TtlCache<JsonObject>({ maxEntries: options.cache?.maxEntries ?? 1000, maxWeight: options.cache?.maxBytes ?? 64 * 1024 * 1024, now });
  // Refusals (404, too large, not a list) are remembered briefly; outages are retried.
  const negative = (e: unknown): number => (e instanceof AppError && e.code !== 'SERVICE_UNAVAILABLE' ? Math.min(ttlMs, 30_000) : 0);

  async function load(url: string): Promise<Loaded<JsonObject>> {
    try {
      const { json, bytes } = await guardedGetJson(url, policy, { accept: 'application/vc, application/vc+ld+json;q=0.9, application/json;q=0.5', contentTypes: STATUS_LIST_MEDIA_TYPES });
      // Not inflated here: the check reads only the bits it needs (read-bits.ts). A list whose
      // gzip trailer admits to inflating past the bound is a bomb, refused (and remembered) now.
      const subject = json.credentialSubject;
      const declared = isObject(subject) && typeof subject.encodedList === 'string' ? declaredInflatedSize(subject.encodedList) : undefined;
      if (declared !== undefined && declared > maxListBytes) throw new AppError('INVALID_INPUT', `status list ${url} was refused: encodedList inflates beyond ${maxListBytes} bytes`);
      return { value: json, ttlMs: listTtlMs(json, ttlMs, now()), weight: bytes };
    } catch (e) {
      throw sourceError(url, e);
    }
  }

  return {
    fetchStatusListCredential: (url) => cache.get(url, () => load(url), negative),
  };
}

/**
 * Lists under a prefix (e.g. the service's own public status URL) from a local source, the rest
 * from `fallback`: verifying the service's own credentials then needs no HTTP to itself.
 */
export function routeStatusListSource(routes: readonly { readonly prefix: string; readonly source: StatusListSource }[], fallback: StatusListSource): StatusListSource {
  return {
    fetchStatusListCredential: (url) => (routes.find((r) => url.startsWith(r.prefix))?.source ?? fallback).fetchStatusListCredential(url),
  };
}

/** HttpStatusListSourceOptions of the configuration (same timeout, SSRF switch, CA file and TTL as DID resolution). */
export function statusSourceOptionsFromConfig(config: DidResolutionConfig): HttpStatusListSourceOptions {
  return { fetch: fetchPolicyFromConfig(config, 1024 * 1024), cache: { ttlSeconds: config.cacheTtlSeconds } };
}
