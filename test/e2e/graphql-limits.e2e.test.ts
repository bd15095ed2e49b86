import { type TestServer, startTestServer } from '../support/harness';
import { request } from '../support/http';

let server: TestServer;
let key: string;

beforeAll(async () => {
  server = await startTestServer();
  key = await server.apiKey('gql-limits', ['issuer', 'holder', 'verifier']);
});

afterAll(async () => {
  await server?.stop();
});

async function gql(query: string, variables: Record<string, unknown> = {}) {
  const res = await request(server.baseUrl, 'POST', '/graphql', { headers: { 'x-api-key': key }, body: { query, variables } });
  return { status: res.status, code: res.json?.errors?.[0]?.extensions?.code as string | undefined, json: res.json };
}

describe('GraphQL resource limits', () => {
  test('500 aliased generateKeypair in one request are refused (400) and create nothing', async () => {
    const before = await server.app.db.prisma.managedKey.count();
    const query = `mutation { ${Array.from({ length: 500 }, (_, i) => `k${i}: generateKeypair { keyId }`).join(' ')} }`;
    const r = await gql(query);
    expect({ status: r.status, code: r.code }).toEqual({ status: 400, code: 'QUERY_TOO_COMPLEX' });
    expect(r.json.data).toBeUndefined();
    expect(await server.app.db.prisma.managedKey.count()).toBe(before);
  });

  test('10 aliases of an expensive verification sharing one variable are refused by cost', async () => {
    const query = `query($i: VerifyCredentialInput!) { ${Array.from({ length: 10 }, (_, i) => `v${i}: verifyCredential(input: $i) { success }`).join(' ')} }`;
    const r = await gql(query, { i: { credentials: { id: 'urn:x' }, publicKey: 'x', userSignature: 'x' } });
    expect({ status: r.status, code: r.code }).toEqual({ status: 400, code: 'QUERY_TOO_COMPLEX' });
    expect(r.json.errors[0].message).toMatch(/cost/);
  });

  test('a selection nested 30 deep is refused by depth', async () => {
    const query = `{ __schema { types { fields { type ${'{ ofType '.repeat(26)}{ name }${' }'.repeat(26)} } } } }`;
    const r = await gql(query);
    expect({ status: r.status, code: r.code }).toEqual({ status: 400, code: 'QUERY_TOO_COMPLEX' });
    expect(r.json.errors[0].message).toMatch(/depth/);
  });

  test('a fragment bomb (each fragment spreads the next twice) is refused without expanding it', async () => {
    const frags = Array.from({ length: 30 }, (_, i) => `fragment F${i} on __Type { ${i === 29 ? 'name' : `...F${i + 1} ...F${i + 1}`} }`).join('\n');
    const r = await gql(`{ __schema { types { ...F0 } } }\n${frags}`);
    expect({ status: r.status, code: r.code }).toEqual({ status: 400, code: 'QUERY_TOO_COMPLEX' });
  });

  test('ordinary operations still run, and a single generateKeypair creates one key', async () => {
    const before = await server.app.db.prisma.managedKey.count();
    const r = await gql('mutation { a: generateKeypair { keyId } b: generateKeypair { keyId } }');
    expect(r.status).toBe(200);
    expect(r.json.data.a.keyId).not.toBe(r.json.data.b.keyId);
    expect(await server.app.db.prisma.managedKey.count()).toBe(before + 2);
    const sdk = await server.sdk(key).generateKeypair();
    expect(sdk.generateKeypair.algorithm).toBe('secp256k1');
  });
});
