import { type TestServer, startTestServer } from '../support/harness';
import { request } from '../support/http';

/**
 * Family A's true/false query parameters are checked by the parameter their operation declares
 * (issue 20): a value other than true or false, or the parameter given twice, is 400 INVALID_INPUT
 * naming it, before any service work, never a 500 and never read as false. REST only: GraphQL's
 * arguments are Booleans, which GraphQL itself checks.
 */
let server: TestServer;
let issuerKey: string;
let verifierKey: string;

beforeAll(async () => {
  server = await startTestServer();
  issuerKey = await server.apiKey('fa-query', ['issuer']);
  verifierKey = await server.apiKey('fa-query', ['verifier']);
});

afterAll(async () => {
  await server?.stop();
});

const holder = { did: 'did:hedera:testnet:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK_0.0.1', publicKey: 'AAAA', userSignature: 'ab' };
const issueBody = { schemaName: 'NoSuchSchema:1', credentialSubject: { name: 'Alice' } };

async function send(method: string, path: string, key: string, headers: Record<string, string>, body: unknown): Promise<{ status: number; code: unknown; message: unknown; fields: unknown }> {
  const res = await request(server.baseUrl, method, path, { headers: { 'x-api-key': key, 'content-type': 'application/json', ...headers }, raw: JSON.stringify(body) });
  const details = (res.json?.details ?? []) as { field: string }[];
  return { status: res.status, code: res.json?.code, message: res.json?.message ?? res.json?.error, fields: details.map((d) => d.field) };
}

test.each([
  ['yes', 'zkpValidation=yes'],
  ['1', 'zkpValidation=1'],
  ['given twice', 'zkpValidation=true&zkpValidation=true'],
])('POST /verifier/verify with zkpValidation %s: 400 naming zkpValidation', async (_what, query) => {
  const out = await send('POST', `/verifier/verify?${query}`, verifierKey, { publicKey: holder.publicKey }, { credentials: { id: 'x' } });
  expect(out).toMatchObject({ status: 400, code: 'INVALID_INPUT', fields: ['zkpValidation'] });
  expect(String(out.message)).toContain('zkpValidation must be true or false');
});

test.each([
  ['POST', 'isCryptograph=1'],
  ['POST', 'downloadCryptograph=maybe'],
  ['PUT', 'isCryptograph=TRUE'],
])('%s /issuer/verifiableCredential?%s: 400 naming the parameter', async (method, query) => {
  const name = query.split('=')[0]!;
  const body = method === 'PUT' ? { ...issueBody, vc: { id: 'NoSuchSchema:1:x' } } : issueBody;
  const out = await send(method, `/issuer/verifiableCredential?${query}`, issuerKey, holder, body);
  expect(out).toMatchObject({ status: 400, code: 'INVALID_INPUT', fields: [name] });
  expect(String(out.message)).toContain(`${name} must be true or false`);
});

test('true and false are still read: a well-formed flag reaches the service (here: the unknown schema, 4xx, not the flag)', async () => {
  const out = await send('POST', '/issuer/verifiableCredential?isCryptograph=false&downloadCryptograph=false', issuerKey, holder, issueBody);
  expect(out.status).toBeGreaterThanOrEqual(400);
  expect(out.status).toBeLessThan(500);
  expect(out.fields).not.toContain('isCryptograph');
  expect(out.fields).not.toContain('downloadCryptograph');
});
