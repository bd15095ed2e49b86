import type { Server } from 'node:http';
import { type AddressInfo, type Socket, connect } from 'node:net';
import { DEFAULT_HTTP_LIMITS } from '../../src/config';
import { listen } from '../../src/listen';
import { type TestServer, startTestServer } from '../support/harness';
import { request } from '../support/http';
import { partialRequest, requestHead } from '../support/raw-http';

let server: TestServer;
let key: string;

beforeAll(async () => {
  // A small global upload budget and a short per-upload idle timeout, so the test is quick.
  const http = { ...DEFAULT_HTTP_LIMITS, uploadBudgetBytes: 1024 * 1024, uploadIdleTimeoutMs: 1000 };
  server = await startTestServer({ env: { http } });
  key = await server.apiKey('edges', ['issuer', 'holder', 'verifier']);
});

afterAll(async () => {
  await server?.stop();
});

const KIB = 1024;
const BOUNDARY = 'xBOUNDARYx';
const multipartStart = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="originalPhoto"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n` + 'x'.repeat(8 * KIB);

/** A JSON body just under the body limit, of which only the first KiB is ever sent. */
const jsonHead = (path: string, extra: Record<string, string> = {}): string =>
  requestHead('POST', path, { 'Content-Type': 'application/json', 'Content-Length': 60 * KIB, ...extra });

describe('authenticate before reading the body', () => {
  test.each([
    ['Family B REST', '/dids'],
    ['Family A REST', '/issuer/createSchema'],
    ['Family A REST /api', '/api/issuer/createSchema'],
    ['GraphQL', '/graphql'],
  ])('%s: a keyless body is answered 401 before it has been sent, and the connection is closed', async (_name, path) => {
    const r = await partialRequest(server.baseUrl, jsonHead(path), '{"a":"' + 'x'.repeat(KIB), 5000);
    expect(r.status).toBe(401);
    expect(r.head).toMatch(/\r\nconnection: close/i);
    const wrong = await partialRequest(server.baseUrl, jsonHead(path, { 'X-API-Key': 'cgk_nope_nope' }), '{"a":"' + 'x'.repeat(KIB), 5000);
    expect(wrong.status).toBe(401);
  });

  test('a keyless photo upload (REST and GraphQL multipart) is refused before it is read', async () => {
    const head = (path: string) => requestHead('POST', path, { 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`, 'Content-Length': 900 * KIB, 'Apollo-Require-Preflight': 'true' });
    for (const path of ['/user/image/createTemplate', '/graphql']) {
      expect({ path, status: (await partialRequest(server.baseUrl, head(path), multipartStart, 5000)).status }).toEqual({ path, status: 401 });
    }
  });

  test('with a key, the same body is read and handled as before', async () => {
    const r = await request(server.baseUrl, 'POST', '/dids', { headers: { 'x-api-key': key }, body: { method: 'credgate', publicKey: 'zz' } });
    expect(r.status).toBe(400);
  });
});

describe('uploads share a global byte budget and are cut off when they stall', () => {
  test('beyond the budget: 503 with Retry-After, before reading; a stalled upload is cut off and frees its share', async () => {
    const head = (path: string) =>
      requestHead('POST', path, { 'X-API-Key': key, 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`, 'Content-Length': 700 * KIB, 'Apollo-Require-Preflight': 'true' });
    // Upload 1 stalls after its first bytes and holds 700 KiB of the 1 MiB budget.
    const stalled = partialRequest(server.baseUrl, head('/user/image/createTemplate'), multipartStart, 10_000, true);
    await new Promise((r) => setTimeout(r, 300));
    // Uploads 2 (REST) and 3 (GraphQL) do not fit: refused at once.
    for (const path of ['/user/image/createTemplate', '/graphql']) {
      const r = await partialRequest(server.baseUrl, head(path), multipartStart, 5000);
      expect({ path, status: r.status }).toEqual({ path, status: 503 });
      expect(r.head).toMatch(/\r\nretry-after: \d+/i);
    }
    // Other clients are still served meanwhile.
    expect((await request(server.baseUrl, 'GET', '/healthz')).status).toBe(200);
    // The stalled upload is answered 408 and disconnected after the idle timeout (1 s here), not 300 s.
    const cut = await stalled;
    expect(cut.closed).toBe(true);
    expect(cut.status).toBe(408);
    expect(cut.ms).toBeLessThan(8000);
    // Its share is back: the next upload is admitted (and, stalling too, is cut off in turn).
    const next = await partialRequest(server.baseUrl, head('/user/image/createTemplate'), multipartStart, 10_000, true);
    expect(next.status).toBe(408);
    // Every refusal was an expected client outcome, not a server fault.
    expect(server.logs.text()).not.toMatch(/unhandled/);
  }, 30_000);
});

describe('the listening server bounds slow and numerous clients', () => {
  let edge: Server;
  let url: string;

  beforeAll(async () => {
    edge = await listen(server.app.http, '127.0.0.1', 0, { ...DEFAULT_HTTP_LIMITS, headersTimeoutMs: 1000, requestTimeoutMs: 2000, maxConnections: 4 });
    url = `http://127.0.0.1:${(edge.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    edge.closeAllConnections();
    await new Promise((r) => edge.close(r));
  });

  test('headers trickled in (slowloris) are cut off after headersTimeout', async () => {
    const r = await partialRequest(url, 'GET /healthz HTTP/1.1\nHost: x\nX-Slow: 1', '', 8000, true);
    expect(r.closed).toBe(true);
    expect(r.ms).toBeLessThan(6000);
  });

  test('a body that never completes is cut off after requestTimeout, even with a key', async () => {
    const head = requestHead('POST', '/dids', { 'X-API-Key': key, 'Content-Type': 'application/json', 'Content-Length': 10 * KIB });
    const r = await partialRequest(url, head, '{"method":"', 10_000, true);
    expect(r.closed).toBe(true);
    expect(r.ms).toBeLessThan(8000);
  });

  test('connections beyond maxConnections are dropped while the first ones are served', async () => {
    const hold = await Promise.all(Array.from({ length: 4 }, () => openSocket(url)));
    try {
      const extra = await partialRequest(url, requestHead('GET', '/healthz', {}), '', 3000, true);
      expect(extra).toMatchObject({ status: undefined, closed: true });
    } finally {
      for (const s of hold) s.destroy();
    }
    await new Promise((r) => setTimeout(r, 100));
    expect((await request(url, 'GET', '/healthz')).status).toBe(200);
  });
});

function openSocket(baseUrl: string): Promise<Socket> {
  const u = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const s = connect(Number(u.port), u.hostname, () => resolve(s));
    s.on('error', reject);
  });
}
