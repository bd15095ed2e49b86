import { intSetting } from './settings';

/**
 * One budget per request (habit 14): whatever one verification request makes the service do on
 * its behalf (outbound fetches for DID documents, status lists and related resources, their
 * bytes, decoded status-list bytes, canonicalised characters, status entries and lists) is
 * counted against one object with one deadline, so no input makes one request cost more than a
 * fixed amount. A presentation of many credentials shares its request's budget.
 */
export interface VerificationLimits {
  /** Outbound HTTP requests (each redirect hop counts) per request. */
  readonly maxFetches: number;
  /** Response bytes of all those requests together. */
  readonly maxFetchBytes: number;
  /** Time from the first verification of the request until every outbound fetch must have ended. */
  readonly deadlineMs: number;
  /** credentialStatus entries one credential may carry. */
  readonly maxStatusEntriesPerCredential: number;
  /** credentialStatus entries of all credentials of the request together. */
  readonly maxStatusEntries: number;
  /** Distinct status list URLs one credential may name. */
  readonly maxStatusListsPerCredential: number;
  /** Distinct status list URLs of the request. */
  readonly maxStatusLists: number;
  /** relatedResource entries of the request (each is fetched). */
  readonly maxRelatedResources: number;
  /** Bytes inflated from status lists (gzip) for the request. */
  readonly maxDecodedBytes: number;
  /** Characters canonicalised for proofs (JCS and RDFC alike) for the request. */
  readonly maxCanonicalChars: number;
}

export const DEFAULT_VERIFICATION_LIMITS: VerificationLimits = Object.freeze({
  maxFetches: 16,
  maxFetchBytes: 4 * 1024 * 1024,
  deadlineMs: 15_000,
  maxStatusEntriesPerCredential: 8,
  maxStatusEntries: 32,
  maxStatusListsPerCredential: 4,
  maxStatusLists: 8,
  maxRelatedResources: 8,
  maxDecodedBytes: 64 * 1024 * 1024,
  maxCanonicalChars: 8 * 1024 * 1024,
});

/**
 * The per-request verification budget (CREDGATE_VERIFY_*; src/vc/net/request-budget.ts, docs/API.md
 * "Verification budget"): what one verification request may make the service fetch, inflate and
 * canonicalise on its behalf, and how long its outbound work may take.
 */
export function parseVerificationLimits(env: NodeJS.ProcessEnv): VerificationLimits {
  const d = DEFAULT_VERIFICATION_LIMITS;
  const MiB = 1024 * 1024;
  return Object.freeze({
    maxFetches: intSetting(env, 'CREDGATE_VERIFY_MAX_FETCHES', d.maxFetches, 0, 256),
    maxFetchBytes: intSetting(env, 'CREDGATE_VERIFY_MAX_FETCH_BYTES', d.maxFetchBytes, 0, 256 * MiB),
    deadlineMs: intSetting(env, 'CREDGATE_VERIFY_DEADLINE_MS', d.deadlineMs, 100, 120_000),
    maxStatusEntriesPerCredential: intSetting(env, 'CREDGATE_VERIFY_MAX_STATUS_ENTRIES_PER_CREDENTIAL', d.maxStatusEntriesPerCredential, 0, 1024),
    maxStatusEntries: intSetting(env, 'CREDGATE_VERIFY_MAX_STATUS_ENTRIES', d.maxStatusEntries, 0, 4096),
    maxStatusListsPerCredential: intSetting(env, 'CREDGATE_VERIFY_MAX_STATUS_LISTS_PER_CREDENTIAL', d.maxStatusListsPerCredential, 0, 256),
    maxStatusLists: intSetting(env, 'CREDGATE_VERIFY_MAX_STATUS_LISTS', d.maxStatusLists, 0, 1024),
    maxRelatedResources: intSetting(env, 'CREDGATE_VERIFY_MAX_RELATED_RESOURCES', d.maxRelatedResources, 0, 256),
    maxDecodedBytes: intSetting(env, 'CREDGATE_VERIFY_MAX_DECODED_BYTES', d.maxDecodedBytes, 0, 1024 * MiB),
    maxCanonicalChars: intSetting(env, 'CREDGATE_VERIFY_MAX_CANONICAL_CHARS', d.maxCanonicalChars, 0, 256 * MiB),
  });
}
