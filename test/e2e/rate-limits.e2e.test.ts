import { randomBytes } from 'node:crypto';
import type { Config } from '../../src/config';
import { CredgateGraphQLError } from '../../src/sdk';
import { type TestServer, startTestServer, useTestServer } from '../support/harness';
import { type HttpResponse, request } from '../support/http';
import { ATTRIBUTES, consent, newHolder, newParty, subject, unwrap } from '../support/family-a-fixtures';
import { createTestDatabase } from '../support/test-db';

/**
 * Attack: oracle-shaped endpoints answer as often as a caller asks, so a verifier key (in any
 * tenant) can hill-climb a sealed face template or guess encrypted attributes. Every oracle call
 * must count against the API key, every verification lookup against the credential, and keyless
 * public routes against the client address; over the budget: 429 + Retry-After (REST) or
 * RATE_LIMITED + retryAfter (GraphQL). Budgets live in PostgreSQL, so instances share them.
 *
 * The window is a day, so no window boundary falls inside a test run (counts are exact).
 */
const LIMITS: Config['rateLimits'] = { windowSeconds: 86_400, perApiKey: 6, perCredential: 5, perIp: 8 };

const server = useTestServer(() => ({ env: { rateLimits: LIMITS } }));

type Attempt = { ok: boolean; status: number; code?: string; retryAfter?: number };

function expectRateLimitedRest(res: HttpResponse): void {
  expect(res.status).toBe(429);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(LIMITS.windowSeconds);
}

async function gql(fn: () => Promise<unknown>): Promise<Attempt> {
  try {
    await fn();
    return { ok: true, status: 200 };
  } catch (e) {
    if (!(e instanceof CredgateGraphQLError)) throw e;
    const ext = e.errors[0]?.extensions as Record<string, unknown> | undefined;
    return { ok: false, status: Number(ext?.['status'] ?? e.httpStatus), code: e.code, ...(typeof ext?.['retryAfter'] === 'number' ? { retryAfter: ext['retryAfter'] } : {}) };
  }
}

function expectRateLimitedGql(a: Attempt): void {
  expect(a).toMatchObject({ ok: false, code: 'RATE_LIMITED', status: 429 });
  expect(Number.isInteger(a.retryAfter)).toBe(true);
  expect(a.retryAfter).toBeGreaterThanOrEqual(1);
  expect(a.retryAfter).toBeLessThanOrEqual(LIMITS.windowSeconds);
}

/** A bad signature: the oracle answers "invalid" (400), which still costs a call. */
const badSignature = { signature: 'ab'.repeat(64), data: { probe: 1 }, publicKey: `02${'11'.repeat(32)}` };

