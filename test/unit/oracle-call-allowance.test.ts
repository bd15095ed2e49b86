import { RateLimitService, type RateLimitStore, type WindowHit } from '../../src/services/rate-limit.service';
import type { Actor } from '../../src/domain/tenancy/actor';

/**
 * GraphQL aliases of one oracle are counted in one write before any of them runs; the first calls
 * that fit the budget run and the rest are refused (src/graphql/rate-limit.middleware.ts).
 */
class SummingStore implements RateLimitStore {
  readonly writes: number[] = [];
  private hits = 0;
  async hit(_key: string, _windowSeconds: number, by = 1): Promise<WindowHit> {
    this.writes.push(by);
    this.hits += by;
    return { hits: this.hits, retryAfterSeconds: 30, windowStart: 0 };
  }
  async release(): Promise<void> {}
  async prune(): Promise<number> {
    return 0;
  }
}

const actor = { tenantId: 't', tenantSlug: 't', apiKeyId: 'key-1', scopes: ['verifier'] } as unknown as Actor;
const clock = { now: () => new Date('2026-01-01T00:00:00Z') };

function limits(store: SummingStore): RateLimitService {
  return new RateLimitService(store, { windowSeconds: 60, perApiKey: 6, perCredential: 0, perIp: 0 }, clock);
}

test('a batch that fits runs whole; one that straddles the budget runs its first calls only', async () => {
  const store = new SummingStore();
  const rl = limits(store);
  expect(await rl.forApiKeyCalls(actor, 4)).toEqual({ allowed: 4, refusal: undefined });
  const straddling = await rl.forApiKeyCalls(actor, 5);
  expect(straddling.allowed).toBe(2);
  expect(straddling.refusal).toMatchObject({ code: 'RATE_LIMITED', retryAfterSeconds: 30 });
  expect(store.writes).toEqual([4, 5]);
});

test('once exhausted, a batch is refused from memory without another write', async () => {
  const store = new SummingStore();
  const rl = limits(store);
  expect((await rl.forApiKeyCalls(actor, 10)).allowed).toBe(6);
  const again = await rl.forApiKeyCalls(actor, 3);
  expect(again.allowed).toBe(0);
  expect(again.refusal).toMatchObject({ code: 'RATE_LIMITED' });
  await expect(rl.forApiKey(actor)).rejects.toMatchObject({ code: 'RATE_LIMITED' });
  expect(store.writes).toEqual([10]);
});
