import { generateKeyPairSync } from 'node:crypto';
import { SignJWT, UnsecuredJWT, base64url } from 'jose';
import { CredgateGraphQLError, createCredgateClient } from '../../src/sdk';
import { tokenKeysFor } from '../../src/services/oauth/token-keys';
import { resolveMasterKey } from '../../src/kms/master-key';
import { createLogger } from '../../src/logging/logger';
import { useTestServer } from '../support/harness';
import { type HttpResponse, request } from '../support/http';

/**
 * OAuth2 client credentials (issue 11): POST /oauth/token turns an API key into a short-lived
 * access token accepted as `Authorization: Bearer` wherever X-API-Key is, REST and GraphQL.
 */
const server = useTestServer();
/** The key the service runs under: the configured one, or the embedded database's key file (PGlite). */
const serviceMasterKey = (): Buffer => server.config.masterKey ?? resolveMasterKey(server.config, createLogger('silent'));

const idOf = (key: string): string => {
  const h = /^cgk_([0-9a-f]{32})_/.exec(key)![1]!;
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};
const basic = (id: string, secret: string): string => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
const form = (params: Record<string, string>) => ({ 'content-type': 'application/x-www-form-urlencoded', raw: new URLSearchParams(params).toString() });

async function tokenRequest(params: Record<string, string>, headers: Record<string, string> = {}): Promise<HttpResponse> {
  const { raw, ...type } = form(params);
  return request(server.baseUrl, 'POST', '/oauth/token', { headers: { ...type, ...headers }, raw });
}

