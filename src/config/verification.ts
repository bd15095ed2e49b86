import { DEFAULT_VERIFICATION_LIMITS, type VerificationLimits } from '../vc/net/request-budget';
import { intSetting } from './settings';

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
