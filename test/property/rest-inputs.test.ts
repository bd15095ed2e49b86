/**
 * Property: whatever a client sends to any REST route (malformed, oversized, wrongly typed or
 * deeply nested bodies; odd headers, path and query values; no or a bad API key), the answer is
 * never a 5xx, the process never crashes into the generic error path, and a rejected request
 * (4xx) writes nothing (row counts of every table unchanged).
 *
 * The route table is read from the live Express app; runs are bounded (numRuns below) so the
 * whole file stays well under a minute. A failure prints fast-check's shrunk counterexample.
 */
import fc from 'fast-check';
import { type TestServer, startTestServer } from '../support/harness';
import { request } from '../support/http';
import {
  FIELD_NAMES,
  type RouteSpec,
  crashLines,
  fillPath,
  headerSet,
  hostileBody,
  hostileTransportHeaders,
  openapiOperations,
  pathValue,
  queryString,
  rawBody,
  routeTable,
  rowCounts,
  stackTraceIn,
  tableNames,
} from './support';

jest.setTimeout(180_000);

let server: TestServer;
let routes: RouteSpec[];
let tables: string[];
let adminKey: string;
/** An OAuth access token of the admin key, so hostile Authorization headers sit beside a real one. */
let adminToken: string;
const SEED = Number(process.env['PROPERTY_SEED'] ?? 20261123);
/** PROPERTY_RUNS multiplies every run count for a longer local search (default 1: CI-sized). */
const RUNS = Math.max(1, Number(process.env['PROPERTY_RUNS'] ?? 1));

