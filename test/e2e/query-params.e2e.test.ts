import { graphqlFamilyB, restFamilyB } from '../support/family-b-transports';
import { type TestServer, startTestServer } from '../support/harness';
import { request } from '../support/http';
import { graphqlOffers, restOffers } from '../support/oid4vci-transports';

/*
 * The text and integer query parameters are checked by the parameter their operation declares
 * (issue 20, 'query parameters are checked by the schemas'; readers in
 * src/rest/middleware/validate-query.ts): every bad value below is sent to the real route and must
 * be a 400 INVALID_INPUT naming the parameter, before any service work, never a 500. The text forms
 * (leading zeros, given twice, blanks) exist only in a URL; the page arguments that GraphQL has too
 * are sent through both transports with the same assertions at the end.
 */
let server: TestServer;
let issuerKey: string;
let holderKey: string;

beforeAll(async () => {
  server = await startTestServer();
  issuerKey = await server.apiKey('query-params', ['issuer']);
  holderKey = await server.apiKey('query-params', ['holder']);
});

afterAll(async () => {
  await server?.stop();
});

interface Answer {
  status: number;
  code: unknown;
  message: string;
  fields: string[];
}

async function send(method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Answer> {
  const res = await request(server.baseUrl, method, path, { headers, ...(body !== undefined ? { body } : {}) });
  const json = (res.json ?? {}) as { code?: unknown; message?: unknown; error?: unknown; details?: { field: string }[] };
  return { status: res.status, code: json.code, message: String(json.message ?? json.error ?? res.text), fields: (json.details ?? []).map((d) => d.field) };
}

function expectRefused(out: Answer, name: string): void {
  expect(out).toMatchObject({ status: 400, code: 'INVALID_INPUT', fields: [name] });
  expect(out.message).toContain(name);
  expect(out.message).not.toMatch(/\n\s+at /);
}

const UUID = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const badIntegers = ['abc', '1.5', '-1', '01', '+1', '1e1', '0x1', '%201', '', '99999999999999999999'];

describe('GET /vc-templates ?first ?after', () => {
  test.each([...badIntegers, '0', '501', '1&first=2'].map((v) => [v]))('first=%s is 400 naming first', async (v) => {
    expectRefused(await send('GET', `/vc-templates?first=${v}`, { 'x-api-key': issuerKey }), 'first');
  });
  test.each(['x', `${UUID}x`, '', `${UUID}&after=${UUID}`].map((v) => [v]))('after=%s is 400 naming after', async (v) => {
    expectRefused(await send('GET', `/vc-templates?after=${v}`, { 'x-api-key': issuerKey }), 'after');
  });
  test('well-formed values are read: one page', async () => {
    const res = await request(server.baseUrl, 'GET', '/vc-templates?first=500', { headers: { 'x-api-key': issuerKey } });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ items: [], hasMore: false, next: null });
    // A well-formed cursor reaches the service, which refuses one that is not a template of the list.
    const unknown = await send('GET', `/vc-templates?after=${UUID}`, { 'x-api-key': issuerKey });
    expect(unknown).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    expect(unknown.message).toContain('after');
    expect(unknown.message).not.toBe('after must be the templateId of a listed template');
  });
});

describe('GET /oid4vci/offers ?first ?after', () => {
  test.each([...badIntegers, '0', '201', '1&first=1'].map((v) => [v]))('first=%s is 400 naming first', async (v) => {
    expectRefused(await send('GET', `/oid4vci/offers?first=${v}`, { 'x-api-key': issuerKey }), 'first');
  });
  test.each(['x', `${UUID}0`, '', `${UUID}&after=${UUID}`].map((v) => [v]))('after=%s is 400 naming after', async (v) => {
    expectRefused(await send('GET', `/oid4vci/offers?after=${v}`, { 'x-api-key': issuerKey }), 'after');
  });
  test('well-formed values are read: one page', async () => {
    const res = await request(server.baseUrl, 'GET', `/oid4vci/offers?first=200&after=${UUID}`, { headers: { 'x-api-key': issuerKey } });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ items: [], hasMore: false, next: null });
  });
});

describe('GET /schema/{name} and /t/{tenant}/schema/{name} ?version', () => {
  test.each(['/schema/EmployeeBadge', '/t/query-params/schema/EmployeeBadge'].flatMap((path) => [...badIntegers, '0', '1000000000', '1&version=1'].map((v) => [path, v])))(
    '%s?version=%s is 400 naming version',
    async (path, v) => {
      expectRefused(await send('GET', `${path}?version=${v}`, {}), 'version');
    },
  );
  test('a well-formed version is read (here: no such schema, 404)', async () => {
    expect((await send('GET', '/schema/EmployeeBadge?version=1', {})).status).toBe(404);
    expect((await send('GET', '/t/query-params/schema/EmployeeBadge?version=999999999', {})).status).toBe(404);
  });
});

