import { useTestServer } from '../support/harness';
import { request } from '../support/http';

/**
 * Found by the hostile-header property test (test/property/graphql-inputs.test.ts): Apollo Server
 * negotiates the Accept header only after executing the operation, so a mutation sent with an
 * Accept it cannot answer ran (a managed key was generated) and the client was told 400; a retry
 * ran it again, and with an Idempotency-Key the 400 was even stored. Such a request is now
 * refused before anything runs. GraphQL only: REST answers JSON whatever Accept says.
 */
const server = useTestServer();

const MUTATION = 'mutation { generateKeypair { keyId } }';

async function managedKeys(): Promise<number> {
  const [row] = await server.app.db.prisma.$queryRawUnsafe<{ n: bigint }[]>('SELECT count(*) AS n FROM managed_keys');
  return Number(row!.n);
}

async function mutate(key: string, headers: Record<string, string>) {
  return request(server.baseUrl, 'POST', '/graphql', { headers: { 'x-api-key': key, ...headers }, body: { query: MUTATION } });
}

test('an Accept that allows no JSON type is 400 INVALID_INPUT and runs nothing', async () => {
  const key = await server.apiKey('accept-refused', ['issuer']);
  const before = await managedKeys();
  for (const accept of ['text/html', 'application/xml', 'application/json;q=0', 'x']) {
    const res = await mutate(key, { accept });
    expect({ accept, status: res.status, code: res.json?.errors?.[0]?.extensions?.code }).toEqual({ accept, status: 400, code: 'INVALID_INPUT' });
  }
  expect(await managedKeys()).toBe(before);
});

test('JSON, GraphQL response JSON, a wildcard, an empty or no Accept: the mutation runs', async () => {
  const key = await server.apiKey('accept-ok', ['issuer']);
  const before = await managedKeys();
  const accepts: Record<string, string>[] = [{ accept: 'application/json' }, { accept: 'application/graphql-response+json' }, { accept: '*/*' }, { accept: 'text/html, */*;q=0.1' }, { accept: '' }, {}];
  for (const headers of accepts) {
    const res = await mutate(key, headers);
    expect({ headers, status: res.status, keyId: typeof res.json?.data?.generateKeypair?.keyId }).toEqual({ headers, status: 200, keyId: 'string' });
  }
  expect(await managedKeys()).toBe(before + accepts.length);
});

test('with an Idempotency-Key the refusal is not stored: the same key then runs the request once', async () => {
  const key = await server.apiKey('accept-idem', ['issuer']);
  const publicKey = (await server.sdk(key).generateKeypair()).generateKeypair.publicKey;
  const createDid = (accept: string) =>
    request(server.baseUrl, 'POST', '/graphql', {
      headers: { 'x-api-key': key, 'idempotency-key': 'accept-k1', accept },
      body: { query: 'mutation CreateDid($input: CreateDidInput!) { createDid(input: $input) { created document { id } } }', variables: { input: { method: 'credgate', publicKey } } },
    });
  const dids = async () => Number((await server.app.db.prisma.$queryRawUnsafe<{ n: bigint }[]>('SELECT count(*) AS n FROM dids'))[0]!.n);
  const before = await dids();
  expect((await createDid('text/html')).status).toBe(400);
  expect(await dids()).toBe(before);
  const ran = await createDid('application/json');
  expect({ status: ran.status, created: ran.json?.data?.createDid?.created, replayed: ran.headers.get('idempotent-replayed') }).toEqual({ status: 200, created: true, replayed: null });
  expect(await dids()).toBe(before + 1);
});