beforeAll(async () => {
  server = await startTestServer();
  // Every route, the probes too; /graphql (any method) is the GraphQL property test's.
  routes = routeTable(server);
  tables = await tableNames(server);
  adminKey = await server.apiKey(`prop-rest`, ['admin']);
  // First-use records (the tenant's Family A issuer DID) are made up front, so that a rejected
  // request later that happens to run first is not blamed for creating them.
  expect((await request(server.baseUrl, 'GET', '/issuer/did', { headers: { 'x-api-key': adminKey } })).status).toBe(200);
  const h = /^cgk_([0-9a-f]{32})_/.exec(adminKey)![1]!;
  const clientId = `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  const token = await request(server.baseUrl, 'POST', '/oauth/token', { body: { grant_type: 'client_credentials', client_id: clientId, client_secret: adminKey } });
  expect(token.status).toBe(200);
  adminToken = token.json.access_token as string;
});

afterAll(async () => {
  await server?.stop();
});

interface Sent {
  status: number;
  text: string;
}

async function send(route: RouteSpec, path: string, init: { headers: Record<string, string>; body?: unknown; raw?: string }): Promise<Sent> {
  const hasBody = !['GET', 'HEAD'].includes(route.method);
  const res = await request(server.baseUrl, route.method, path, {
    headers: init.headers,
    ...(hasBody && init.raw !== undefined ? { raw: init.raw } : {}),
    ...(hasBody && init.raw === undefined && init.body !== undefined ? { body: init.body } : {}),
  });
  return { status: res.status, text: res.text };
}

/** Sends, and checks the three guarantees. Returns the status for coverage bookkeeping. */
async function checked(route: RouteSpec, path: string, init: { headers: Record<string, string>; body?: unknown; raw?: string }): Promise<number> {
  const logFrom = server.logs.lines.length;
  const before = await rowCounts(server, tables);
  const res = await send(route, path, init);
  const where = `${route.method} ${path.slice(0, 200)} -> ${res.status} ${res.text.slice(0, 300)}`;
  if (res.status >= 500) throw new Error(`5xx: ${where}`);
  const trace = stackTraceIn(res.text);
  if (trace !== undefined) throw new Error(`stack trace in the answer (${trace}): ${where}`);
  expect(crashLines(server, logFrom)).toEqual([]);
  if (res.status >= 400) {
    const after = await rowCounts(server, tables);
    if (JSON.stringify(after) !== JSON.stringify(before)) throw new Error(`rejected request wrote rows: ${where}\nbefore ${JSON.stringify(before)}\nafter  ${JSON.stringify(after)}`);
  }
  return res.status;
}

const statuses = new Map<string, Set<number>>();
const note = (r: RouteSpec, s: number) => statuses.set(`${r.method} ${r.path}`, (statuses.get(`${r.method} ${r.path}`) ?? new Set()).add(s));

describe('REST: hostile inputs never give a 5xx, never crash, and rejected requests write nothing', () => {
  test('the route table covers both families and their /api spellings', () => {
    const keys = routes.map((r) => `${r.method} ${r.path}`);
    for (const k of ['POST /issuer/verifiableCredential', 'POST /api/issuer/verifiableCredential', 'POST /create-vp', 'GET /credentials/:credentialId', 'POST /vc-templates', 'GET /ledger/:logId/leaves']) {
      expect(keys).toContain(k);
    }
    expect(routes.length).toBeGreaterThan(60);
  });

  test('every operation of the OpenAPI document is a route of the table, so the documented interface is all fuzzed', async () => {
    const doc = await request(server.baseUrl, 'GET', '/openapi.json');
    expect(doc.status).toBe(200);
    const documented = openapiOperations(doc.json as { paths?: Record<string, Record<string, unknown>> });
    expect(documented.length).toBeGreaterThan(60);
    const served = new Set(routes.map((r) => `${r.method} ${r.path}`));
    // POST /graphql is documented as one operation; its operations are the GraphQL property test's.
    expect(documented.filter((op) => !served.has(op) && op !== 'POST /graphql')).toEqual([]);
  });

  test('hostile credential and transport headers (Authorization, Idempotency-Key, X-Forwarded-For, ...) on every route', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        fc.option(fc.constant(adminKey), { nil: undefined }),
        hostileTransportHeaders(adminToken),
        hostileBody,
        fc.array(pathValue, { minLength: 1, maxLength: 2 }),
        async (route, key, transport, body, params) => {
          const headers: Record<string, string> = { ...transport, ...(key !== undefined ? { 'x-api-key': key } : {}) };
          note(route, await checked(route, fillPath(route.path, params, false), { headers, body }));
        },
      ),
      { numRuns: 300 * RUNS, seed: SEED, endOnFailure: true },
    );
  });

  test('JSON bodies, headers, path and query values with a valid admin key', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        hostileBody,
        headerSet,
        fc.array(pathValue, { minLength: 1, maxLength: 2 }),
        fc.boolean(),
        queryString,
        async (route, body, headers, params, rawPath, query) => {
          const path = fillPath(route.path, params, rawPath) + query;
          const h: Record<string, string> = { 'x-api-key': adminKey };
          // Keep the JSON content type unless the header set overrides it on purpose.
          for (const [k, v] of Object.entries(headers)) h[k] = v;
          note(route, await checked(route, path, { headers: h, body }));
        },
      ),
      { numRuns: 160 * RUNS, seed: SEED, endOnFailure: true },
    );
  });

  test('every route once with each body shape (so no route is left out by chance)', async () => {
    const shapes = fc.sample(hostileBody, { numRuns: 3 * RUNS, seed: SEED });
    for (const route of routes) {
      for (const body of [...shapes, [], 'text', null, 0]) {
        note(route, await checked(route, fillPath(route.path, ['x', 'urn:uuid:00000000-0000-4000-8000-000000000000'], false), { headers: { 'x-api-key': adminKey }, body }));
      }
    }
  });

  test('raw bodies that are not JSON, with any content type', async () => {
    const bodyRoutes = routes.filter((r) => r.method !== 'GET');
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...bodyRoutes), rawBody, async (route, { body, contentType }) => {
        const headers: Record<string, string> = { 'x-api-key': adminKey };
        if (contentType !== '') headers['content-type'] = contentType;
        note(route, await checked(route, fillPath(route.path, ['x'], false), { headers, raw: body }));
      }),
      { numRuns: 80 * RUNS, seed: SEED, endOnFailure: true },
    );
  });

  test('a body whose Content-Encoding lies (gzip, deflate, br that are not) is a 400', async () => {
    const route = routes.find((r) => r.method === 'POST' && r.path === '/credentials/verify')!;
    for (const enc of ['gzip', 'deflate', 'br', 'identity, gzip', 'x-unknown']) {
      const status = await checked(route, route.path, { headers: { 'x-api-key': adminKey, 'content-type': 'application/json', 'content-encoding': enc }, raw: '{"credential":{}}' });
      expect([400, 415]).toContain(status);
    }
  });

  test('a malformed percent-escape in any path parameter is a 400', async () => {
    for (const route of routes.filter((r) => r.path.includes(':'))) {
      for (const bad of ['%', '%E0%A4%A', '%zz', '%C0%80']) {
        const status = await checked(route, fillPath(route.path, [bad], true), { headers: { 'x-api-key': adminKey }, body: {} });
        note(route, status);
        expect(status).toBeLessThan(500);
      }
    }
  });

  test('a NUL character anywhere (path, query, body strings and keys) is a 4xx on every route', async () => {
    const nul = '\u0000';
    const body = Object.fromEntries(FIELD_NAMES.filter((f) => f !== '__proto__').map((f) => [f, `x${nul}`]));
    for (const route of routes) {
      for (const init of [{ body }, { body: { [`k${nul}`]: 1, nested: [{ v: nul }] } }]) {
        const path = `${fillPath(route.path, [`x${nul}`], false)}?issuerDID=did${encodeURIComponent(nul)}`;
        note(route, await checked(route, path, { headers: { 'x-api-key': adminKey }, ...init }));
      }
    }
  });

  test('no key, a malformed key or a wrong key: 401, never a 5xx, nothing written', async () => {
    const keyArb = fc.oneof(
      fc.constant(undefined),
      fc.constantFrom('', 'cgk_', `cgk_${'0'.repeat(32)}_${'A'.repeat(43)}`, 'x'.repeat(5000), adminKey.slice(0, -1) + (adminKey.endsWith('A') ? 'B' : 'A')),
      fc.string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 80 }),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), keyArb, hostileBody, async (route, key, body) => {
        const headers: Record<string, string> = key === undefined ? {} : { 'x-api-key': key };
        const status = await checked(route, fillPath(route.path, ['x'], false), { headers, body });
        // Public routes (the index, the probes, status lists incl. the VC-API's and token status lists, published schemas,
        // the OID4VP wallet endpoints, the OID4VCI issuers' wallet endpoints under /oid4vc/) answer without a key.
        // 400/413/415: refusals of a malformed request before its key is looked at (e.g. a NUL in
        // the path); either way a 4xx and nothing written.
        if (!/^\/$|^\/(healthz|readyz)$|^\/(status|schema|t)\/|^\/vc-api\/status-lists\/|^\/token-status-lists\/|^\/oid4vp\/(request-objects|responses)\/|^\/oid4vc\/|^\/docs(\/|$)|^\/wallets(\/assets\/|$)|^\/graphql\/assets\/|^\/openapi\.json$|^\/oauth\/(jwks|token)$|^\/\.well-known\//.test(route.path)) expect([400, 401, 413, 415]).toContain(status);
      }),
      { numRuns: 60 * RUNS, seed: SEED, endOnFailure: true },
    );
  });

  test('the service is still healthy afterwards', async () => {
    expect((await request(server.baseUrl, 'GET', '/healthz')).status).toBe(200);
    // Every route was answered at least once.
    expect(routes.filter((r) => !statuses.has(`${r.method} ${r.path}`))).toEqual([]);
  });
});
