import { AsyncLocalStorage } from 'node:async_hooks';
import { performance } from 'node:perf_hooks';
import { AppError } from '../../errors';

// The limits are configuration (src/config/verification.ts parses CREDGATE_VERIFY_*), declared there so configuration imports nothing above it.
import { DEFAULT_VERIFICATION_LIMITS, type VerificationLimits } from '../../config/verification';

export { DEFAULT_VERIFICATION_LIMITS, type VerificationLimits };

export type BudgetResource = 'fetches' | 'fetch bytes' | 'deadline' | 'status entries' | 'status lists' | 'related resources' | 'decoded bytes' | 'canonicalised characters';

/**
 * A request's budget is spent: what ran out, and its limit. Verification reports it as a failed
 * check; it is an AppError (INVALID_INPUT, 400: the input asked for more than a request may
 * cost) so that, should one ever escape a check, it is still a clear 4xx and never a 500.
 */
export class BudgetExceeded extends AppError {
  constructor(
    readonly resource: BudgetResource,
    readonly limit: number,
  ) {
    super('INVALID_INPUT', resource === 'deadline' ? `the request's verification deadline of ${limit} ms has passed` : `the request's budget of ${limit} ${resource} is spent`);
  }
}

/** Everything one request may still spend. Counters only grow; every charge past a limit throws BudgetExceeded. */
export class RequestBudget {
  private fetches = 0;
  private fetchBytes = 0;
  private decodedBytes = 0;
  private canonicalChars = 0;
  private statusEntries = 0;
  private relatedResources = 0;
  private readonly statusLists = new Set<string>();
  private readonly deadline: number;

  constructor(
    readonly limits: VerificationLimits = DEFAULT_VERIFICATION_LIMITS,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.deadline = now() + limits.deadlineMs;
  }

  /** Milliseconds left before the deadline (0 when it has passed). */
  remainingMs(): number {
    return Math.max(0, this.deadline - this.now());
  }

  /** Throws when the deadline has passed. */
  checkDeadline(): void {
    if (this.remainingMs() <= 0) throw new BudgetExceeded('deadline', this.limits.deadlineMs);
  }

  /** One outbound request is about to be made. */
  chargeFetch(): void {
    this.checkDeadline();
    if (this.fetches >= this.limits.maxFetches) throw new BudgetExceeded('fetches', this.limits.maxFetches);
    this.fetches += 1;
  }

  /** `n` more response bytes arrived. */
  chargeFetchBytes(n: number): void {
    this.fetchBytes += n;
    if (this.fetchBytes > this.limits.maxFetchBytes) throw new BudgetExceeded('fetch bytes', this.limits.maxFetchBytes);
  }

  /** `n` more bytes were inflated from a status list. */
  chargeDecoded(n: number): void {
    this.decodedBytes += n;
    if (this.decodedBytes > this.limits.maxDecodedBytes) throw new BudgetExceeded('decoded bytes', this.limits.maxDecodedBytes);
  }

  /** `n` more characters are about to be canonicalised. */
  chargeCanonical(n: number): void {
    this.canonicalChars += n;
    if (this.canonicalChars > this.limits.maxCanonicalChars) throw new BudgetExceeded('canonicalised characters', this.limits.maxCanonicalChars);
  }

  /**
   * A credential's status entries and the list URLs they name, admitted whole or not at all
   * (before anything is fetched): per credential, then together with the request's earlier ones.
   */
  admitStatus(entries: number, urls: ReadonlySet<string>): void {
    if (entries > this.limits.maxStatusEntriesPerCredential) throw new BudgetExceeded('status entries', this.limits.maxStatusEntriesPerCredential);
    if (urls.size > this.limits.maxStatusListsPerCredential) throw new BudgetExceeded('status lists', this.limits.maxStatusListsPerCredential);
    if (this.statusEntries + entries > this.limits.maxStatusEntries) throw new BudgetExceeded('status entries', this.limits.maxStatusEntries);
    const fresh = [...urls].filter((u) => !this.statusLists.has(u));
    if (this.statusLists.size + fresh.length > this.limits.maxStatusLists) throw new BudgetExceeded('status lists', this.limits.maxStatusLists);
    this.statusEntries += entries;
    for (const u of fresh) this.statusLists.add(u);
  }

  /** A credential's relatedResource entries, admitted whole or not at all. */
  admitRelatedResources(n: number): void {
    if (this.relatedResources + n > this.limits.maxRelatedResources) throw new BudgetExceeded('related resources', this.limits.maxRelatedResources);
    this.relatedResources += n;
  }

  /** What was spent so far (logs, tests). */
  spent(): { fetches: number; fetchBytes: number; decodedBytes: number; canonicalChars: number; statusEntries: number; statusLists: number; relatedResources: number } {
    return {
      fetches: this.fetches,
      fetchBytes: this.fetchBytes,
      decodedBytes: this.decodedBytes,
      canonicalChars: this.canonicalChars,
      statusEntries: this.statusEntries,
      statusLists: this.statusLists.size,
      relatedResources: this.relatedResources,
    };
  }
}

/*
 * The budget travels with the request's asynchronous work instead of through every signature:
 * the proof suites and the DID resolver (whose cache loaders run far below the service) reach
 * the network through guardedGet, which charges whatever budget is current. Only the
 * verification service opens a scope, around its own work (no express middleware in between),
 * so the context is never lost in a stream callback.
 */
const current = new AsyncLocalStorage<RequestBudget>();

/** Runs `work` with `budget` as the current budget of everything it awaits. */
export function withBudget<T>(budget: RequestBudget, work: () => Promise<T>): Promise<T> {
  return current.run(budget, work);
}

/** The budget of the request being served, if any (scripts and unit tests run without one). */
export function currentBudget(): RequestBudget | undefined {
  return current.getStore();
}

/**
 * One budget per transport request: the REST handler passes its express request, the GraphQL
 * resolvers their per-request context, so aliased GraphQL fields of one operation share one
 * budget instead of multiplying it. Entries go with their key (WeakMap).
 */
export class RequestBudgets {
  private readonly byScope = new WeakMap<object, RequestBudget>();

  constructor(readonly limits: VerificationLimits = DEFAULT_VERIFICATION_LIMITS) {}

  /** The budget of `scope` (created on first use); a fresh one when no scope is given. */
  for(scope?: object): RequestBudget {
    if (scope === undefined) return new RequestBudget(this.limits);
    let budget = this.byScope.get(scope);
    if (!budget) {
      budget = new RequestBudget(this.limits);
      this.byScope.set(scope, budget);
    }
    return budget;
  }
}