describe('POST /user/sign ?issuerDID ?schemaName', () => {
  const DID = 'did:hedera:testnet:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK_0.0.1';
  const body = { payload: { credentialSubject: { id: DID, name: 'Alice' } } };
  let privateKey: string;

  beforeAll(async () => {
    const pair = await request(server.baseUrl, 'GET', '/user/generateKeyPair', { headers: { 'x-api-key': holderKey } });
    privateKey = (pair.json as { data: { privateKey: string } }).data.privateKey;
  });

  const sign = (query: string): Promise<Answer> => send('POST', `/user/sign?${query}`, { 'x-api-key': holderKey, privateKey }, body);

  test.each([[''], ['issuerDID='], ['issuerDID=%20%20'], [`issuerDID=${'d'.repeat(513)}`], [`issuerDID=${DID}&issuerDID=${DID}`]])('%s is 400 naming issuerDID', async (query) => {
    expectRefused(await sign(query), 'issuerDID');
  });
  test.each(['', '1Badge', 'Badge:0', 'Badge:1:2', 'Bad%20ge', 'B%C3%A4dge', 'a'.repeat(200), 'Badge&schemaName=Badge'].map((v) => [v]))('schemaName=%s is 400 naming schemaName', async (v) => {
    expectRefused(await sign(`issuerDID=${DID}&schemaName=${v}`), 'schemaName');
  });
  test('well-formed values are read: the signature', async () => {
    const res = await request(server.baseUrl, 'POST', `/user/sign?issuerDID=${DID}&schemaName=EmployeeBadge:1`, { headers: { 'x-api-key': holderKey, privateKey }, body });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ success: true, Signature: expect.stringMatching(/^[0-9a-f]{128}$/) });
  });
  test('a DID-shaped check stays the service\'s: a non-DID issuer is still INVALID_DID', async () => {
    expect(await sign('issuerDID=not-a-did')).toMatchObject({ status: 400, code: 'INVALID_DID', fields: ['issuerDID'] });
  });
});

describe('GET /ledger/{logId}/… integers', () => {
  test.each([
    ['proof/inclusion', 'leafIndex', ''],
    ['proof/inclusion', 'treeSize', 'leafIndex=0&'],
    ['proof/consistency', 'from', ''],
    ['proof/consistency', 'to', 'from=1&'],
    ['leaves', 'start', 'end=3&'],
    ['leaves', 'end', 'start=0&'],
  ])('%s ?%s: every malformed value is 400 naming it', async (route, name, rest) => {
    for (const v of [...badIntegers, '9007199254740992', `1&${name}=1`]) {
      expectRefused(await send('GET', `/ledger/0.0.2002/${route}?${rest}${name}=${v}`, { 'x-api-key': holderKey }), name);
    }
  });
  test('well-formed values are read (here: no such log, 404)', async () => {
    expect((await send('GET', '/ledger/0.0.2002/proof/inclusion?leafIndex=0&treeSize=9007199254740991', { 'x-api-key': holderKey })).status).toBe(404);
  });
});

describe('page arguments out of range: the same answer through REST and GraphQL (SDK)', () => {
  const transports = () => [
    { name: 'REST', templates: restFamilyB(server), offers: restOffers(server) },
    { name: 'GraphQL', templates: graphqlFamilyB(server), offers: graphqlOffers(server) },
  ];
  test.each([
    [{ first: 0 }, 'first'],
    [{ first: 501 }, 'first'],
    [{ after: 'x' }, 'after'],
  ] as const)('templates %j: 400 INVALID_INPUT naming %s', async (page, field) => {
    for (const t of transports()) {
      const out = await t.templates.listTemplatesPage(issuerKey, page);
      expect({ via: t.name, out }).toMatchObject({ via: t.name, out: { ok: false, status: 400, code: 'INVALID_INPUT', details: [expect.objectContaining({ field })] } });
    }
  });
  test.each([[{ first: 0 }], [{ first: 201 }], [{ after: 'x' }]] as const)('offers %j: 400 INVALID_INPUT', async (page) => {
    for (const t of transports()) {
      expect({ via: t.name, out: await t.offers.list(issuerKey, page) }).toMatchObject({ via: t.name, out: { ok: false, status: 400, code: 'INVALID_INPUT' } });
    }
  });
});
