import { randomUUID } from 'node:crypto';
import { issueSdJwtVc, verifySdJwtVc, type JoseSigner } from '../../src/formats/sd-jwt-vc';
import { createHttpStatusListTokenSource, createTokenStatusChecker, readStatusListToken, statusAt } from '../../src/formats/token-status-list';
import { unwrap } from '../support/family-a-fixtures';
import { MovableClock, fbParty } from '../support/family-b-fixtures';
import { useTestServer } from '../support/harness';
import { request } from '../support/http';
import { graphqlVcApi, namingIssuer, restVcApi } from '../support/vc-api-transports';
import { testSigner } from '../support/es256-test-signer';

/*
 * Issue 21, IETF Token Status List: the OpenID4VC issuer allocates a random slot per credential,
 * the signed statuslist+jwt is served publicly (ETag / 304, signed once per change, never per
 * read), and revoking the credential through the existing routes (Family B DELETE
 * /credentials/{id}, the VC-API status route) flips it, through REST and GraphQL alike; the
 * check verification uses then fails the credential, read from the database and over HTTP.
 */

/** Each test starts tenants, issues and revokes; PGlite on a loaded machine needs more than jest's 5 s default. */
const SLOW = 60_000;

const clock = new MovableClock();
const server = useTestServer(() => ({ clock }));
afterEach(() => clock.reset());

type Json = Record<string, any>;
const now = () => Math.floor(clock.now().getTime() / 1000);

async function tenantOf(key: string): Promise<string> {
  return (await server.app.services.auth.authenticate(key)).tenantId;
}

/** An SD-JWT VC of the tenant's OpenID4VC issuer carrying `status`, as the OID4VCI issuer makes them. */
async function sdJwtWithStatus(tenantId: string, status: { uri: string; idx: number }): Promise<{ credential: string; signer: JoseSigner }> {
  const signer = await server.app.services.oid4vcKeys.signerFor(tenantId);
  const credential = await issueSdJwtVc({ signer, iss: server.config.publicUrl, vct: `${server.config.publicUrl}/vct/badge`, claims: { name: 'Ada' }, holderJwk: testSigner().publicJwk, status, iat: now() });
  return { credential, signer };
}

const get = (path: string, headers: Record<string, string> = {}) => request(server.baseUrl, 'GET', path, { headers: { accept: 'application/statuslist+jwt', ...headers } });

/** The served token's status of `idx` (the token validated as a verifier would). */
async function servedStatus(uri: string, idx: number): Promise<{ status: number | undefined; token: string; etag: string }> {
  const res = await get(new URL(uri).pathname);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/statuslist\+jwt/);
  const token = res.text;
  const contents = await readStatusListToken(token, { trust: server.app.services.oid4vcKeys.issuerTrust(), uri, now: now(), maxBytes: 1 << 20 });
  return { status: statusAt(contents.bytes, contents.bits, idx), token, etag: String(res.headers.get('etag')) };
}

/** Both checks verification can use: the service's own (database) and a remote verifier's (HTTP, validating the token). */
function checkers() {
  const trust = server.app.services.oid4vcKeys.issuerTrust();
  // The lists' URLs name the configured public URL; the test server listens on a loopback port.
  const http = createHttpStatusListTokenSource({ fetch: { allowHttp: true, allowPrivate: true }, ttlSeconds: 0 });
  const remote = { fetchToken: (uri: string) => http.fetchToken(uri.replace(server.config.publicUrl, server.baseUrl)) };
  return {
    own: server.app.services.tokenStatus.checker(trust, remote),
    overHttp: createTokenStatusChecker({ remote, trust, now }),
    trust,
  };
}

