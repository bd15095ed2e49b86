import { type TestServer, startTestServer } from '../support/harness';
import { request } from '../support/http';

let server: TestServer;
let key: string;

beforeAll(async () => {
  server = await startTestServer();
  key = await server.apiKey('edge', ['issuer', 'holder', 'verifier']);
});

afterAll(async () => {
  await server?.stop();
});

const STACK = /\bat .+\.(ts|js):\d+|node_modules|prisma|Error:/i;

describe('health and request ids', () => {
  test('/healthz and /readyz need no API key', async () => {
    expect(await request(server.baseUrl, 'GET', '/healthz')).toMatchObject({ status: 200, json: { status: 'ok' } });
    expect(await request(server.baseUrl, 'GET', '/readyz')).toMatchObject({ status: 200, json: { status: 'ok', database: 'ok' } });
  });

  test('a well-formed X-Request-Id is echoed; otherwise one is made', async () => {
    const echoed = await request(server.baseUrl, 'GET', '/healthz', { headers: { 'X-Request-Id': 'abc-123' } });
    expect(echoed.headers.get('x-request-id')).toBe('abc-123');
    const made = await request(server.baseUrl, 'GET', '/healthz', { headers: { 'X-Request-Id': 'bad id with spaces' } });
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(server.logs.lines.some((l) => l.includes('"requestId":"abc-123"') && l.includes('"path":"/healthz"'))).toBe(true);
  });
});

