import { randomBytes } from 'node:crypto';
import { CredgateGraphQLError, createCredgateClient } from '../../src/sdk';
import { ERROR_STATUS, type ErrorCode } from '../../src/errors';
import { useTestServer } from '../support/harness';
import { request } from '../support/http';

/**
 * Issue 17, attack 5: the idempotent replay ran before the scope check. An issuer key creates a
 * DID with `Idempotency-Key: K`; an OAuth token of the same key narrowed to `verifier` sent the
 * same request with K and got the stored 201 (REST) or the stored answer (GraphQL), though it may
 * not create DIDs. Now a stored answer is replayed only to the authority (effective scopes,
 * holder binding) that made it; another caller of the key gets 403 FORBIDDEN and nothing runs.
 * The same scenario and assertions run through REST and through GraphQL via the SDK.
 */
const server = useTestServer();

const idOf = (key: string): string => {
  const h = /^cgk_([0-9a-f]{32})_/.exec(key)![1]!;
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};

/** POST /oauth/token for `key`, optionally narrowed to `scope`. */
async function tokenFor(key: string, scope?: string): Promise<string> {
  const res = await request(server.baseUrl, 'POST', '/oauth/token', {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    raw: new URLSearchParams({ grant_type: 'client_credentials', client_id: idOf(key), client_secret: key, ...(scope ? { scope } : {}) }).toString(),
  });
  expect(res.status).toBe(200);
  if (scope !== undefined) expect(res.json.scope).toBe(scope);
  return res.json.access_token as string;
}

/** A caller: its API key, or an access token (the key's, possibly narrowed). */
type Caller = { readonly apiKey: string } | { readonly token: string };

/** What both transports report: the HTTP-level status, the error code, whether it was a replay, and the DID. */
interface Outcome {
  readonly status: number;
  readonly code: string | undefined;
  readonly replayed: boolean;
  readonly did: string | undefined;
}

type CreateDid = (caller: Caller, idempotencyKey: string, input: { method: string; publicKey: string }) => Promise<Outcome>;

const credentialHeaders = (caller: Caller): Record<string, string> => ('apiKey' in caller ? { 'x-api-key': caller.apiKey } : { authorization: `Bearer ${caller.token}` });

const rest: CreateDid = async (caller, idempotencyKey, input) => {
  const res = await request(server.baseUrl, 'POST', '/dids', { headers: { ...credentialHeaders(caller), 'Idempotency-Key': idempotencyKey }, body: input });
  return {
    status: res.status,
    code: res.status >= 400 ? (res.json?.code as string | undefined) : undefined,
    replayed: res.headers.get('idempotent-replayed') === 'true',
    did: res.status < 300 ? (res.json?.id as string | undefined) : undefined,
  };
};

const graphql: CreateDid = async (caller, idempotencyKey, input) => {
  let replayed = false;
  // The SDK's fetch, watched for the replay header (the SDK itself returns only data).
  const watching: typeof fetch = async (url, init) => {
    const res = await fetch(url, init);
    replayed = res.headers.get('idempotent-replayed') === 'true';
    return res;
  };
  const sdk = createCredgateClient({
    url: `${server.baseUrl}/graphql`,
    ...('apiKey' in caller ? { apiKey: caller.apiKey } : { accessToken: caller.token }),
    headers: { 'Idempotency-Key': idempotencyKey },
    fetch: watching,
  });
  try {
    const { createDid } = await sdk.createDid({ input });
    // createDid answers 200 over GraphQL; `created` says what REST's 201 says.
    return { status: createDid.created ? 201 : 200, code: undefined, replayed, did: createDid.document.id };
  } catch (e) {
    if (!(e instanceof CredgateGraphQLError) || e.code === undefined) throw e;
    return { status: ERROR_STATUS[e.code as ErrorCode], code: e.code, replayed, did: undefined };
  }
};

async function didRows(): Promise<number> {
  const [row] = await server.app.db.prisma.$queryRawUnsafe<{ n: bigint }[]>('SELECT count(*) AS n FROM dids');
  return Number(row!.n);
}

async function publicKey(key: string): Promise<string> {
  return (await server.sdk(key).generateKeypair()).generateKeypair.publicKey;
}

describe.each([
  ['REST', rest],
  ['GraphQL', graphql],
] as const)('%s', (name, createDid) => {
  test('a token narrowed to verifier replaying the issuer key\'s Idempotency-Key gets 403, not the stored answer', async () => {
    const key = await server.apiKey(`idem-scope-${name.toLowerCase()}`, ['issuer', 'verifier']);
    const input = { method: 'credgate', publicKey: await publicKey(key) };
    const K = `did-${randomBytes(8).toString('hex')}`;

    const first = await createDid({ apiKey: key }, K, input);
    expect(first).toEqual({ status: 201, code: undefined, replayed: false, did: expect.stringMatching(/^did:credgate:/) });
    const rows = await didRows();

    // The attack: the same request, the same key K, under a token of the same key narrowed to verifier.
    const verifierToken = await tokenFor(key, 'verifier');
    const attack = await createDid({ token: verifierToken }, K, input);
    expect(attack).toEqual({ status: 403, code: 'FORBIDDEN', replayed: false, did: undefined });
    expect(await didRows()).toBe(rows);

    // The key itself, and a token with the key's full scopes (the same authority), still replay.
    expect(await createDid({ apiKey: key }, K, input)).toEqual({ ...first, replayed: true });
    expect(await createDid({ token: await tokenFor(key) }, K, input)).toEqual({ ...first, replayed: true });
    expect(await didRows()).toBe(rows);
  });

  test('a token narrowed to issuer (allowed to create DIDs, but another authority) is refused too, and nothing is created twice', async () => {
    const key = await server.apiKey(`idem-issuer-${name.toLowerCase()}`, ['issuer', 'verifier']);
    const input = { method: 'credgate', publicKey: await publicKey(key) };
    const K = `did-${randomBytes(8).toString('hex')}`;
    const first = await createDid({ apiKey: key }, K, input);
    expect(first.status).toBe(201);
    const rows = await didRows();
    expect(await createDid({ token: await tokenFor(key, 'issuer') }, K, input)).toEqual({ status: 403, code: 'FORBIDDEN', replayed: false, did: undefined });
    expect(await didRows()).toBe(rows);
  });

  test('the narrowed token with a fresh Idempotency-Key is refused by the scope check, and the key stays free for the issuer', async () => {
    const key = await server.apiKey(`idem-fresh-${name.toLowerCase()}`, ['issuer', 'verifier']);
    const input = { method: 'credgate', publicKey: await publicKey(key) };
    const K = `did-${randomBytes(8).toString('hex')}`;
    const rows = await didRows();
    expect(await createDid({ token: await tokenFor(key, 'verifier') }, K, input)).toEqual({ status: 403, code: 'FORBIDDEN', replayed: false, did: undefined });
    expect(await didRows()).toBe(rows);
    // A 403 is never stored: the issuer's request with K runs.
    const issued = await createDid({ apiKey: key }, K, input);
    expect(issued).toEqual({ status: 201, code: undefined, replayed: false, did: expect.stringMatching(/^did:credgate:/) });
    expect(await didRows()).toBe(rows + 1);
  });
});
