import { ConfigError } from '../../src/config';
import { parseVerificationLimits } from '../../src/config/verification';
import { DEFAULT_VERIFICATION_LIMITS } from '../../src/vc/net/request-budget';

test('the verification budget defaults, and CREDGATE_VERIFY_* overrides each limit', () => {
  expect(parseVerificationLimits({})).toEqual(DEFAULT_VERIFICATION_LIMITS);
  const l = parseVerificationLimits({ CREDGATE_VERIFY_MAX_FETCHES: '3', CREDGATE_VERIFY_DEADLINE_MS: '2500', CREDGATE_VERIFY_MAX_STATUS_LISTS: '2', CREDGATE_VERIFY_MAX_RELATED_RESOURCES: '0' });
  expect(l).toMatchObject({ maxFetches: 3, deadlineMs: 2500, maxStatusLists: 2, maxRelatedResources: 0, maxStatusEntries: DEFAULT_VERIFICATION_LIMITS.maxStatusEntries });
});

test.each([['CREDGATE_VERIFY_MAX_FETCHES', '-1'], ['CREDGATE_VERIFY_DEADLINE_MS', '10'], ['CREDGATE_VERIFY_MAX_STATUS_ENTRIES', 'many']])('%s=%s stops start-up', (name, value) => {
  expect(() => parseVerificationLimits({ [name]: value })).toThrow(ConfigError);
});