async function tokenFor(key: string, scope?: string): Promise<string> {
  const res = await tokenRequest({ grant_type: 'client_credentials', ...(scope ? { scope } : {}) }, { authorization: basic(idOf(key), key) });
  expect(res.status).toBe(200);
  return res.json.access_token as string;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

function expectOAuthError(res: HttpResponse, status: number, error: string): void {
  expect({ status: res.status, error: res.json.error }).toEqual({ status, error });
  expect(typeof res.json.error_description).toBe('string');
  expect(res.headers.get('cache-control')).toBe('no-store');
}

function expectInvalidToken(res: HttpResponse): void {
  expect(res.status).toBe(401);
  expect(res.json.code).toBe('INVALID_TOKEN');
  expect(res.headers.get('www-authenticate')).toMatch(/^Bearer .*error="invalid_token"/);
}

describe('POST /oauth/token', () => {
  test('client_secret_basic with a form body: a Bearer JWT with the key\'s scopes, never cached', async () => {
    const key = await server.apiKey('acme', ['issuer', 'verifier']);
    const res = await tokenRequest({ grant_type: 'client_credentials' }, { authorization: basic(idOf(key), key) });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 600, scope: 'issuer verifier' });
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('pragma')).toBe('no-cache');
    const [header, payload] = (res.json.access_token as string).split('.').slice(0, 2).map((p) => JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as Record<string, unknown>);
    expect(header).toEqual({ alg: 'EdDSA', typ: 'at+jwt', kid: expect.any(String) });
    expect(payload).toEqual(
      expect.objectContaining({ iss: 'http://credgate.test', aud: 'http://credgate.test', sub: idOf(key), tenant: 'acme', scope: 'issuer verifier', jti: expect.any(String) }),
    );
    expect((payload!['exp'] as number) - (payload!['iat'] as number)).toBe(600);
  });

  test('client_secret_post with a JSON body, and with a form body', async () => {
    const key = await server.apiKey('acme', ['verifier']);
    const json = await request(server.baseUrl, 'POST', '/oauth/token', { body: { grant_type: 'client_credentials', client_id: idOf(key), client_secret: key } });
    expect(json.status).toBe(200);
    expect(json.json).toMatchObject({ token_type: 'Bearer', scope: 'verifier' });
    const posted = await tokenRequest({ grant_type: 'client_credentials', client_id: idOf(key), client_secret: key });
    expect(posted.status).toBe(200);
  });

  test('scope narrows the token to a subset; a scope the key lacks is invalid_scope', async () => {
    const key = await server.apiKey('acme', ['issuer', 'verifier']);
    const narrowed = await tokenRequest({ grant_type: 'client_credentials', scope: 'verifier' }, { authorization: basic(idOf(key), key) });
    expect(narrowed.json.scope).toBe('verifier');
    expectOAuthError(await tokenRequest({ grant_type: 'client_credentials', scope: 'verifier admin' }, { authorization: basic(idOf(key), key) }), 400, 'invalid_scope');
    expectOAuthError(await tokenRequest({ grant_type: 'client_credentials', scope: 'superuser' }, { authorization: basic(idOf(key), key) }), 400, 'invalid_scope');
    // An admin key may ask for any narrower scope.
    const admin = await server.apiKey('acme', ['admin']);
    expect((await tokenRequest({ grant_type: 'client_credentials', scope: 'holder' }, { authorization: basic(idOf(admin), admin) })).json.scope).toBe('holder');
  });

  test('wrong secret, unknown client id, a key given for another id: invalid_client with WWW-Authenticate: Basic', async () => {
    const key = await server.apiKey('acme', ['issuer']);
    const other = await server.apiKey('acme', ['issuer']);
    const wrongSecret = `${key.slice(0, -4)}AAAA`;
    const unknown = 'cgk_00000000000040008000000000000000_' + 'A'.repeat(43);
    for (const [id, secret] of [
      [idOf(key), wrongSecret],
      [idOf(unknown), unknown],
      [idOf(key), other],
      ['not-a-uuid', key],
    ] as const) {
      const res = await tokenRequest({ grant_type: 'client_credentials' }, { authorization: basic(id, secret) });
      expectOAuthError(res, 401, 'invalid_client');
      expect(res.headers.get('www-authenticate')).toMatch(/^Basic /);
    }
    expectOAuthError(await tokenRequest({ grant_type: 'client_credentials' }), 401, 'invalid_client');
  });

  test('request errors: grant_type missing or repeated, another grant, two authentication methods, another media type', async () => {
    const key = await server.apiKey('acme', ['issuer']);
    const auth = { authorization: basic(idOf(key), key) };
    expectOAuthError(await tokenRequest({}, auth), 400, 'invalid_request');
    expectOAuthError(await request(server.baseUrl, 'POST', '/oauth/token', { headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' }, raw: 'grant_type=client_credentials&grant_type=client_credentials' }), 400, 'invalid_request');
    expectOAuthError(await tokenRequest({ grant_type: 'password' }, auth), 400, 'unsupported_grant_type');
    expectOAuthError(await tokenRequest({ grant_type: 'client_credentials', client_secret: key }, auth), 400, 'invalid_request');
    expectOAuthError(await request(server.baseUrl, 'POST', '/oauth/token', { headers: { ...auth, 'content-type': 'text/plain' }, raw: 'grant_type=client_credentials' }), 400, 'invalid_request');
    expectOAuthError(await request(server.baseUrl, 'POST', '/oauth/token', { headers: auth, raw: '{"grant_type":', }), 400, 'invalid_request');
  });

  test('the env admin key cannot obtain tokens (unauthorized_client): it has no key row to revoke', async () => {
    expectOAuthError(await tokenRequest({ grant_type: 'client_credentials' }, { authorization: basic('env-admin', server.adminKey) }), 400, 'unauthorized_client');
  });

  test('a revoked key gets no token', async () => {
    const { key, apiKey } = await server.app.services.auth.createApiKey({ tenant: 'revoked-before', scopes: ['issuer'] });
    await server.app.services.auth.revokeApiKey('revoked-before', apiKey.id);
    expectOAuthError(await tokenRequest({ grant_type: 'client_credentials' }, { authorization: basic(apiKey.id, key) }), 401, 'invalid_client');
  });
});

describe('discovery', () => {
  test('GET /oauth/jwks publishes the Ed25519 key derived from the master key; the RFC 8414 metadata names the endpoints', async () => {
    const jwks = await request(server.baseUrl, 'GET', '/oauth/jwks');
    expect(jwks.status).toBe(200);
    const expected = tokenKeysFor(serviceMasterKey()).signing.publicJwk;
    expect(jwks.json).toEqual({ keys: [expected] });
    const meta = await request(server.baseUrl, 'GET', '/.well-known/oauth-authorization-server');
    expect(meta.json).toMatchObject({
      issuer: 'http://credgate.test',
      token_endpoint: 'http://credgate.test/oauth/token',
      jwks_uri: 'http://credgate.test/oauth/jwks',
      grant_types_supported: ['client_credentials'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    });
  });
});

describe('Authorization: Bearer beside X-API-Key', () => {
  test('a Family A route, a Family B route and a GraphQL operation (SDK) answer the same with the token as with the key', async () => {
    const key = await server.apiKey('bearer-routes', ['issuer']);
    const token = await tokenFor(key);
    for (const path of ['/issuer/did', '/api/issuer/did', '/vc-templates']) {
      const withKey = await request(server.baseUrl, 'GET', path, { headers: { 'x-api-key': key } });
      const withToken = await request(server.baseUrl, 'GET', path, { headers: bearer(token) });
      expect({ path, status: withToken.status }).toEqual({ path, status: withKey.status });
      expect(withKey.status).toBe(200);
      expect(withToken.json).toEqual(withKey.json);
    }
    const viaKey = await server.sdk(key).generateKeypair();
    const sdk = createCredgateClient({ url: `${server.baseUrl}/graphql`, accessToken: token });
    const viaToken = await sdk.generateKeypair();
    expect(viaToken.generateKeypair).toEqual({ keyId: expect.any(String), algorithm: viaKey.generateKeypair.algorithm, publicKey: expect.any(String), privateKey: expect.any(String) });
    // A write through the token: a template created by the tenant is listed under the key.
    const did = (await server.sdk(key).createDid({ input: { method: 'credgate', publicKey: viaToken.generateKeypair.publicKey } })).createDid.document.id;
    const created = await request(server.baseUrl, 'POST', '/vc-templates', {
      headers: bearer(token),
      body: { templateName: 'Bearer badge', description: 'd', issuer: did, expiration: { value: 1, unit: 'years' }, attributes: [{ attributeName: 'n', type: 'string', description: 'name' }] },
    });
    expect(created.status).toBe(201);
    const listed = await request(server.baseUrl, 'GET', '/vc-templates', { headers: { 'x-api-key': key } });
    expect(JSON.stringify(listed.json)).toContain('Bearer badge');
  });

  test('a token narrowed to verifier is refused an issuer operation, REST and GraphQL (the key itself is not)', async () => {
    const key = await server.apiKey('bearer-scopes', ['issuer', 'verifier']);
    const token = await tokenFor(key, 'verifier');
    expect((await request(server.baseUrl, 'GET', '/generate-keypair', { headers: { 'x-api-key': key } })).status).toBe(200);
    const rest = await request(server.baseUrl, 'GET', '/generate-keypair', { headers: bearer(token) });
    expect({ status: rest.status, code: rest.json.code }).toEqual({ status: 403, code: 'FORBIDDEN' });
    const err = await createCredgateClient({ url: `${server.baseUrl}/graphql`, accessToken: token }).generateKeypair().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CredgateGraphQLError);
    expect((err as CredgateGraphQLError).code).toBe('FORBIDDEN');
  });

  test('revoking the key ends its tokens at once (REST and GraphQL)', async () => {
    const { key, apiKey } = await server.app.services.auth.createApiKey({ tenant: 'revoked-after', scopes: ['issuer'] });
    const token = await tokenFor(key);
    expect((await request(server.baseUrl, 'GET', '/vc-templates', { headers: bearer(token) })).status).toBe(200);
    await server.app.services.auth.revokeApiKey('revoked-after', apiKey.id);
    expectInvalidToken(await request(server.baseUrl, 'GET', '/vc-templates', { headers: bearer(token) }));
    const gql = await request(server.baseUrl, 'POST', '/graphql', { headers: bearer(token), body: { query: '{ __typename }' } });
    expect(gql.status).toBe(401);
    expect(gql.json.errors[0].extensions.code).toBe('INVALID_TOKEN');
    expect(gql.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
  });

  test('both headers naming the same key are accepted; naming different keys is 400', async () => {
    const key = await server.apiKey('bearer-both', ['issuer']);
    const other = await server.apiKey('bearer-both', ['issuer']);
    const token = await tokenFor(key);
    expect((await request(server.baseUrl, 'GET', '/vc-templates', { headers: { ...bearer(token), 'x-api-key': key } })).status).toBe(200);
    const clash = await request(server.baseUrl, 'GET', '/vc-templates', { headers: { ...bearer(token), 'x-api-key': other } });
    expect({ status: clash.status, code: clash.json.code }).toEqual({ status: 400, code: 'INVALID_INPUT' });
    const gql = await request(server.baseUrl, 'POST', '/graphql', { headers: { ...bearer(token), 'x-api-key': other }, body: { query: '{ __typename }' } });
    expect(gql.status).toBe(400);
  });

  test('no credential at all: 401 challenging both schemes', async () => {
    const res = await request(server.baseUrl, 'GET', '/vc-templates');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/ApiKey header="X-API-Key", Bearer/);
  });
});

describe('token attacks: each is 401 invalid_token', () => {
  let key: string;
  let good: string;
  let claims: Record<string, unknown>;
  const ISS = 'http://credgate.test';
  const signing = () => tokenKeysFor(serviceMasterKey()).signing;
  const forge = (payload: Record<string, unknown>, header: Record<string, unknown> = {}) =>
    new SignJWT(payload).setProtectedHeader({ alg: 'EdDSA', typ: 'at+jwt', kid: signing().kid, ...header }).sign(signing().privateKey);
  const attempt = (token: string) => request(server.baseUrl, 'GET', '/vc-templates', { headers: bearer(token) });

  beforeAll(async () => {
    key = await server.apiKey('attacks', ['verifier']);
    good = await tokenFor(key);
    claims = JSON.parse(Buffer.from(good.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
  });

  test('the control: the service key signing the genuine claims is accepted (the forging helper is sound)', async () => {
    expect((await request(server.baseUrl, 'GET', '/generate-keypair', { headers: bearer(await forge({ ...claims, scope: 'verifier' })) })).status).toBe(403);
    expect((await request(server.baseUrl, 'GET', '/vc-templates', { headers: bearer(good) })).status).toBe(403);
    expect((await request(server.baseUrl, 'POST', '/credentials/verify', { headers: bearer(await forge(claims)), body: { credential: {} } })).status).toBe(400);
  });

  test('expired', async () => {
    const iat = (claims['iat'] as number) - 7200;
    expectInvalidToken(await attempt(await forge({ ...claims, iat, exp: iat + 600 })));
  });

  test('tampered claims (scope raised to admin) under the original signature', async () => {
    const [h, , s] = good.split('.');
    const raised = base64url.encode(JSON.stringify({ ...claims, scope: 'admin' }));
    expectInvalidToken(await attempt(`${h}.${raised}.${s}`));
  });

  test('signed by another Ed25519 key (same kid)', async () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    expectInvalidToken(await attempt(await new SignJWT(claims).setProtectedHeader({ alg: 'EdDSA', typ: 'at+jwt', kid: signing().kid }).sign(privateKey)));
  });

  test('alg: none', async () => {
    const unsecured = new UnsecuredJWT(claims).encode();
    expectInvalidToken(await attempt(unsecured));
    const [, p] = good.split('.');
    expectInvalidToken(await attempt(`${base64url.encode(JSON.stringify({ alg: 'none', typ: 'at+jwt' }))}.${p}.`));
  });

  test('HS256 keyed with the published public key', async () => {
    const jwk = signing().publicJwk;
    for (const secret of [Buffer.from(jwk.x, 'base64url'), Buffer.from(JSON.stringify(jwk)), Buffer.from(jwk.x)]) {
      const token = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'at+jwt', kid: jwk.kid }).sign(secret);
      expectInvalidToken(await attempt(token));
    }
  });

  test('wrong audience, wrong issuer, wrong type, missing jti', async () => {
    expectInvalidToken(await attempt(await forge({ ...claims, aud: 'https://other.example' })));
    expectInvalidToken(await attempt(await forge({ ...claims, iss: `${ISS}.evil` })));
    expectInvalidToken(await attempt(await forge(claims, { typ: 'JWT' })));
    const { jti: _jti, ...noJti } = claims;
    expectInvalidToken(await attempt(await forge(noJti)));
  });

  test('a genuine signature over a key of another tenant (tenant claim swapped) and over an unknown key', async () => {
    expectInvalidToken(await attempt(await forge({ ...claims, tenant: 'someone-else' })));
    expectInvalidToken(await attempt(await forge({ ...claims, sub: '00000000-0000-4000-8000-000000000000' })));
    expectInvalidToken(await attempt(await forge({ ...claims, sub: 'env-admin' })));
  });

  test('garbage and oversized tokens', async () => {
    expectInvalidToken(await attempt('not.a.jwt'));
    expectInvalidToken(await attempt('x'.repeat(5000)));
    expectInvalidToken(await request(server.baseUrl, 'GET', '/vc-templates', { headers: { authorization: 'Bearer' } }));
  });
});