describe('client mistakes never answer 500', () => {
  test('the API key header name is case-insensitive', async () => {
    for (const name of ['X-API-Key', 'x-api-key', 'X-Api-Key', 'X-API-KEY']) {
      expect((await request(server.baseUrl, 'GET', '/generate-keypair', { headers: { [name]: key } })).status).toBe(200);
    }
  });

  test('401 carries WWW-Authenticate and the family envelope', async () => {
    const b = await request(server.baseUrl, 'GET', '/generate-keypair');
    expect(b.status).toBe(401);
    expect(b.headers.get('www-authenticate')).toMatch(/X-API-Key/);
    expect(b.json).toEqual({ error: expect.any(String), code: 'UNAUTHENTICATED' });
    const a = await request(server.baseUrl, 'GET', '/api/user/generateKeyPair');
    expect(a.json).toEqual({ success: false, status: 401, code: 'UNAUTHENTICATED', message: expect.any(String) });
  });

  test('malformed JSON is 400 in the family envelope', async () => {
    const headers = { 'x-api-key': key, 'content-type': 'application/json' };
    const b = await request(server.baseUrl, 'POST', '/dids', { headers, raw: '{"method": "credgate",' });
    expect(b).toMatchObject({ status: 400, json: { error: expect.any(String) } });
    const a = await request(server.baseUrl, 'POST', '/api/issuer/createSchema', { headers, raw: '{nope' });
    expect(a).toMatchObject({ status: 400, json: { success: false, status: 400, code: 'MALFORMED_JSON' } });
    const bare = await request(server.baseUrl, 'POST', '/issuer/createSchema', { headers, raw: '[1,' });
    expect(bare).toMatchObject({ status: 400, json: { success: false, code: 'MALFORMED_JSON' } });
  });

  test('a body that is not a JSON object is 400', async () => {
    for (const raw of ['[]', '"text"', '42', 'null']) {
      const r = await request(server.baseUrl, 'POST', '/dids', { headers: { 'x-api-key': key, 'content-type': 'application/json' }, raw });
      expect({ raw, status: r.status }).toEqual({ raw, status: 400 });
    }
  });

  test('a body of another media type is 415', async () => {
    const r = await request(server.baseUrl, 'POST', '/dids', { headers: { 'x-api-key': key, 'content-type': 'text/plain' }, raw: 'method=credgate' });
    expect(r).toMatchObject({ status: 415, json: { error: expect.any(String) } });
    const a = await request(server.baseUrl, 'POST', '/issuer/createSchema', { headers: { 'x-api-key': key, 'content-type': 'application/xml' }, raw: '<a/>' });
    expect(a).toMatchObject({ status: 415, json: { success: false, code: 'UNSUPPORTED_MEDIA_TYPE' } });
  });

  test('an oversize body is 413', async () => {
    const big = JSON.stringify({ method: 'credgate', publicKey: 'a'.repeat(server.config.bodyLimitBytes + 10) });
    const r = await request(server.baseUrl, 'POST', '/dids', { headers: { 'x-api-key': key, 'content-type': 'application/json' }, raw: big });
    expect(r).toMatchObject({ status: 413, json: { error: expect.any(String) } });
    const g = await request(server.baseUrl, 'POST', '/graphql', { headers: { 'x-api-key': key, 'content-type': 'application/json' }, raw: big });
    expect(g.status).toBe(413);
  });

  test('over-long fields and headers are 400', async () => {
    const r = await request(server.baseUrl, 'POST', '/dids', { headers: { 'x-api-key': key }, body: { method: 'credgate', publicKey: 'a'.repeat(5000) } });
    expect(r.status).toBe(400);
    const h = await request(server.baseUrl, 'GET', '/dids', { headers: { 'x-api-key': key, did: 'did:x:' + 'a'.repeat(600) } });
    expect(h.status).toBe(400);
    const missing = await request(server.baseUrl, 'GET', '/dids', { headers: { 'x-api-key': key } });
    expect(missing).toMatchObject({ status: 400, json: { error: expect.stringMatching(/did/) } });
  });

  test('unknown paths are 404 in the family envelope', async () => {
    expect(await request(server.baseUrl, 'GET', '/nope', { headers: { 'x-api-key': key } })).toMatchObject({ status: 404, json: { error: 'Not found' } });
    expect(await request(server.baseUrl, 'GET', '/api/nope', { headers: { 'x-api-key': key } })).toMatchObject({ status: 404, json: { success: false, code: 'NOT_FOUND' } });
  });

  test('GraphQL parse and validation errors are 400 with a code, no stack', async () => {
    const headers = { 'x-api-key': key };
    const parse = await request(server.baseUrl, 'POST', '/graphql', { headers, body: { query: '{ did(' } });
    expect(parse.status).toBe(400);
    expect(parse.json.errors[0].extensions.code).toBe('GRAPHQL_PARSE_FAILED');
    const invalid = await request(server.baseUrl, 'POST', '/graphql', { headers, body: { query: '{ noSuchField }' } });
    expect(invalid.status).toBe(400);
    expect(invalid.json.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    const badVar = await request(server.baseUrl, 'POST', '/graphql', { headers, body: { query: 'query($d: String!) { did(did: $d) { id } }', variables: { d: 5 } } });
    expect(badVar.status).toBe(400);
    expect(badVar.json.errors[0].extensions.code).toBe('INVALID_INPUT');
    for (const r of [parse, invalid, badVar]) expect(JSON.stringify(r.json.errors.map((e: { extensions: unknown }) => e.extensions))).not.toMatch(/stacktrace/);
  });
});

describe('the offline playground', () => {
  test('a browser GET /graphql gets a self-contained page (no CDN)', async () => {
    const r = await request(server.baseUrl, 'GET', '/graphql', { headers: { accept: 'text/html,application/xhtml+xml' } });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/text\/html/);
    expect(r.text).toContain('Credgate GraphiQL');
    // Scripts and styles come from this host (test/e2e/graphiql.e2e.test.ts loads each of them).
    expect(r.text).not.toMatch(/<(script|link)[^>]+(src|href)=["'](https?:)?\/\//i);
    // A JSON GET is still GraphQL over HTTP (and needs a key).
    const json = await request(server.baseUrl, 'GET', '/graphql?query=%7B__typename%7D', { headers: { accept: 'application/json', 'apollo-require-preflight': 'true' } });
    expect(json.status).toBe(401);
  });
});

describe('server faults answer 500 with no internals', () => {
  test('a broken database gives 500 / INTERNAL and a 503 readiness, never SQL or stacks', async () => {
    const broken = await startTestServer();
    try {
      const k = await broken.apiKey('edge', ['issuer', 'holder']);
      const kp = await request(broken.baseUrl, 'GET', '/generate-keypair', { headers: { 'x-api-key': k } });
      await broken.app.db.sql.exec('DROP TABLE "dids" CASCADE');
      const rest = await request(broken.baseUrl, 'POST', '/dids', { headers: { 'x-api-key': k }, body: { method: 'credgate', publicKey: kp.json.publicKey } });
      expect(rest).toMatchObject({ status: 500, json: { error: 'Server error' } });
      expect(rest.text).not.toMatch(STACK);
      const gql = await request(broken.baseUrl, 'POST', '/graphql', {
        headers: { 'x-api-key': k },
        body: { query: 'mutation($i: CreateDidInput!) { createDid(input: $i) { created } }', variables: { i: { method: 'credgate', publicKey: kp.json.publicKey } } },
      });
      expect(gql.json.errors[0]).toMatchObject({ message: 'Internal server error', extensions: { code: 'INTERNAL' } });
      expect(gql.text).not.toMatch(STACK);
      // The detail goes to the log, not the client.
      expect(broken.logs.text()).toMatch(/unhandled/);
      await broken.app.db.close();
      expect(await request(broken.baseUrl, 'GET', '/readyz')).toMatchObject({ status: 503, json: { database: 'unreachable' } });
      expect((await request(broken.baseUrl, 'GET', '/healthz')).status).toBe(200);
    } finally {
      await broken.stop();
    }
  });
});
