import { parseConfig } from '../../src/config';
import { AppError } from '../../src/errors';
import {
  type IdempotencyRecord,
  type IdempotencyScope,
  IdempotencyService,
  type IdempotencyStore,
  type StoredResponse,
  authorityOf,
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
/** The caller's authority: the key's scopes as they are. */
const AUTH = authorityOf({ scopes: ['issuer', 'verifier'] });
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
      const claim = await service.begin(scope, 'f', AUTH);
      expect(claim.kind).toBe('claimed');
      if (claim.kind === 'claimed') await service.finish(scope, claim.owner, answer(status));
      expect(store.rows.size).toBe(0);
    }
    const claim = await service.begin(scope, 'f', AUTH);
    if (claim.kind !== 'claimed') throw new Error('expected a claim');
    await service.finish(scope, claim.owner, answer(201));
    expect(await service.begin(scope, 'f', AUTH)).toEqual({ kind: 'replay', response: answer(201) });
  });

  test('in flight → IDEMPOTENCY_IN_PROGRESS (retry later); another fingerprint → IDEMPOTENCY_KEY_REUSED', async () => {
    const service = new IdempotencyService(new MemoryStore(), { ttlSeconds: 60 });
    expect((await service.begin(scope, 'f', AUTH)).kind).toBe('claimed');
    expect(await codeOf(service.begin(scope, 'f', AUTH))).toBe('IDEMPOTENCY_IN_PROGRESS');
    expect(await codeOf(service.begin(scope, 'g', AUTH))).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  test('an expired record is taken over by the next request, whatever it is', async () => {
    const store = new MemoryStore();
    const service = new IdempotencyService(store, { ttlSeconds: 60 });
    const claim = await service.begin(scope, 'f', AUTH);
    if (claim.kind !== 'claimed') throw new Error('expected a claim');
    await service.finish(scope, claim.owner, answer(201));
    store.rows.get('t/k/abc')!.expired = true;
    expect((await service.begin(scope, 'g', AUTH)).kind).toBe('claimed');
  });

  test('the same request under another authority of the same key: FORBIDDEN, neither the stored answer nor a new claim', async () => {
    const store = new MemoryStore();
    const service = new IdempotencyService(store, { ttlSeconds: 60 });
    const claim = await service.begin(scope, 'f', AUTH);
    if (claim.kind !== 'claimed') throw new Error('expected a claim');
    // In flight, then completed: the other authority is refused either way.
    const narrowed = authorityOf({ scopes: ['verifier'] });
    expect(await codeOf(service.begin(scope, 'f', narrowed))).toBe('FORBIDDEN');
    await service.finish(scope, claim.owner, answer(201));
    expect(await codeOf(service.begin(scope, 'f', narrowed))).toBe('FORBIDDEN');
    expect(await codeOf(service.begin(scope, 'f', authorityOf({ scopes: ['issuer'] })))).toBe('FORBIDDEN');
    expect(await codeOf(service.begin(scope, 'f', authorityOf({ scopes: ['issuer', 'verifier'], holderDid: 'did:key:z6Mk' })))).toBe('FORBIDDEN');
    // Another request is still 422, whoever asks; the first authority still gets its replay.
    expect(await codeOf(service.begin(scope, 'g', narrowed))).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await service.begin(scope, 'f', AUTH)).toEqual({ kind: 'replay', response: answer(201) });
    expect(store.rows.size).toBe(1);
  });

  test('an authority is the set of scopes (order and repeats aside) and the holder binding', () => {
    expect(authorityOf({ scopes: ['verifier', 'issuer', 'issuer'] })).toBe(AUTH);
    expect(authorityOf({ scopes: ['issuer'] })).not.toBe(AUTH);
    expect(authorityOf({ scopes: ['holder'], holderDid: 'did:key:a' })).not.toBe(authorityOf({ scopes: ['holder'], holderDid: 'did:key:b' }));
    expect(authorityOf({ scopes: ['holder'], holderDid: 'did:key:a' })).not.toBe(authorityOf({ scopes: ['holder'] }));
  });

  test('a record stored before authorities were kept (a bare fingerprint) still replays until it expires', async () => {
    const store = new MemoryStore();
    const service = new IdempotencyService(store, { ttlSeconds: 60 });
    store.rows.set('t/k/abc', { fingerprint: 'f', owner: 'o', response: answer(201) });
    expect(await service.begin(scope, 'f', AUTH)).toEqual({ kind: 'replay', response: answer(201) });
    expect(await codeOf(service.begin(scope, 'g', AUTH))).toBe('IDEMPOTENCY_KEY_REUSED');
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
