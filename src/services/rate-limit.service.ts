import { createHash } from 'node:crypto';
import type { RateLimitConfig } from '../config';
import { RATE_LIMIT_DEFAULTS } from '../config/limits';
import type { Clock, IssuedCredentialRecord, IssuedCredentialRepository } from '../domain/ports';
import type { Actor } from '../domain/tenancy/actor';
import { RetryLaterError } from '../errors';
import type { RateLimitStore, WindowHit } from '../domain/rate-limit.port';

// The store's port is declared in the domain, so its PostgreSQL adapter does not import this service.
export type { RateLimitStore, WindowHit };

/** Bucket keys stay short whatever the caller sends as a credential id. */
function bucketKey(prefix: string, id: string): string {
  return id.length <= 128 ? `${prefix}:${id}` : `${prefix}#${createHash('sha256').update(id, 'utf8').digest('hex')}`;
}

/** A reserved OAuth client authentication (see RateLimitService.reserveClientAuth). */
export interface ClientAuthAttempt {
  /** The attempt was not a failed guess: the reserved failure is given back. */
  giveBack(): Promise<void>;
}

/** How many of a batch of oracle calls fit the budget: the first `allowed`; the rest get `refusal`. */
export interface CallAllowance {
  readonly allowed: number;
  readonly refusal: RetryLaterError | undefined;
}

const UNCOUNTED: ClientAuthAttempt = Object.freeze({ giveBack: () => Promise.resolve() });

const PRUNE_EVERY_MS = 10 * 60_000;
/** Bound on remembered refusals (one entry per exhausted bucket; cleared wholesale beyond it). */
const MAX_BLOCKED = 100_000;

/**
 * Rate limits of oracle-shaped operations (verification, decryption, face comparison, ...) and
 * of the public keyless routes. Each limit is a fixed window counted in the shared store, so
 * several instances on one database enforce one budget. Three budgets, each checked on its own:
 *  - per API key: every oracle-shaped call of a key, whatever the operation;
 *  - per credential: every verification lookup of one credential id, across all keys and tenants
 *    (the guessing attacks aim at one credential from as many keys as they can get);
 *  - per client IP: the public routes (`/status/{listId}`, `/schema/{name}`).
 */
export class RateLimitService {
  private lastPrune = 0;
  /**
   * Buckets this instance has seen exhausted, with the end of their window. Further calls are
   * refused from memory: a flood against one bucket costs the database one write per window per
   * instance beyond the budget, instead of one contended upsert of one hot row per request.
   */
  private readonly blocked = new Map<string, number>();

  constructor(
    private readonly store: RateLimitStore,
    private readonly config: RateLimitConfig,
    private readonly clock: Clock,
  ) {}

  /** One oracle-shaped call by this API key. */
  async forApiKey(actor: Actor): Promise<void> {
    await this.take(bucketKey('k', actor.apiKeyId), this.config.perApiKey, 'this API key');
  }

  /**
   * `calls` oracle-shaped calls of this API key counted at once, before any of them runs (GraphQL
   * aliases of one request): one shared-counter write, and the request's answer can never race
   * ahead of its own counting. The first `allowed` calls fit the budget.
   */
  async forApiKeyCalls(actor: Actor, calls: number): Promise<CallAllowance> {
    const limit = this.config.perApiKey;
    if (limit === 0 || calls <= 0) return { allowed: calls, refusal: undefined };
    const key = bucketKey('k', actor.apiKeyId);
    const what = 'this API key';
    try {
      this.refuseIfBlocked(key, limit, what);
    } catch (e) {
      return { allowed: 0, refusal: e as RetryLaterError };
    }
    const now = performance.now();
    const hit = await this.store.hit(key, this.config.windowSeconds, calls);
    this.maybePrune();
    const allowed = Math.max(0, Math.min(calls, limit - (hit.hits - calls)));
    if (allowed === calls) return { allowed, refusal: undefined };
    this.remember(key, now, hit.retryAfterSeconds);
    return { allowed, refusal: this.refusal(limit, what, hit.retryAfterSeconds) };
  }

  /** One verification lookup of this credential id. */
  async forCredential(credentialId: string): Promise<void> {
    await this.take(bucketKey('c', credentialId), this.config.perCredential, 'this credential');
  }

  /** One request to a public route from this client address. */
  async forClient(ip: string): Promise<void> {
    await this.take(bucketKey('ip', ip), this.config.perIp, 'this client address');
  }