describe('per API key, on oracle-shaped operations', () => {
  const restOracles: [string, string, (key: string) => Promise<HttpResponse>][] = [
    ['REST', 'POST /signature/verify', (key) => request(server.baseUrl, 'POST', '/signature/verify', { headers: { 'X-API-Key': key }, body: badSignature })],
    ['REST', 'POST /credentials/verify', (key) => request(server.baseUrl, 'POST', '/credentials/verify', { headers: { 'X-API-Key': key }, body: { credential: { id: `urn:uuid:${randomBytes(8).toString('hex')}` } } })],
    ['REST', 'POST /verify-vp', (key) => request(server.baseUrl, 'POST', '/verify-vp', { headers: { 'X-API-Key': key }, body: {} })],
    ['REST', 'POST /verifyZkpToken', (key) => request(server.baseUrl, 'POST', '/verifyZkpToken', { headers: { 'X-API-Key': key }, body: {} })],
    ['REST /api', 'POST /api/verifier/verify', (key) => request(server.baseUrl, 'POST', '/api/verifier/verify', { headers: { 'X-API-Key': key }, body: {} })],
    ['REST', 'POST /verifier/verify', (key) => request(server.baseUrl, 'POST', '/verifier/verify', { headers: { 'X-API-Key': key }, body: {} })],
    ['REST', 'POST /user/decrypt', (key) => request(server.baseUrl, 'POST', '/user/decrypt', { headers: { 'X-API-Key': key, privateKey: '00' }, body: { vc: {} } })],
    ['REST /api', 'POST /api/user/image/compare', (key) => request(server.baseUrl, 'POST', '/api/user/image/compare', { headers: { 'X-API-Key': key }, body: { templateA: 'x', templateB: 'y' } })],
  ];

  test.each(restOracles)('%s %s: the call after the budget answers 429 with Retry-After; another key is unaffected', async (_t, _op, call) => {
    const tenant = `rl-${randomBytes(3).toString('hex')}`;
    const key = await server.apiKey(tenant, ['verifier', 'holder']);
    const other = await server.apiKey(tenant, ['verifier', 'holder']);
    for (let i = 0; i < LIMITS.perApiKey; i++) expect((await call(key)).status).not.toBe(429);
    const refused = await call(key);
    expectRateLimitedRest(refused);
    expect(refused.json).toEqual(expect.objectContaining(refused.json.error !== undefined ? { error: expect.stringMatching(/rate limit/) } : { success: false, code: 'RATE_LIMITED', status: 429 }));
    expect((await call(other)).status).not.toBe(429);
  });

  test('GraphQL: ten aliases of one oracle spend ten calls; then RATE_LIMITED with retryAfter; another key is unaffected', async () => {
    const tenant = `rl-${randomBytes(3).toString('hex')}`;
    const key = await server.apiKey(tenant, ['verifier', 'holder']);
    const other = await server.apiKey(tenant, ['verifier']);
    const res = await request(server.baseUrl, 'POST', '/graphql', {
      headers: { 'X-API-Key': key },
      body: {
        query: `query($s: String!, $d: JSON!, $k: String!) { ${Array.from({ length: 10 }, (_, i) => `a${i}: verifySignature(signature: $s, data: $d, publicKey: $k)`).join(' ')} }`,
        variables: { s: badSignature.signature, d: badSignature.data, k: badSignature.publicKey },
      },
    });
    // The first six aliases fit the budget and ran (a bad signature each); the other four were refused.
    // GraphQL answers with the first error of a non-null root field, so only one of them shows.
    expect(['INVALID_PUBLIC_KEY', 'RATE_LIMITED']).toContain(res.json.errors[0].extensions.code);
    // All ten were counted before the answer left: the request cannot race ahead of its own counting.
    const [view] = (await server.app.services.auth.listApiKeys(tenant)).filter((k) => k.scopes.includes('holder'));
    const rows = await server.app.db.prisma.rateLimitCounter.findMany({ where: { key: `k:${view!.id}` } });
    expect(rows.map((r) => r.hits)).toEqual([10]);

    expectRateLimitedGql(await gql(() => server.sdk(key).verifySignature(badSignature)));
    expectRateLimitedGql(await gql(() => server.sdk(key).decryptCredential({ privateKey: '00', vc: {} })));
    expect(await gql(() => server.sdk(other).verifySignature(badSignature))).toMatchObject({ ok: false, status: 400 });
  });
});

describe('a flood past the budget', () => {
  test('refusals are answered from memory: the shared counter stops one past the budget (no hot-row upsert per request)', async () => {
    const tenant = `rl-flood-${randomBytes(3).toString('hex')}`;
    const key = await server.apiKey(tenant, ['verifier']);
    const [view] = await server.app.services.auth.listApiKeys(tenant);
    const call = () => request(server.baseUrl, 'POST', '/signature/verify', { headers: { 'X-API-Key': key }, body: badSignature });
    for (let i = 0; i < LIMITS.perApiKey; i++) expect((await call()).status).toBe(400);
    // The first refusal teaches the instance; calls racing it in flight could still be counted.
    expectRateLimitedRest(await call());
    const refused = await Promise.all(Array.from({ length: 20 }, call));
    for (const r of refused) expectRateLimitedRest(r);
    const rows = await server.app.db.prisma.rateLimitCounter.findMany({ where: { key: `k:${view!.id}` } });
    expect(rows.map((r) => r.hits)).toEqual([LIMITS.perApiKey + 1]);
  });
});

