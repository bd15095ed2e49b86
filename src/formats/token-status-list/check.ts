import { AppError } from '../../errors';
import { currentBudget } from '../../vc/net/request-budget';
import type { IssuerTrust, StatusListReference } from '../sd-jwt-vc/types';
import { statusAt } from './bits';
import type { StatusListTokenSource } from './http-source';
import { readStatusListToken } from './token';

/** The service's own lists, read from the database (the current bits, never a stale token). */
export interface OwnTokenStatusLists {
  /** Null when `uri` is not one of this service's lists; undefined when `idx` is outside it. */
  statusOf(uri: string, idx: number): Promise<number | undefined | null>;
}

export interface TokenStatusCheckerOptions {
  readonly own?: OwnTokenStatusLists;
  readonly remote: StatusListTokenSource;
  /** Who may sign other issuers' lists (the trust the credential itself was checked with). */
  readonly trust: IssuerTrust;
  /** Seconds since the epoch. */
  readonly now: () => number;
  /** Largest inflated list accepted (default 16 MiB = 134M one-bit entries). */
  readonly maxListBytes?: number;
}

export const DEFAULT_MAX_TOKEN_LIST_BYTES = 16 * 1024 * 1024;

/**
 * The status of a `status.status_list` reference (0 = VALID, 1 = INVALID, …), for
 * verifySdJwtVc's `checkStatus`: own lists from the database, others fetched (budgeted,
 * cached), validated (§8.3) and inflated within the request's decoded-bytes budget.
 *
 * @throws AppError when the status cannot be established (the verifier reports it as a problem).
 */
export function createTokenStatusChecker(options: TokenStatusCheckerOptions): (ref: StatusListReference) => Promise<number> {
  const maxBytes = options.maxListBytes ?? DEFAULT_MAX_TOKEN_LIST_BYTES;
  return async (ref) => {
    // Counted like a credentialStatus entry: one entry, one list (habit 14).
    currentBudget()?.admitStatus(1, new Set([ref.uri]));
    const own = options.own ? await options.own.statusOf(ref.uri, ref.idx) : null;
    if (own !== null) {
      if (own === undefined) throw new AppError('INVALID_INPUT', `status index ${ref.idx} is outside the list ${ref.uri}`);
      return own;
    }
    const token = await options.remote.fetchToken(ref.uri);
    const budget = currentBudget();
    const contents = await readStatusListToken(token, { trust: options.trust, uri: ref.uri, now: options.now(), maxBytes: budget ? Math.min(maxBytes, budget.limits.maxDecodedBytes) : maxBytes });
    budget?.chargeDecoded(contents.bytes.length);
    const status = statusAt(contents.bytes, contents.bits, ref.idx);
    if (status === undefined) throw new AppError('INVALID_INPUT', `status index ${ref.idx} is outside the list ${ref.uri}`);
    return status;
  };
}
