import { parseConfig } from '../../src/config';
import { AppError } from '../../src/errors';
import {
  type IdempotencyRecord,
  type IdempotencyScope,
  IdempotencyService,
  type IdempotencyStore,
  type StoredResponse,
  fingerprintOf,
  isStorableStatus,
  parseIdempotencyKey,
} from '../../src/services/idempotency.service';

/** The store's contract in memory (the PostgreSQL one is exercised by test/e2e/idempotency.e2e.test.ts). */
class MemoryStore implements IdempotencyStore {
  readonly rows = new Map<string, { fingerprint: string; owner: string; response?: StoredResponse; expired?: boolean }>();
  private id = (s: IdempotencyScope): string => `${s.tenantId}/${s.apiKeyId}/${s.key}`;
  async claim(s: IdempotencyScope, fingerprint: string, owner: string): Promise<boolean> {
    if (this.rows.has(this.id(s))) return false;
    this.rows.set(this.id(s), { fingerprint, owner });
    return true;
  }
  async takeOver(s: IdempotencyScope, fingerprint: string, owner: string): Promise<boolean> {
    const row = this.rows.get(this.id(s));
    if (!row?.expired) return false;
    this.rows.set(this.id(s), { fingerprint, owner });
    return true;
  }
  async find(s: IdempotencyScope): Promise<IdempotencyRecord | undefined> {
    const row = this.rows.get(this.id(s));
    return row ? { fingerprint: row.fingerprint, response: row.response } : undefined;
  }
  async complete(s: IdempotencyScope, owner: string, response: StoredResponse): Promise<void> {
    const row = this.rows.get(this.id(s));
    if (row?.owner === owner && !row.response) row.response = response;
  }
  async release(s: IdempotencyScope, owner: string): Promise<void> {
    const row = this.rows.get(this.id(s));
    if (row?.owner === owner && !row.response) this.rows.delete(this.id(s));
  }
  async prune(): Promise<number> {
    return 0;
  }
}

const scope: IdempotencyScope = { tenantId: 't', apiKeyId: 'k', key: 'abc' };
const answer = (status: number): StoredResponse => ({ status, headers: { 'content-type': 'application/json' }, body: Buffer.from('{"id":"x"}') });

async function codeOf(p: Promise<unknown>): Promise<string | undefined> {
  try {
    await p;
    return undefined;
  } catch (e) {
    return e instanceof AppError ? e.code : 'not an AppError';
  }
}

describe('IdempotencyService', () => {
  test('a 503 or 500 releases the key so a retry runs again; a 201 is replayed', async () => {
    const store = new MemoryStore();
    const service = new IdempotencyService(store, { ttlSeconds: 60 });
    for (const status of [503, 500, 429, 401, 403, 409]) {
      const claim = await service.begin(scope, 'f');
      expect(claim.kind).toBe('claimed');
      if (claim.kind === 'claimed') await service.finish(scope, claim.owner, answer(status));
      expect(store.rows.size).toBe(0);
    }
    const claim = await service.begin(scope, 'f');
    if (claim.kind !== 'claimed') throw new Error('expected a claim');
    await service.finish(scope, claim.owner, answer(201));
    expect(await service.begin(scope, 'f')).toEqual({ kind: 'replay', response: answer(201) });
  });

  test('in flight → IDEMPOTENCY_IN_PROGRESS (retry later); another fingerprint → IDEMPOTENCY_KEY_REUSED', async () => {
    const service = new IdempotencyService(new MemoryStore(), { ttlSeconds: 60 });
    expect((await service.begin(scope, 'f')).kind).toBe('claimed');
    expect(await codeOf(service.begin(scope, 'f'))).toBe('IDEMPOTENCY_IN_PROGRESS');
    expect(await codeOf(service.begin(scope, 'g'))).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  test('an expired record is taken over by the next request, whatever it is', async () => {
    const store = new MemoryStore();
    const service = new IdempotencyService(store, { ttlSeconds: 60 });
    const claim = await service.begin(scope, 'f');
    if (claim.kind !== 'claimed') throw new Error('expected a claim');
    await service.finish(scope, claim.owner, answer(201));
    store.rows.get('t/k/abc')!.expired = true;
    expect((await service.begin(scope, 'g')).kind).toBe('claimed');
  });

  test('storable answers: 2xx and deterministic client errors only', () => {
    for (const s of [200, 201, 202, 400, 404, 413, 415, 422]) expect(isStorableStatus(s)).toBe(true);
    for (const s of [401, 403, 408, 409, 429, 500, 502, 503]) expect(isStorableStatus(s)).toBe(false);
  });
});

describe('keys and fingerprints', () => {
  test('malformed keys are INVALID_INPUT; absent is undefined', () => {
    expect(parseIdempotencyKey(undefined)).toBeUndefined();
    expect(parseIdempotencyKey('a-b_c.1:2')).toBe('a-b_c.1:2');
    expect(parseIdempotencyKey('k'.repeat(255))).toBe('k'.repeat(255));
    for (const bad of ['', ' ', 'a b', 'k'.repeat(256), 'é', 'tab\t', ['a', 'b']]) {
      expect(() => parseIdempotencyKey(bad)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    }
  });

  test('the fingerprint ignores key order and covers method, path, body and extras', () => {
    const base = { method: 'POST', path: '/credentials', body: { a: 1, b: [1, 2] } };
    expect(fingerprintOf(base)).toBe(fingerprintOf({ ...base, body: { b: [1, 2], a: 1 } }));
    expect(fingerprintOf(base)).toMatch(/^[0-9a-f]{64}$/);
    expect(fingerprintOf(base)).not.toBe(fingerprintOf({ ...base, body: { a: 2, b: [1, 2] } }));
    expect(fingerprintOf(base)).not.toBe(fingerprintOf({ ...base, path: '/dids' }));
    expect(fingerprintOf(base)).not.toBe(fingerprintOf({ ...base, method: 'PUT' }));
    expect(fingerprintOf(base)).not.toBe(fingerprintOf({ ...base, extra: { did: 'did:x:1' } }));
  });
});

describe('CREDGATE_IDEMPOTENCY_TTL_SECONDS', () => {
  test('defaults to a day, accepts 60 s to 30 days, refuses anything else', () => {
    expect(parseConfig({}).idempotencyTtlSeconds).toBe(86_400);
    expect(parseConfig({ CREDGATE_IDEMPOTENCY_TTL_SECONDS: '3600' }).idempotencyTtlSeconds).toBe(3600);
    for (const bad of ['59', '2592001', 'x', '-1']) expect(() => parseConfig({ CREDGATE_IDEMPOTENCY_TTL_SECONDS: bad })).toThrow(/CREDGATE_IDEMPOTENCY_TTL_SECONDS/);
  });
});
