import { randomBytes } from 'node:crypto';
import { type TestServer, startTestServer } from '../support/harness';
import { request } from '../support/http';

/**
 * The data-signature operations take typed inputs (issue 20): SignaturesService no longer checks
 * shapes itself, so a body the contract refuses must still be a 400 naming the field on REST and a
 * 400 validation error on GraphQL, before any key is parsed, and never a 500.
 */
let server: TestServer;
let key: string;

beforeAll(async () => {
  server = await startTestServer();
  key = await server.apiKey('signatures', ['issuer', 'holder', 'verifier']);
});

afterAll(async () => {
  await server?.stop();
});

const privateKey = randomBytes(32).toString('hex');

async function rest(path: string, body: unknown): Promise<{ status: number; code: unknown; fields: unknown }> {
  const res = await request(server.baseUrl, 'POST', path, { headers: { 'x-api-key': key, 'content-type': 'application/json' }, raw: JSON.stringify(body) });
  const details = (res.json?.details ?? []) as { field: string }[];
  return { status: res.status, code: res.json?.code, fields: details.map((d) => d.field) };
}

async function gql(query: string, variables: Record<string, unknown>): Promise<{ status: number; code: unknown }> {
  const res = await request(server.baseUrl, 'POST', '/graphql', { headers: { 'x-api-key': key, 'content-type': 'application/json' }, raw: JSON.stringify({ query, variables }) });
  return { status: res.status, code: res.json?.errors?.[0]?.extensions?.code };
}

const CREATE = 'mutation($d: JSON!, $k: String!) { createSignature(data: $d, privateKey: $k) }';
const VERIFY = 'query($s: String!, $d: JSON!, $p: String!) { verifySignature(signature: $s, data: $d, publicKey: $p) }';

test.each([
  ['no privateKey', { data: { a: 1 } }, 'privateKey', { d: { a: 1 } }],
  ['a privateKey that is not a string', { data: { a: 1 }, privateKey: 7 }, 'privateKey', { d: { a: 1 }, k: 7 }],
  ['no data', { privateKey }, 'data', { k: privateKey }],
])('createSignature with %s: REST 400 naming the field, GraphQL 400', async (_what, body, field, variables) => {
  expect(await rest('/signature/create', body)).toEqual({ status: 400, code: 'INVALID_INPUT', fields: [field] });
  expect(await gql(CREATE, variables)).toMatchObject({ status: 400 });
});

test.each([
  ['no publicKey', { signature: 'ab', data: 1 }, 'publicKey', { s: 'ab', d: 1 }],
  ['no signature', { data: 1, publicKey: '02' }, 'signature', { d: 1, p: '02' }],
])('verifySignature with %s: REST 400 naming the field, GraphQL 400', async (_what, body, field, variables) => {
  expect(await rest('/signature/verify', body)).toEqual({ status: 400, code: 'INVALID_INPUT', fields: [field] });
  expect(await gql(VERIFY, variables)).toMatchObject({ status: 400 });
});

test('a well-formed body still signs, with the same signature through both transports', async () => {
  const signed = await request(server.baseUrl, 'POST', '/signature/create', { headers: { 'x-api-key': key, 'content-type': 'application/json' }, raw: JSON.stringify({ data: { a: 1 }, privateKey }) });
  expect(signed.status).toBe(200);
  const viaGql = await request(server.baseUrl, 'POST', '/graphql', { headers: { 'x-api-key': key, 'content-type': 'application/json' }, raw: JSON.stringify({ query: CREATE, variables: { d: { a: 1 }, k: privateKey } }) });
  expect(viaGql.json?.data?.createSignature).toBe(signed.json.signature);
});
