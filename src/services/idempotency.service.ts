import { createHash, randomUUID } from 'node:crypto';
import { canonicalize } from '../domain/canonical/jcs';
import { AppError, RetryLaterError, invalidInput } from '../errors';
import type { Actor } from '../domain/tenancy/actor';
import type { IdempotencyRecord, IdempotencyScope, IdempotencyStore, StoredResponse } from '../domain/idempotency.port';

/**
 * `Idempotency-Key` (IETF draft "The Idempotency-Key HTTP Header Field") for issuing requests:
 * the first request with a key runs and its answer is stored; a repeat of the same request gets
 * that answer again instead of issuing twice. Records live in PostgreSQL, so every instance on the
 * database agrees (the claim is one INSERT … ON CONFLICT DO NOTHING, which only one request wins).
 */

// The store's port is declared in the domain, so its PostgreSQL adapter does not import this service.
export type { IdempotencyRecord, IdempotencyScope, IdempotencyStore, StoredResponse };

export type IdempotencyClaim = { readonly kind: 'claimed'; readonly owner: string } | { readonly kind: 'replay'; readonly response: StoredResponse };

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';
const MAX_KEY_LENGTH = 255;
// Visible ASCII only (the draft makes the key an sf-string; a space or control byte is refused).
const KEY_RE = /^[\x21-\x7e]+$/;

/**
 * Client errors that a repeat of the same request would get again: stored and replayed like a
 * success. 401/403 (keys and scopes change), 408, 409, 429 and every 5xx are not: the key is
 * released and a retry runs for real.
 */
const DETERMINISTIC_CLIENT_ERRORS = new Set([400, 404, 405, 410, 413, 415, 422]);

export function isStorableStatus(status: number): boolean {
  return (status >= 200 && status < 300) || DETERMINISTIC_CLIENT_ERRORS.has(status);
}

/** The header value as a key, undefined when absent; a malformed key is a 400. */
export function parseIdempotencyKey(raw: string | readonly string[] | undefined): string | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string') throw invalidInput('Idempotency-Key must be sent once');
  if (raw.length === 0 || raw.length > MAX_KEY_LENGTH || !KEY_RE.test(raw)) {
    throw invalidInput(`Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} visible ASCII characters`);
  }
  return raw;
}

/** What makes two requests "the same": method, path, canonical body and request-specific extras. */
export interface RequestShape {
  readonly method: string;
  readonly path: string;
  readonly body: unknown;
  /** E.g. the query string or headers that carry part of the request (Family A holder proof). */
  readonly extra?: Readonly<Record<string, string | undefined>>;
}

/** SHA-256 of the canonical (RFC 8785) form of the request shape. */
export function fingerprintOf(shape: RequestShape): string {
  let body: string;
  try {
    body = canonicalize(shape.body ?? null);
  } catch {
    // A body JSON cannot represent (e.g. parsed multipart uploads) has no stable fingerprint.
    throw invalidInput('Idempotency-Key is only supported on JSON requests');
  }
  const extra = canonicalize(Object.fromEntries(Object.entries(shape.extra ?? {}).filter(([, v]) => v !== undefined)));
  return createHash('sha256').update(canonicalize([shape.method.toUpperCase(), shape.path, body, extra])).digest('hex');
}

/**
 * What the caller may do beyond being this API key: its effective scopes (a token may carry fewer
 * than its key) and its holder binding. A stored answer is replayed only to the same authority.
 */
export function authorityOf(actor: Pick<Actor, 'scopes' | 'holderDid'>): string {
  const scopes = [...new Set(actor.scopes)].sort();
  return createHash('sha256').update(canonicalize([scopes, actor.holderDid ?? null])).digest('hex').slice(0, 32);
}

/** The stored fingerprint: the request's, then the authority's (records written before had none). */
const AUTHORITY_SEPARATOR = '.';
const bound = (fingerprint: string, authority: string): string => `${fingerprint}${AUTHORITY_SEPARATOR}${authority}`;

function unbind(stored: string): { fingerprint: string; authority: string | undefined } {
  const at = stored.indexOf(AUTHORITY_SEPARATOR);
  return at < 0 ? { fingerprint: stored, authority: undefined } : { fingerprint: stored.slice(0, at), authority: stored.slice(at + 1) };
}

export interface IdempotencyOptions {
  readonly ttlSeconds: number;
  /**
   * How long a claim may stay in flight before a repeat of the same request may take it over (an
   * instance died mid-request). Longer than any request can run.
   */
  readonly leaseSeconds?: number;
}

const PRUNE_EVERY_MS = 60_000;

export class IdempotencyService {
  private lastPrune = 0;

  constructor(
    private readonly store: IdempotencyStore,
    private readonly options: IdempotencyOptions,
  ) {}

  private get lease(): number {
    return this.options.leaseSeconds ?? 300;
  }

  /**
   * Claims the key for this request, or answers what a repeat gets: the stored response (same
   * fingerprint and authority, completed), 409 IDEMPOTENCY_IN_PROGRESS (same, still running),
   * 422 IDEMPOTENCY_KEY_REUSED (another request) or 403 FORBIDDEN (the same request by a caller
   * of the same API key with other scopes or another holder binding, see `authorityOf`).
   *
   * The authority check stands in for the scope check the stored answer once passed: the replay
   * happens before the route or resolver authorizes, so without it a token narrowed to `verifier`
   * would read the answer of an issuer-only request made with its key. The other caller gets
   * neither that answer nor a second execution (which could issue twice): the key is the first
   * caller's.
   */
  async begin(scope: IdempotencyScope, fingerprint: string, authority: string): Promise<IdempotencyClaim> {
    this.pruneNow();
    const owner = randomUUID();
    const { ttlSeconds } = this.options;
    const stored = bound(fingerprint, authority);
    // A record can vanish between the steps (its request failed and released it): try again.
    for (let attempt = 0; attempt < 3; attempt++) {
      if (await this.store.claim(scope, stored, owner, ttlSeconds, this.lease)) return { kind: 'claimed', owner };
      if (await this.store.takeOver(scope, stored, owner, ttlSeconds, this.lease)) return { kind: 'claimed', owner };
      const found = await this.store.find(scope);
      if (!found) continue;
      const record = unbind(found.fingerprint);
      if (record.fingerprint !== fingerprint) {
        throw new AppError('IDEMPOTENCY_KEY_REUSED', 'this Idempotency-Key was already used for a different request');
      }
      // Records stored before authorities were kept (none) replay as they did, until they expire.
      if (record.authority !== undefined && record.authority !== authority) {
        throw new AppError('FORBIDDEN', 'this Idempotency-Key was used by a caller with other scopes; send the request with a new key');
      }
      if (found.response) return { kind: 'replay', response: found.response };
      break;
    }
    throw new RetryLaterError('IDEMPOTENCY_IN_PROGRESS', 'a request with this Idempotency-Key is still in progress, retry later', 1);
  }

  /** Stores the answer when a repeat should get it again; otherwise lets the key go. */
  async finish(scope: IdempotencyScope, owner: string, response: StoredResponse, storable: boolean = isStorableStatus(response.status)): Promise<void> {
    if (storable) await this.store.complete(scope, owner, response);
    else await this.store.release(scope, owner);
  }

  /** Lets the key go (the request failed before it produced an answer). */
  async abandon(scope: IdempotencyScope, owner: string): Promise<void> {
    await this.store.release(scope, owner);
  }

  /** Expired records are dropped at most once a minute per instance, off the request path. */
  private pruneNow(): void {
    const now = Date.now();
    if (now - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = now;
    this.store.prune().catch(() => undefined);
  }
}
