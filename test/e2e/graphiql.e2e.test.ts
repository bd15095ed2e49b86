import { type TestServer, startTestServer } from '../support/harness';
import { request } from '../support/http';
import { CredgateGraphQLError } from '../../src/sdk';

/*
 * Issue 12: the real GraphiQL served offline from npm assets (no CDN), and the switches
 * CREDGATE_GRAPHQL_PLAYGROUND / CREDGATE_GRAPHQL_INTROSPECTION.
 */

let server: TestServer;
let locked: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  locked = await startTestServer({ env: { graphqlUi: { playground: false, introspection: false } } });
});
afterAll(async () => {
  await server?.stop();
  await locked?.stop();
});

const html = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
const INTROSPECTION = '{ __schema { queryType { name } types { name } } }';

/** Every absolute http(s) URL in a text that points to a host other than the server's. */
function foreignUrls(text: string, baseUrl: string): string[] {
  const own = new URL(baseUrl).host;
  return [...text.matchAll(/https?:\/\/[^\s"'<>)]+/g)].map((m) => m[0]).filter((u) => new URL(u).host !== own);
}

describe('playground on (default)', () => {
  test('a browser GET /graphql gets GraphiQL, whose page names no other host and loads every asset locally', async () => {
    const page = await request(server.baseUrl, 'GET', '/graphql', { headers: html });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.text).toMatch(/graphiql\.min\.js/);
    expect(foreignUrls(page.text, server.baseUrl)).toEqual([]);
    const refs = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThanOrEqual(5);
    for (const ref of refs) {
      expect(ref).toMatch(/^\/graphql\/assets\/[A-Za-z0-9.-]+$/);
      const asset = await request(server.baseUrl, 'GET', ref);
      expect({ ref, status: asset.status }).toEqual({ ref, status: 200 });
      expect(asset.headers.get('content-type')).toMatch(ref.endsWith('.css') ? /^text\/css/ : /^text\/javascript/);
      expect(asset.text.length).toBeGreaterThan(ref.includes('credgate') ? 200 : 2000);
    }
    // The real GraphiQL and React 18's browser build, not a hand-written page.
    expect((await request(server.baseUrl, 'GET', '/graphql/assets/graphiql.min.js')).text).toMatch(/DocExplorer/);
    expect((await request(server.baseUrl, 'GET', '/graphql/assets/react.production.min.js')).text).toMatch(/React/);
    // The start-up script posts to this host's /graphql and keeps the key (headers) once entered.
    const init = await request(server.baseUrl, 'GET', '/graphql/assets/credgate-graphiql.js');
    expect(foreignUrls(init.text, server.baseUrl)).toEqual([]);
    expect(init.text).toMatch(/shouldPersistHeaders: true/);
    expect(init.text).toMatch(/X-API-Key/);
  });

  test('only the listed assets are served: other names and path tricks are 404', async () => {
    for (const path of ['/graphql/assets/package.json', '/graphql/assets/..%2Fpackage.json', '/graphql/assets/..%2F..%2Fpackage.json', '/graphql/assets/constructor', '/graphql/assets/__proto__', '/graphql/assets/%2Fetc%2Fpasswd']) {
      const res = await request(server.baseUrl, 'GET', path);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      expect(res.text).not.toMatch(/root:|"name": *"/);
    }
  });

  test('a JSON client GET /graphql is still GraphQL, and introspection answers', async () => {
    const key = await server.apiKey(`giql-${Date.now()}`, ['issuer']);
    const res = await request(server.baseUrl, 'POST', '/graphql', { headers: { 'x-api-key': key }, body: { query: INTROSPECTION } });
    expect(res.status).toBe(200);
    expect(res.json.data.__schema.queryType.name).toBe('Query');
    expect((await server.sdk(key).generateKeypair()).generateKeypair.publicKey).toEqual(expect.any(String));
  });
});

describe('playground and introspection off', () => {
  test('a browser GET /graphql and every asset are 404', async () => {
    const page = await request(locked.baseUrl, 'GET', '/graphql', { headers: html });
    expect(page.status).toBe(404);
    expect(page.text).not.toMatch(/graphiql/i);
    for (const name of ['graphiql.min.js', 'graphiql.min.css', 'react.production.min.js', 'credgate-graphiql.js']) {
      expect((await request(locked.baseUrl, 'GET', `/graphql/assets/${name}`)).status).toBe(404);
    }
  });

  test('introspection queries are refused; ordinary operations still work', async () => {
    const key = await locked.apiKey(`giql-${Date.now()}`, ['issuer']);
    for (const query of [INTROSPECTION, '{ __type(name: "Query") { name } }']) {
      const res = await request(locked.baseUrl, 'POST', '/graphql', { headers: { 'x-api-key': key }, body: { query } });
      expect(res.status).toBe(400);
      expect(res.json.data).toBeUndefined();
      expect(res.json.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
      expect(res.json.errors[0].message).toMatch(/introspection/i);
    }
    expect((await locked.sdk(key).generateKeypair()).generateKeypair.publicKey).toEqual(expect.any(String));
    await expect(locked.sdk('not-a-key').generateKeypair()).rejects.toBeInstanceOf(CredgateGraphQLError);
  });
});