describe.each(['REST', 'REST /api', 'GraphQL'])('per credential, across keys of several tenants, through %s', (name) => {
  test('verifying one credential from many keys stops at its budget; another credential still verifies', async () => {
    const p = await newParty(server, name);
    const issuerDid = unwrap(await p.fa.issuerDid(p.issuerKey));
    const schemaName = `RateLimited${randomBytes(3).toString('hex')}`;
    unwrap(await p.fa.createSchema(p.issuerKey, { schemaName, description: 'limits', attributes: { attributes: ATTRIBUTES }, expiration: { value: 1, unit: 'years' }, dependantSchemas: [] }));
    const user = await newHolder(p);
    const issue = async () => {
      const headers = await consent(p, user, issuerDid, subject());
      return unwrap(await p.fa.issue(p.issuerKey, headers, { schemaName: `${schemaName}:1`, isEncrypted: true, credentialSubject: subject() }));
    };
    const target = await issue();
    const spare = await issue();
    const headers = (c: { userSignature: string }) => ({ publicKey: user.publicKey, userSignature: c.userSignature });

    // Each attempt comes from a fresh verifier key in a fresh tenant: per-key budgets never bind.
    const attackers = await Promise.all(Array.from({ length: LIMITS.perCredential + 1 }, (_, i) => server.apiKey(`rl-atk-${i}-${randomBytes(3).toString('hex')}`, ['verifier'])));
    for (const key of attackers.slice(0, LIMITS.perCredential)) {
      const r = await p.fa.verify(key, headers(target), { credentials: target.verifiableCredential, verifyParams: ['name=Mallory'] });
      expect(r.ok).toBe(true);
    }
    const refused = await p.fa.verify(attackers[LIMITS.perCredential]!, headers(target), { credentials: target.verifiableCredential, verifyParams: ['name=Mallory'] });
    expect(refused).toEqual({ ok: false, status: 429, code: 'RATE_LIMITED' });
    // The credential's own verifier is refused too: the budget is the credential's, not the caller's.
    expect(await p.fa.verify(p.verifierKey, headers(target), { credentials: target.verifiableCredential })).toEqual({ ok: false, status: 429, code: 'RATE_LIMITED' });

    const other = await p.fa.verify(p.verifierKey, headers(spare), { credentials: spare.verifiableCredential });
    expect(unwrap(other).success).toBe(true);
  });
});

describe('per credential, on presentations (REST and GraphQL)', () => {
  test('a presentation naming a credential spends the budget of that credential, whoever presents it', async () => {
    const target = `urn:uuid:${randomBytes(16).toString('hex')}`;
    const body = { vpToken: { verifiableCredential: [{ id: target }] }, sharedAttributes: {}, holderDID: 'did:example:x', holderPublicKey: '02' };
    const attempt = async (i: number): Promise<number> => {
      const key = await server.apiKey(`rl-vp-${i}-${randomBytes(3).toString('hex')}`, ['verifier']);
      if (i % 2 === 0) return (await request(server.baseUrl, 'POST', '/verify-vp', { headers: { 'X-API-Key': key }, body })).status;
      return (await gql(() => server.sdk(key).verifyPresentation({ input: body as never }))).status;
    };
    for (let i = 0; i < LIMITS.perCredential; i++) expect(await attempt(i)).not.toBe(429);
    expect(await attempt(LIMITS.perCredential)).toBe(429);
    expect(await attempt(LIMITS.perCredential + 1)).toBe(429);
  });
});

describe('per client address, on public routes', () => {
  test('GET /schema/{name} and /status/{listId} share the address budget; over it 429 with Retry-After', async () => {
    const hits: HttpResponse[] = [];
    for (let i = 0; i < LIMITS.perIp; i++) {
      hits.push(await request(server.baseUrl, 'GET', i % 2 === 0 ? `/schema/Nothing${i}` : `/status/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`));
    }
    expect(hits.every((h) => h.status === 404)).toBe(true);
    const refused = await request(server.baseUrl, 'GET', '/schema/Nothing');
    expectRateLimitedRest(refused);
    expect(refused.json).toEqual({ error: expect.stringMatching(/rate limit/), code: 'RATE_LIMITED' });
    // Health probes are never limited.
    expect((await request(server.baseUrl, 'GET', '/healthz')).status).toBe(200);
  });
});

describe('two instances on one PostgreSQL database', () => {
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    const db = await createTestDatabase('postgres');
    a = await startTestServer({ db, env: { rateLimits: LIMITS } });
    b = await startTestServer({ db, env: { rateLimits: LIMITS }, ...(a.config.masterKey ? { masterKey: a.config.masterKey } : {}) });
  });
  afterAll(async () => {
    await b?.close();
    await a?.stop();
  });

  test('one API key budget, whichever instance answers (REST and GraphQL alternate)', async () => {
    const key = await a.apiKey(`rl-two-${randomBytes(3).toString('hex')}`, ['verifier']);
    const statuses: number[] = [];
    for (let i = 0; i < LIMITS.perApiKey; i++) {
      const s = i % 2 === 0 ? a : b;
      if (i % 3 === 0) statuses.push((await gql(() => s.sdk(key).verifySignature(badSignature))).status);
      else statuses.push((await request(s.baseUrl, 'POST', '/signature/verify', { headers: { 'X-API-Key': key }, body: badSignature })).status);
    }
    expect(statuses.every((s) => s === 400)).toBe(true);
    expectRateLimitedRest(await request(a.baseUrl, 'POST', '/signature/verify', { headers: { 'X-API-Key': key }, body: badSignature }));
    expectRateLimitedGql(await gql(() => b.sdk(key).verifySignature(badSignature)));
  });
});
