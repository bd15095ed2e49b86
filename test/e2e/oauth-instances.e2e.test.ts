import { randomBytes } from 'node:crypto';
import { type RunningService, runCliAsync, startService } from '../support/process';
import { type HttpResponse, request } from '../support/http';
import { type TestDatabase, createTestDatabase } from '../support/test-db';

/**
 * Two instances of one deployment (same database, same master key, compiled service): each
 * accepts the other's access tokens with no shared state beyond the master key, a key revoked
 * from the CLI stops its tokens on both, and failed client authentications share one budget.
 */
let db: TestDatabase;
let a: RunningService;
let b: RunningService;
let env: Record<string, string>;
let key: string;
let keyId: string;

/** The id half of a key's text (`cgk_<id hex>_<secret>`): the OAuth client id. */
const idOf = (k: string): string => {
  const h = /^cgk_([0-9a-f]{32})_/.exec(k)![1]!;
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};
const basic = (id: string, secret: string): string => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
const token = (base: string, id: string, secret: string): Promise<HttpResponse> =>
  request(base, 'POST', '/oauth/token', { headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(id, secret) }, raw: 'grant_type=client_credentials' });

beforeAll(async () => {
  db = await createTestDatabase('postgres');
  env = {
    DATABASE_URL: db.config.kind === 'postgres' ? db.config.url : '',
    CREDGATE_MASTER_KEY: randomBytes(32).toString('hex'),
    CREDGATE_DATA_DIR: db.dataDir,
    CREDGATE_PUBLIC_URL: 'http://credgate.test',
    CREDGATE_OAUTH_TOKEN_TTL_SECONDS: '120',
    CREDGATE_RATE_LIMIT_OAUTH_FAILURES: '3',
  };
  a = await startService(env);
  b = await startService(env);
  expect((await runCliAsync(['tenant', 'create', 'twins'], env)).status).toBe(0);
  const created = await runCliAsync(['api-key', 'create', '--tenant', 'twins', '--scopes', 'issuer,verifier'], env);
  expect(created.status).toBe(0);
  key = (JSON.parse(created.stdout.trim()) as { key: string }).key;
  keyId = idOf(key);
});

afterAll(async () => {
  await a?.stop();
  await b?.stop();
  await db?.drop();
});

test('both instances publish the same key, and each accepts the tokens the other issued (TTL from the environment)', async () => {
  expect((await request(a.url, 'GET', '/oauth/jwks')).json).toEqual((await request(b.url, 'GET', '/oauth/jwks')).json);
  const fromA = await token(a.url, keyId, key);
  const fromB = await token(b.url, keyId, key);
  expect(fromA.json).toMatchObject({ token_type: 'Bearer', expires_in: 120, scope: 'issuer verifier' });
  for (const [issued, other] of [[fromA, b], [fromB, a]] as const) {
    const res = await request(other.url, 'GET', '/vc-templates', { headers: { authorization: `Bearer ${issued.json.access_token as string}` } });
    expect(res.status).toBe(200);
  }
});

test('a key revoked by the CLI (another process) stops its tokens on both instances', async () => {
  // runCliAsync, never runCli, once requests were made: the previous test left keep-alive sockets
  // to both instances, and a blocked event loop would reuse one as the instance's keep-alive
  // timeout closes it (`other side closed`; runCliAsync says why).
  const created = await runCliAsync(['api-key', 'create', '--tenant', 'twins', '--scopes', 'issuer'], env);
  const k = (JSON.parse(created.stdout.trim()) as { key: string }).key;
  const apiKey = { id: idOf(k) };
  const t = (await token(a.url, apiKey.id, k)).json.access_token as string;
  expect((await request(b.url, 'GET', '/vc-templates', { headers: { authorization: `Bearer ${t}` } })).status).toBe(200);
  expect((await runCliAsync(['api-key', 'revoke', '--tenant', 'twins', '--id', apiKey.id], env)).status).toBe(0);
  for (const s of [a, b]) {
    const res = await request(s.url, 'GET', '/vc-templates', { headers: { authorization: `Bearer ${t}` } });
    expect({ status: res.status, code: res.json.code }).toEqual({ status: 401, code: 'INVALID_TOKEN' });
  }
});

test('failed client authentications share one budget across instances; once spent, even the right secret is refused', async () => {
  const wrong = `${key.slice(0, -4)}AAAA`;
  expect((await token(a.url, keyId, wrong)).status).toBe(401);
  expect((await token(b.url, keyId, wrong)).status).toBe(401);
  expect((await token(a.url, keyId, wrong)).status).toBe(401);
  const over = await token(b.url, keyId, wrong);
  expect({ status: over.status, error: over.json.error }).toEqual({ status: 429, error: 'temporarily_unavailable' });
  expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
  const right = await token(b.url, keyId, key);
  expect(right.status).toBe(429);
  // The other instance has not seen the budget spent yet: its next failure spends it there too.
  expect((await token(a.url, keyId, wrong)).status).toBe(429);
  expect((await token(a.url, keyId, key)).status).toBe(429);
});
