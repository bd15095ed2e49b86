/**
 * What a newcomer meets over HTTP: `GET /` is an index of the entry points, and a known path asked
 * with the wrong method is a 405 with `Allow` (never a 404, never another route's answer).
 */
import { type TestServer, startTestServer } from '../support/harness';
import { request } from '../support/http';

let server: TestServer;
let key: string;

beforeAll(async () => {
  server = await startTestServer();
  key = await server.apiKey('discovery', ['issuer', 'holder', 'verifier']);
});

afterAll(async () => {
  await server?.stop();
});

const allowOf = (h: Headers): string[] => (h.get('allow') ?? '').split(',').map((m) => m.trim()).filter(Boolean).sort();

describe('405 Method Not Allowed', () => {
  test('GET /credentials/verify is a 405 naming POST, not "credential not found"', async () => {
    for (const headers of [{}, { 'x-api-key': key }] as Record<string, string>[]) {
      const res = await request(server.baseUrl, 'GET', '/credentials/verify', { headers });
      expect(res.status).toBe(405);
      expect(allowOf(res.headers)).toEqual(['OPTIONS', 'POST']);
      expect(res.json).toEqual({ error: expect.stringMatching(/method GET is not allowed.*POST/), code: 'METHOD_NOT_ALLOWED' });
      expect(res.text).not.toMatch(/not found/i);
    }
  });

  test('Family B paths answer 405 with every method the path serves', async () => {
    const cases: [string, string, string[]][] = [
      ['DELETE', '/dids', ['GET', 'HEAD', 'OPTIONS', 'POST']],
      ['PATCH', '/vc-templates/some-template', ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PUT']],
      ['POST', '/credentials/abc', ['DELETE', 'GET', 'HEAD', 'OPTIONS']],
      ['POST', '/generate-keypair', ['GET', 'HEAD', 'OPTIONS']],
      ['PUT', '/verify-vp', ['OPTIONS', 'POST']],
      ['POST', '/healthz', ['GET', 'HEAD', 'OPTIONS']],
      ['DELETE', '/', ['GET', 'HEAD', 'OPTIONS']],
    ];
    for (const [method, path, allow] of cases) {
      const res = await request(server.baseUrl, method, path, { headers: { 'x-api-key': key } });
      expect({ method, path, status: res.status, allow: allowOf(res.headers) }).toEqual({ method, path, status: 405, allow });
      expect(res.json).toEqual({ error: expect.any(String), code: 'METHOD_NOT_ALLOWED' });
    }
  });

  test('Family A paths answer 405 in the Family A envelope, bare and under /api', async () => {
    for (const path of ['/issuer/createSchema', '/api/issuer/createSchema']) {
      const res = await request(server.baseUrl, 'GET', path, { headers: { 'x-api-key': key } });
      expect(res.status).toBe(405);
      expect(allowOf(res.headers)).toEqual(['OPTIONS', 'POST']);
      expect(res.json).toEqual({ success: false, status: 405, code: 'METHOD_NOT_ALLOWED', message: expect.stringContaining('POST') });
    }
    const vc = await request(server.baseUrl, 'PATCH', '/api/issuer/verifiableCredential');
    expect(vc.status).toBe(405);
    expect(allowOf(vc.headers)).toEqual(['DELETE', 'OPTIONS', 'POST', 'PUT']);
  });

  test('paths match as express matches them: case-insensitive, one trailing slash', async () => {
    const res = await request(server.baseUrl, 'GET', '/Credentials/Verify/');
    expect(res.status).toBe(405);
    expect(allowOf(res.headers)).toEqual(['OPTIONS', 'POST']);
  });

  test('OPTIONS answers 204 with the same Allow as the 405', async () => {
    const res = await request(server.baseUrl, 'OPTIONS', '/credentials/verify');
    expect(res.status).toBe(204);
    expect(allowOf(res.headers)).toEqual(['OPTIONS', 'POST']);
    const templates = await request(server.baseUrl, 'OPTIONS', '/vc-templates/x');
    expect(allowOf(templates.headers)).toEqual(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PUT']);
  });

  test('a body sent with a refused method is not read: the connection is closed', async () => {
    const res = await request(server.baseUrl, 'PUT', '/dids', { headers: { 'x-api-key': key }, body: { method: 'credgate', publicKey: 'x'.repeat(10_000) } });
    expect(res.status).toBe(405);
    expect(res.headers.get('connection')).toBe('close');
  });

  test('unknown paths stay 404, right methods are untouched, and HEAD works where GET does', async () => {
    expect((await request(server.baseUrl, 'GET', '/no-such-route')).status).toBe(404);
    expect((await request(server.baseUrl, 'DELETE', '/credentials/abc/extra', { headers: { 'x-api-key': key } })).status).toBe(404);
    expect((await request(server.baseUrl, 'POST', '/credentials/verify', { body: {} })).status).toBe(401);
    expect((await request(server.baseUrl, 'HEAD', '/healthz')).status).toBe(200);
    expect((await request(server.baseUrl, 'GET', '/credentials/abc', { headers: { 'x-api-key': key } })).status).toBe(404);
  });

  test('/graphql keeps its own method handling: GET (playground) and POST via the SDK still work', async () => {
    const page = await request(server.baseUrl, 'GET', '/graphql', { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    const kp = (await server.sdk(key).generateKeypair()).generateKeypair;
    expect(kp.publicKey).toEqual(expect.any(String));
  });
});

describe('GET /', () => {
  test('answers a JSON index of entry points without an API key, each of which exists', async () => {
    const res = await request(server.baseUrl, 'GET', '/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(res.json).toMatchObject({
      name: 'credgate',
      links: { graphql: { href: '/graphql' }, healthz: { href: '/healthz' }, readyz: { href: '/readyz' } },
    });
    const links = Object.values(res.json.links as Record<string, { href: string }>);
    for (const { href } of links) {
      const linked = await request(server.baseUrl, 'GET', href, { headers: { 'x-api-key': key, accept: 'text/html' } });
      expect({ href, status: linked.status }).toEqual({ href, status: 200 });
    }
  });

  test('answers HTML to a browser, linking the same entry points', async () => {
    const res = await request(server.baseUrl, 'GET', '/', { headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(res.headers.get('vary')).toMatch(/Accept/i);
    for (const href of ['/graphql', '/healthz', '/readyz']) expect(res.text).toContain(`href="${href}"`);
  });
});
