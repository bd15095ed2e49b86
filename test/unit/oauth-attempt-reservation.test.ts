import { AppError } from '../../src/errors';
import { RateLimitService, type RateLimitStore, type WindowHit } from '../../src/services/rate-limit.service';
import { OAuthService } from '../../src/services/oauth/oauth.service';
import type { AuthService } from '../../src/services/auth.service';
import type { AccessTokens } from '../../src/services/oauth/access-tokens';

/**
 * Issue 17, attack 4, at the service: the attempt is reserved before the secret is checked and
 * given back only when it was no failed guess (the check ran and succeeded, or could not run).
 */
class CountingStore implements RateLimitStore {
  readonly hits = new Map<string, number>();
  async hit(key: string): Promise<WindowHit> {
    const hits = (this.hits.get(key) ?? 0) + 1;
    this.hits.set(key, hits);
    return { hits, retryAfterSeconds: 60, windowStart: 0 };
  }
  async release(key: string): Promise<void> {
    this.hits.set(key, Math.max(0, (this.hits.get(key) ?? 0) - 1));
  }
  async prune(): Promise<number> {
    return 0;
  }
  total(): number {
    return [...this.hits.values()].reduce((a, b) => a + b, 0);
  }
}

const CLIENT = '00000000-0000-4000-8000-000000000001';
const KEY = `cgk_${CLIENT.replace(/-/g, '')}_${'A'.repeat(43)}`;
const clock = { now: () => new Date('2026-01-01T00:00:00Z') };
const tokens = { issue: async () => ({ token: 't', expiresIn: 600 }) } as unknown as AccessTokens;

function serviceWith(authenticate: () => Promise<unknown>, store = new CountingStore()) {
  const auth = { isEnvAdminKey: () => false, authenticate } as unknown as AuthService;
  const limits = new RateLimitService(store, { windowSeconds: 60, perApiKey: 0, perCredential: 0, perIp: 0, oauthFailuresPerIp: 3 }, clock);
  return { oauth: new OAuthService(auth, tokens, limits), store };
}

const request = { grantType: 'client_credentials', scope: undefined, clientId: CLIENT, clientSecret: KEY, clientIp: '192.0.2.1' };
const codeOf = (p: Promise<unknown>) => p.then(() => 'ok', (e: unknown) => (e instanceof AppError ? e.code : (e as { error?: string }).error));

test('a wrong secret keeps its reservation; past the budget nothing is checked', async () => {
  let checked = 0;
  const { oauth, store } = serviceWith(async () => {
    checked++;
    throw new AppError('UNAUTHENTICATED', 'no');
  });
  const outcomes = [];
  for (let i = 0; i < 5; i++) outcomes.push(await codeOf(oauth.token(request)));
  expect(outcomes).toEqual(['invalid_client', 'invalid_client', 'invalid_client', 'RATE_LIMITED', 'RATE_LIMITED']);
  expect(checked).toBe(3);
  expect(store.total()).toBe(4); // the fifth was refused from memory without a hit
});

test('a right secret gives its reservation back', async () => {
  const actor = { tenantId: 't', tenantSlug: 't', apiKeyId: CLIENT, scopes: ['issuer'] };
  const { oauth, store } = serviceWith(async () => actor);
  for (let i = 0; i < 5; i++) expect(await codeOf(oauth.token(request))).toBe('ok');
  expect(store.total()).toBe(0);
});

test('a check that could not run (the database is busy) is no failed guess: given back, and the error surfaces', async () => {
  const { oauth, store } = serviceWith(async () => {
    throw new AppError('SERVICE_UNAVAILABLE', 'busy');
  });
  for (let i = 0; i < 5; i++) expect(await codeOf(oauth.token(request))).toBe('SERVICE_UNAVAILABLE');
  expect(store.total()).toBe(0);
});

test('the budget is per (address, client id): another client at the address and the client elsewhere keep theirs', async () => {
  const { oauth, store } = serviceWith(async () => {
    throw new AppError('UNAUTHENTICATED', 'no');
  });
  for (let i = 0; i < 4; i++) await codeOf(oauth.token(request));
  expect(await codeOf(oauth.token(request))).toBe('RATE_LIMITED');
  const other = '00000000-0000-4000-8000-000000000002';
  expect(await codeOf(oauth.token({ ...request, clientId: other, clientSecret: `cgk_${other.replace(/-/g, '')}_${'A'.repeat(43)}` }))).toBe('invalid_client');
  expect(await codeOf(oauth.token({ ...request, clientIp: '192.0.2.2' }))).toBe('invalid_client');
  expect(await codeOf(oauth.token({ ...request, clientId: CLIENT.toUpperCase() }))).toBe('RATE_LIMITED');
  expect(store.hits.size).toBe(3);
});