describe.each(['REST', 'GraphQL'])('Token Status List, revocation through %s', (name) => {
  test('Family B DELETE /credentials/{id} flips the bit: the served token shows it and the check fails the credential', async () => {
    const p = await fbParty(server, name);
    const familyB = await p.issue();
    const tenantId = await tenantOf(p.keys.issuer);
    const ref = await server.app.services.tokenStatus.allocate(tenantId, familyB['id']);
    expect(ref.uri).toMatch(new RegExp(`^${server.config.publicUrl}/token-status-lists/[0-9a-f-]{36}$`));
    const { credential } = await sdJwtWithStatus(tenantId, ref);
    const { own, overHttp, trust } = checkers();

    const before = await servedStatus(ref.uri, ref.idx);
    expect(before.status).toBe(0);
    for (const checkStatus of [own, overHttp]) expect((await verifySdJwtVc(credential, { trust, checkStatus, now: now() })).problems).toEqual([]);

    // Not modified: the same ETag gives 304 without a body.
    const cached = await get(new URL(ref.uri).pathname, { 'if-none-match': before.etag });
    expect(cached.status).toBe(304);
    expect(cached.text).toBe('');

    unwrap(await p.t.revoke(p.keys.issuer, familyB['id']));

    const after = await servedStatus(ref.uri, ref.idx);
    expect(after.status).toBe(1);
    expect(after.etag).not.toBe(before.etag);
    expect((await get(new URL(ref.uri).pathname, { 'if-none-match': before.etag })).status).toBe(200);
    for (const checkStatus of [own, overHttp]) {
      const r = await verifySdJwtVc(credential, { trust, checkStatus, now: now() });
      expect(r.verified).toBe(false);
      expect(r.problems.map((x) => x.code)).toEqual(['status_invalid']);
    }

    // Reads never sign: an hour later, and after an idempotent second revocation, the same token.
    clock.advance(3600_000);
    unwrap(await p.t.revoke(p.keys.issuer, familyB['id']));
    const again = await servedStatus(ref.uri, ref.idx);
    expect(again.token).toBe(after.token);
    expect((await get(new URL(ref.uri).pathname, { 'if-none-match': after.etag })).status).toBe(304);
  }, SLOW);

  test('the VC-API status route flips the token status lists the credential is in; suspension does not revoke it', async () => {
    const t = namingIssuer(name === 'REST' ? restVcApi(server) : graphqlVcApi(server));
    const key = await server.apiKey(`tsl-vc-${name.toLowerCase()}-${randomUUID().slice(0, 8)}`, ['issuer']);
    const tenantId = await tenantOf(key);
    const id = `urn:uuid:${randomUUID()}`;
    const options = { credentialStatus: [{ type: 'BitstringStatusListEntry', statusPurpose: 'revocation' }, { type: 'BitstringStatusListEntry', statusPurpose: 'suspension' }] };
    const vc = { '@context': ['https://www.w3.org/ns/credentials/v2', 'https://www.w3.org/ns/credentials/undefined-terms/v2'], id, type: ['VerifiableCredential'], credentialSubject: { id: 'did:example:1', name: 'Ada' } };
    const issued = await t.issue(key, { credential: vc, options });
    expect(issued.ok).toBe(true);
    const ref = await server.app.services.tokenStatus.allocate(tenantId, id);
    const other = await server.app.services.tokenStatus.allocate(tenantId, `urn:uuid:${randomUUID()}`);

    const suspended = await t.updateStatus(key, { credentialId: id, statusPurpose: 'suspension', status: true });
    expect(suspended.ok).toBe(true);
    expect((await servedStatus(ref.uri, ref.idx)).status).toBe(0);

    const revoked = await t.updateStatus(key, { credentialId: id, statusPurpose: 'revocation', status: true });
    expect(revoked.ok).toBe(true);
    const served = await servedStatus(ref.uri, ref.idx);
    expect(served.status).toBe(1);
    // Only that credential's slot: another credential of the same list is untouched.
    expect((await servedStatus(other.uri, other.idx)).status).toBe(0);
  }, SLOW);
});

describe('Token Status List allocation and serving', () => {
  test('indices are drawn at random, never reused; a credential in several lists has every slot flipped', async () => {
    const key = await server.apiKey(`tsl-alloc-${randomUUID().slice(0, 8)}`, ['issuer']);
    const tenantId = await tenantOf(key);
    const refs = await Promise.all(Array.from({ length: 12 }, () => server.app.services.tokenStatus.allocate(tenantId, `rec-${randomUUID()}`)));
    const idx = refs.map((r) => r.idx);
    expect(new Set(idx).size).toBe(idx.length);
    expect(new Set(refs.map((r) => r.uri)).size).toBe(1);
    expect(idx.slice(1).every((v, i) => v === idx[i]! + 1)).toBe(false);
    expect(Math.max(...idx)).toBeGreaterThan(1000);

    // The same record allocated twice (e.g. a batch issuance) holds two slots; one revocation flips both.
    const record = `rec-${randomUUID()}`;
    const a = await server.app.services.tokenStatus.allocate(tenantId, record);
    const b = await server.app.services.tokenStatus.allocate(tenantId, record);
    await server.app.services.tokenStatus.credentialRevoked(tenantId, record);
    expect((await servedStatus(a.uri, a.idx)).status).toBe(1);
    expect((await servedStatus(b.uri, b.idx)).status).toBe(1);
    // Another tenant's revocation of the same record id flips nothing here.
    const otherTenant = await tenantOf(await server.apiKey(`tsl-other-${randomUUID().slice(0, 8)}`, ['issuer']));
    const c = await server.app.services.tokenStatus.allocate(tenantId, `rec-shared`);
    await server.app.services.tokenStatus.credentialRevoked(otherTenant, 'rec-shared');
    expect((await servedStatus(c.uri, c.idx)).status).toBe(0);
  }, SLOW);

  test('unknown or malformed list ids are 404, never a 500', async () => {
    expect((await get('/token-status-lists/not-a-uuid')).status).toBe(404);
    expect((await get(`/token-status-lists/${randomUUID()}`)).status).toBe(404);
    const { own } = checkers();
    const missing = await own({ uri: `${server.config.publicUrl}/token-status-lists/${randomUUID()}`, idx: 1 }).then(() => 'resolved', (e: { code?: string }) => e.code);
    expect(missing).toBe('NOT_FOUND');
    const key = await server.apiKey(`tsl-range-${randomUUID().slice(0, 8)}`, ['issuer']);
    const ref = await server.app.services.tokenStatus.allocate(await tenantOf(key), 'r');
    const beyond = await own({ uri: ref.uri, idx: 16 * 1024 * 8 }).then(() => 'resolved', (e: { code?: string }) => e.code);
    expect(beyond).toBe('INVALID_INPUT');
  }, SLOW);
});
