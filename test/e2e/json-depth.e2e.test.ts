import { randomBytes } from 'node:crypto';
import { type TestServer, startTestServer } from '../support/harness';
import { request } from '../support/http';
import { type Outcome, gqlOutcome } from '../support/transports';

let server: TestServer;
let key: string;

beforeAll(async () => {
  server = await startTestServer();
  key = await server.apiKey('deep', ['issuer', 'holder', 'verifier']);
});

afterAll(async () => {
  await server?.stop();
});

/** `{"a":{"a":…1…}}` nested `depth` levels, built without recursion. */
function nested(depth: number): Record<string, unknown> {
  let v: Record<string, unknown> = { a: 1 };
  for (let i = 1; i < depth; i++) v = { a: v };
  return v;
}
const deepText = (depth: number): string => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

const privateKey = randomBytes(32).toString('hex');

async function restSign(data: string): Promise<Outcome<unknown>> {
  const res = await request(server.baseUrl, 'POST', '/signature/create', {
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    raw: `{"privateKey":"${privateKey}","data":${data}}`,
  });
  if (res.status < 400) return { ok: true, data: res.json };
  expect(Object.keys(res.json).slice(0, 2)).toEqual(['error', 'code']);
  expect(res.json.error).toMatch(/nest/i);
  return { ok: false, status: res.status, code: res.json.code };
}

describe('JSON nested 5,000 deep is a client mistake (400), not a 500', () => {
  test('REST Family B (/signature/create) and GraphQL variables (createSignature) agree', async () => {
    const rest = await restSign(deepText(5000));
    // The SDK itself recurses over variables (looking for uploads), so the hostile client posts raw.
    const res = await request(server.baseUrl, 'POST', '/graphql', {
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      raw: `{"query":"mutation($d: JSON!, $k: String!) { createSignature(data: $d, privateKey: $k) }","variables":{"k":"${privateKey}","d":${deepText(5000)}}}`,
    });
    const gql: Outcome<unknown> = { ok: false, status: res.status, code: res.json?.errors?.[0]?.extensions?.code };
    for (const outcome of [rest, gql]) expect(outcome).toEqual({ ok: false, status: 400, code: 'JSON_TOO_DEEP' });
  });

  test('REST Family A (bare and /api) answers 400 JSON_TOO_DEEP in its envelope', async () => {
    for (const prefix of ['', '/api']) {
      const res = await request(server.baseUrl, 'POST', `${prefix}/issuer/createSchema`, {
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        raw: `{"schemaName":"deep","description":"d","attributes":${deepText(5000)}}`,
      });
      expect({ prefix, status: res.status, json: res.json }).toEqual({ prefix, status: 400, json: { success: false, status: 400, code: 'JSON_TOO_DEEP', message: expect.any(String) } });
    }
  });

  test('deep arrays count too, and deep GraphQL multipart operations are refused the same way', async () => {
    const arr = '['.repeat(5000) + ']'.repeat(5000);
    expect(await restSign(arr)).toEqual({ ok: false, status: 400, code: 'JSON_TOO_DEEP' });
    const form = new FormData();
    // Built as text: JSON.stringify itself overflows at this depth.
    form.set('operations', `{"query":"mutation($d: JSON!, $k: String!) { createSignature(data: $d, privateKey: $k) }","variables":{"k":"${privateKey}","d":${deepText(5000)}}}`);
    form.set('map', '{}');
    const res = await fetch(`${server.baseUrl}/graphql`, { method: 'POST', headers: { 'x-api-key': key, 'apollo-require-preflight': 'true' }, body: form });
    const json = (await res.json()) as { errors: { extensions: { code: string } }[] };
    expect({ status: res.status, code: json.errors[0]?.extensions.code }).toEqual({ status: 400, code: 'JSON_TOO_DEEP' });
  });

  test('ordinary nesting still works on both transports', async () => {
    const rest = await restSign(JSON.stringify(nested(20)));
    const gql = await gqlOutcome(async () => (await server.sdk(key).createSignature({ data: nested(20), privateKey })).createSignature);
    expect(rest).toMatchObject({ ok: true });
    expect(gql).toEqual({ ok: true, data: (rest as { data: { signature: string } }).data.signature });
  });
});