  /**
   * Reserves one failed OAuth client authentication of `clientId` from this address BEFORE the
   * secret is checked, so a concurrent burst cannot have more guesses evaluated than the budget
   * (counting after the check let every request of a burst pass the check first). Beyond the
   * budget it throws RATE_LIMITED, for a right secret too: the endpoint stops being an oracle.
   * The caller gives the attempt back when it was not a failed guess (`giveBack`: the client
   * authenticated, or the check itself could not run), so a client that obtains tokens never
   * spends its own budget.
   *
   * Keyed per (address, client id): behind a shared address (a proxy, a NAT) a client guessing
   * at one id no longer locks every other client at that address out. The id is lower-cased as
   * the authentication compares it, so spelling variants do not multiply the budget.
   */
  async reserveClientAuth(ip: string, clientId: string): Promise<ClientAuthAttempt> {
    const limit = this.oauthFailureLimit();
    if (limit === 0) return UNCOUNTED;
    const key = bucketKey('oa', `${ip}|${clientId.toLowerCase()}`);
    const hit = await this.take(key, limit, 'failed client authentications of this client from this address');
    if (!hit) return UNCOUNTED;
    return { giveBack: () => this.store.release(key, hit.windowStart) };
  }

  private oauthFailureLimit(): number {
    return this.config.oauthFailuresPerIp ?? RATE_LIMIT_DEFAULTS.oauthFailuresPerIp ?? 20;
  }

  private refusal(limit: number, what: string, retryAfterSeconds: number): RetryLaterError {
    return new RetryLaterError('RATE_LIMITED', `rate limit exceeded for ${what} (${limit} per ${this.config.windowSeconds} s)`, retryAfterSeconds);
  }

  /** Refuses from memory a bucket this instance saw exhausted, until its window ends. */
  private refuseIfBlocked(key: string, limit: number, what: string): void {
    // Windows run on the database clock; remembered refusals count real elapsed time (monotonic),
    // not the injectable service clock, which tests move.
    const now = performance.now();
    const until = this.blocked.get(key);
    if (until === undefined) return;
    if (until > now) throw this.refusal(limit, what, (until - now) / 1000);
    this.blocked.delete(key);
  }

  private async take(key: string, limit: number, what: string): Promise<WindowHit | undefined> {
    if (limit === 0) return undefined;
    const { windowSeconds } = this.config;
    const refuse = (retryAfterSeconds: number) => this.refusal(limit, what, retryAfterSeconds);
    const now = performance.now();
    this.refuseIfBlocked(key, limit, what);
    const hit = await this.store.hit(key, windowSeconds);
    this.maybePrune();
    if (hit.hits > limit) {
      this.remember(key, now, hit.retryAfterSeconds);
      throw refuse(hit.retryAfterSeconds);
    }
    return hit;
  }

  private remember(key: string, now: number, retryAfterSeconds: number): void {
    if (this.blocked.size >= MAX_BLOCKED) this.blocked.clear();
    this.blocked.set(key, now + retryAfterSeconds * 1000);
  }

  /** Counters of past windows are dead weight; drop them now and then, off the request path. */
  private maybePrune(): void {
    const now = this.clock.now().getTime();
    if (now - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = now;
    this.store.prune(Math.max(3600, 2 * this.config.windowSeconds)).catch(() => undefined);
  }
}

/**
 * The Family A verifier finds the sealed record by the id the caller names: that lookup is where
 * the oracle starts, whichever way the credential arrived (JSON, cryptograph, multipart with a
 * selfie, GraphQL). Every lookup through the returned repository counts against the credential's
 * budget. Other methods are inherited unchanged (prototype delegation keeps this robust to new
 * repository methods).
 */
export function limitCredentialLookups(repo: IssuedCredentialRepository, limits: RateLimitService): IssuedCredentialRepository {
  const limited = Object.create(repo) as IssuedCredentialRepository;
  limited.findById = async (id: string): Promise<IssuedCredentialRecord | null> => {
    await limits.forCredential(id);
    return repo.findById(id);
  };
  return limited;
}

/**
 * A view of `service` whose `method` first counts the call against the budget of each credential
 * it names. Everything else is inherited (prototype delegation), and the service's own internal
 * callers keep the unlimited instance, so e.g. a holder building a presentation from its
 * credentials does not spend their verification budget.
 */
export function limitPerCredential<T extends object, K extends keyof T>(
  service: T,
  method: K,
  idsOf: (...args: unknown[]) => readonly string[],
  limits: RateLimitService,
): T {
  const original = service[method] as unknown as (...args: unknown[]) => Promise<unknown>;
  const view = Object.create(service) as T;
  const guarded = async (...args: unknown[]): Promise<unknown> => {
    for (const id of new Set(idsOf(...args))) await limits.forCredential(id);
    return original.apply(service, args);
  };
  (view as Record<K, unknown>)[method] = guarded;
  return view;
}
