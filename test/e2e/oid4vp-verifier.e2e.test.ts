import { createHmac, createPrivateKey, generateKeyPairSync, randomBytes, sign as nodeSign, webcrypto } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type IncomingMessage, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { issueSdJwtVc } from '../../src/formats/sd-jwt-vc';
import { issueMdoc } from '../../src/formats/mdoc';
import { STATUS_LIST_JWT_MEDIA_TYPE, signStatusListToken, withStatus } from '../../src/formats/token-status-list';
import { type FixtureServer, makeSelfSignedCert, startFixtureServer } from '../support/fixture-https';
import { derToX5c, toPem } from '../../src/x509';
import { type RunningService, runCliAsync, startService } from '../support/process';
import { request } from '../support/http';
import { type TestDatabase, createTestDatabase } from '../support/test-db';
import { testLeaf, testRoot } from '../support/x509-test-ca';
import { type Oid4vpTransport, oid4vpGraphql, oid4vpRest } from '../support/oid4vp-transports';
import { type WalletInput, runWallet } from '../support/oid4vp-wallet';

/**
 * The OID4VP 1.0 verifier end to end: the compiled service (dist/main.js) and an independent
 * wallet process (oid4vc-ts's Openid4vpClient + @sd-jwt, test/wallets/oid4vp-presenter.mjs). The
 * relying party creates requests and reads results through REST and through GraphQL (SDK) with the
 * same assertions; the negative cases follow the OpenID Foundation's OID4VP conformance plan.
 */
let db: TestDatabase;
let svc: RunningService;
let key: string;
/** A verifier key of another tenant. */
let otherKey: string;
let dir: string;
let rootPem: string;
let otherRootPem: string;
const holder = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const holderPrivateJwk = holder.privateKey.export({ format: 'jwk' });
const holderJwk = holder.publicKey.export({ format: 'jwk' });
const ISS = 'https://issuer.credgate.test';
const VCT = 'https://issuer.credgate.test/vct/pid';
let issuerSigner: Parameters<typeof issueSdJwtVc>[0]['signer'] & { x5c: string[] };
let statusServer: FixtureServer;
let statusUri: string;
/** Index 7 of the issuer's status list is revoked, 8 is valid. */
const REVOKED_IDX = 7;
const VALID_IDX = 8;
const PID = 'eu.europa.ec.eudi.pid.1';
const mdocQuery = { credentials: [{ id: 'pid_mdoc', format: 'mso_mdoc', meta: { doctype_value: PID }, claims: [{ path: [PID, 'given_name'] }, { path: [PID, 'family_name'] }] }] };
const mdocSubject = { family_name: 'Mustermann', given_name: 'Erika', birth_date: '1964-08-12', birth_place: 'Berlin', nationality: ['DE'], expiry_date: '2031-01-01', issuing_authority: 'DE', issuing_country: 'DE' };

const query = { credentials: [{ id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: [VCT] }, claims: [{ path: ['given_name'] }, { path: ['family_name'] }] }] };
const subject = { given_name: 'Erika', family_name: 'Mustermann', birthdate: '1964-08-12', nationality: 'DE' };

async function pkcs8Pem(k: webcrypto.CryptoKey): Promise<string> {
  return toPem(new Uint8Array(await webcrypto.subtle.exportKey('pkcs8', k)), 'PRIVATE KEY');
}

async function credential(extra: { exp?: number; statusIdx?: number } = {}): Promise<{ compact: string }> {
  const now = Math.floor(Date.now() / 1000);
  const { statusIdx, ...times } = extra;
  return { compact: await issueSdJwtVc({ signer: issuerSigner, iss: ISS, vct: VCT, claims: subject, holderJwk, iat: now - 60, ...times, ...(statusIdx !== undefined ? { status: { uri: statusUri, idx: statusIdx } } : {}) }) };
}

async function mdoc(validUntil = new Date(Date.now() + 365 * 86_400_000)): Promise<{ issuerSigned: string }> {
  const bytes = await issueMdoc({ docType: PID, namespaces: { [PID]: mdocSubject }, signer: issuerSigner, deviceKeyJwk: holderJwk, validFrom: new Date(Date.now() - 86_400_000), validUntil });
  return { issuerSigned: Buffer.from(bytes).toString('base64url') };
}

beforeAll(async () => {
  db = await createTestDatabase();
  dir = mkdtempSync(path.join(os.tmpdir(), 'credgate-oid4vp-'));
  const root = await testRoot('OID4VP Test Root');
  rootPem = toPem(root.certificate);
  otherRootPem = toPem((await testRoot('Someone Else')).certificate);
  // The deployment's operator certificate (request objects): SAN dNSName = the public URL's host.
  const service = await testLeaf(root, { dnsNames: ['127.0.0.1'], uris: [] });
  writeFileSync(path.join(dir, 'cert.pem'), toPem(service.der) + toPem(root.certificate));
  writeFileSync(path.join(dir, 'key.pem'), await pkcs8Pem(service.keys.privateKey));
  writeFileSync(path.join(dir, 'anchors.pem'), rootPem);
  // A credential issuer under the same root, naming its iss in the SAN (HAIP x5c issuer trust).
  const issuer = await testLeaf(root, { dnsNames: ['issuer.credgate.test'], uris: [ISS] });
  const issuerKey = createPrivateKey({ key: Buffer.from(await webcrypto.subtle.exportKey('pkcs8', issuer.keys.privateKey)), format: 'der', type: 'pkcs8' });
  issuerSigner = {
    alg: 'ES256',
    publicJwk: (await webcrypto.subtle.exportKey('jwk', issuer.keys.publicKey)) as never,
    x5c: [derToX5c(issuer.der)],
    sign: async (data) => new Uint8Array(nodeSign('sha256', data, { key: issuerKey, dsaEncoding: 'ieee-p1363' })),
  };
  // The issuer's Token Status List, served over HTTPS as any other issuer's would be.
  const tls = makeSelfSignedCert();
  writeFileSync(path.join(dir, 'fetch-ca.pem'), tls.cert);
  statusServer = await startFixtureServer(tls);
  statusUri = `${statusServer.origin}/status/1`;
  const now = Math.floor(Date.now() / 1000);
  const token = await signStatusListToken({ signer: issuerSigner, sub: statusUri, bits: 1, bytes: withStatus(new Uint8Array(16), 1, REVOKED_IDX, 1), iat: now - 60, exp: now + 3600, ttl: 60 });
  statusServer.route('/status/1', { contentType: STATUS_LIST_JWT_MEDIA_TYPE, body: token });
  const env: Record<string, string> = {
    DATABASE_URL: db.config.kind === 'postgres' ? db.config.url : '',
    CREDGATE_MASTER_KEY: randomBytes(32).toString('hex'),
    CREDGATE_DATA_DIR: db.dataDir,
    CREDGATE_OID4VC_ISSUER_CERT_FILE: path.join(dir, 'cert.pem'),
    CREDGATE_OID4VC_ISSUER_KEY_FILE: path.join(dir, 'key.pem'),
    CREDGATE_OID4VC_TRUST_ANCHORS_FILE: path.join(dir, 'anchors.pem'),
    // Webhooks go to this test's loopback receiver.
    CREDGATE_FETCH_ALLOW_PRIVATE: 'true',
    CREDGATE_FETCH_CA_FILE: path.join(dir, 'fetch-ca.pem'),
  };
  // Before the service starts: PGlite admits one process at a time.
  expect((await runCliAsync(['tenant', 'create', 'rp'], env)).status).toBe(0);
  const created = await runCliAsync(['api-key', 'create', '--tenant', 'rp', '--scopes', 'verifier'], env);
  expect(created.status).toBe(0);
  key = (JSON.parse(created.stdout.trim()) as { key: string }).key;
  expect((await runCliAsync(['tenant', 'create', 'other-rp'], env)).status).toBe(0);
  const other = await runCliAsync(['api-key', 'create', '--tenant', 'other-rp', '--scopes', 'verifier'], env);
  expect(other.status).toBe(0);
  otherKey = (JSON.parse(other.stdout.trim()) as { key: string }).key;
  svc = await startService(env);
}, 120_000);

afterAll(async () => {
  if (process.env.OID4VP_DEBUG) process.stderr.write(svc?.stdout.join('\n') + svc?.stderr.join('\n'));
  await svc?.stop();
  await statusServer?.close();
  await db?.drop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const transports = (): Oid4vpTransport[] => [oid4vpRest(svc.url), oid4vpGraphql(svc.url)];
async function wallet(authorizationRequest: string, over: Partial<WalletInput> = {}, pid?: { compact: string }) {
  const out = await runWallet({ authorizationRequest, credentials: { pid: pid ?? (await credential()) }, holderPrivateJwk, walletAnchorsPem: [rootPem], ...over });
  // A wallet failure (not a refusal it was meant to make) shows its message here.
  if (out.error === 'wallet_failed') throw new Error(`the wallet failed: ${out.message}`);
  return out;
}

async function created(t: Oid4vpTransport, body: Record<string, unknown>): Promise<Record<string, any>> {
  const out = await t.create(key, body);
  if (!out.ok) throw new Error(`create failed: ${out.status} ${out.code}`);
  return out.data;
}

async function resultOf(t: Oid4vpTransport, id: string): Promise<{ status: string; result: Record<string, any> | null }> {
  const out = await t.result(key, id);
  if (!out.ok) throw new Error(`result failed: ${out.status}`);
  return out.data;
}

describe.each(['REST', 'GraphQL'])('the relying party through %s', (name) => {
  const t = (): Oid4vpTransport => transports().find((x) => x.name === name)!;

  test('x509_san_dns + direct_post.jwt: a signed request by reference, an encrypted response, only the requested claims', async () => {
    const req = await created(t(), { dcqlQuery: query });
    expect(req).toMatchObject({ status: 'pending', clientId: 'x509_san_dns:127.0.0.1', clientIdPrefix: 'x509_san_dns', responseMode: 'direct_post.jwt', result: null, webhookSecret: null });
    expect(req.authorizationRequest).toMatch(/^openid4vp:\/\/\?client_id=x509_san_dns%3A127\.0\.0\.1&request_uri=/);
    const out = await wallet(req.authorizationRequest, { mode: 'replay' });
    expect(out.resolved).toEqual(expect.objectContaining({ client_id: 'x509_san_dns:127.0.0.1', response_mode: 'direct_post.jwt', signed: true }));
    // The second vp_token for the same request is refused: state and nonce are single-use.
    expect(out.submissions!.map((s) => [s.status, s.body?.error])).toEqual([
      [200, undefined],
      [400, 'invalid_request'],
    ]);
    const { status, result } = await resultOf(t(), req.id);
    expect(status).toBe('verified');
    expect(result).toMatchObject({ verified: true, dcqlSatisfied: true, problems: [] });
    expect(result!.credentials).toHaveLength(1);
    expect(result!.credentials[0]).toMatchObject({ queryId: 'pid', format: 'dc+sd-jwt', verified: true, type: VCT, issuer: ISS });
    expect(result!.credentials[0].claims).toMatchObject({ given_name: 'Erika', family_name: 'Mustermann' });
    expect(result!.credentials[0].claims).not.toHaveProperty('birthdate');
    const again = await t().get(key, req.id);
    expect(again.ok && again.data.respondedAt).toEqual(expect.any(String));
  });

  test('x509_hash + direct_post', async () => {
    const req = await created(t(), { dcqlQuery: query, clientIdPrefix: 'x509_hash', responseMode: 'direct_post' });
    expect(req.clientId).toMatch(/^x509_hash:[A-Za-z0-9_-]{43}$/);
    const out = await wallet(req.authorizationRequest);
    expect(out.submissions![0]!.status).toBe(200);
    expect((await resultOf(t(), req.id)).status).toBe('verified');
  });

  test('redirect_uri (unsigned, by value) + direct_post.jwt', async () => {
    const req = await created(t(), { dcqlQuery: query, clientIdPrefix: 'redirect_uri' });
    expect(req.requestUri).toBeNull();
    const out = await wallet(req.authorizationRequest);
    expect(out.resolved!.signed).toBe(false);
    expect(out.submissions![0]!.status).toBe(200);
    expect((await resultOf(t(), req.id)).result).toMatchObject({ verified: true });
  });

  test.each([
    ['extra-claim', 'disclosure'],
    ['wrong-aud', 'key_binding_invalid'],
    ['tamper-disclosure', undefined],
    ['broken-kb', 'key_binding_invalid'],
  ] as const)('a wallet that sends %s gets access_denied; the relying party sees the failed check', async (mode, failedCheck) => {
    const req = await created(t(), { dcqlQuery: query });
    const out = await wallet(req.authorizationRequest, { mode });
    expect(out.submissions!.map((s) => [s.status, s.body?.error])).toEqual([[400, 'access_denied']]);
    const { status, result } = await resultOf(t(), req.id);
    expect(status).toBe('failed');
    expect(result!.verified).toBe(false);
    const cred = result!.credentials[0];
    expect(cred.verified).toBe(false);
    const failed = (cred.checks as { check: string; passed: boolean }[]).filter((c) => !c.passed).map((c) => c.check);
    expect(failed.length).toBeGreaterThan(0);
    if (failedCheck) expect(failed).toContain(failedCheck);
  });

  test('an expired credential does not verify', async () => {
    const req = await created(t(), { dcqlQuery: query });
    const out = await wallet(req.authorizationRequest, {}, await credential({ exp: Math.floor(Date.now() / 1000) - 3600 }));
    expect(out.submissions![0]!.status).toBe(400);
    const { result } = await resultOf(t(), req.id);
    expect((result!.credentials[0].checks as { check: string; passed: boolean }[]).filter((c) => !c.passed).map((c) => c.check)).toContain('expired');
  });

  test('an unencrypted response to a request that asked for encryption is refused, and nothing is stored', async () => {
    const req = await created(t(), { dcqlQuery: query });
    const out = await wallet(req.authorizationRequest, { mode: 'unencrypted' });
    expect(out.submissions!.map((s) => [s.status, s.body?.error])).toEqual([[400, 'invalid_request']]);
    expect(await resultOf(t(), req.id)).toMatchObject({ status: 'pending', result: null });
    // The request is still open: the honest wallet can answer it.
    expect((await wallet(req.authorizationRequest)).submissions![0]!.status).toBe(200);
  });

  test('a request object signed by a certificate the wallet does not trust: the wallet refuses it', async () => {
    const req = await created(t(), { dcqlQuery: query });
    const out = await wallet(req.authorizationRequest, { walletAnchorsPem: [otherRootPem] });
    expect(out.error).toBe('request_refused');
    expect(await resultOf(t(), req.id)).toMatchObject({ status: 'pending', result: null });
  });

  test('a response to a request the verifier did not make (its own state and nonce) is refused', async () => {
    const req = await created(t(), { dcqlQuery: query, responseMode: 'direct_post' });
    const out = await runWallet({ credentials: { pid: await credential() }, holderPrivateJwk, walletAnchorsPem: [rootPem], mode: 'forged-request', responseUri: req.responseUri, forgedQuery: query });
    expect(out.submissions!.map((s) => [s.status, s.body?.error])).toEqual([[400, 'invalid_request']]);
    expect(await resultOf(t(), req.id)).toMatchObject({ status: 'pending', result: null });
  });

  test('status from the issuer\'s Token Status List: a valid entry verifies, a revoked one does not', async () => {
    const ok = await created(t(), { dcqlQuery: query });
    expect((await wallet(ok.authorizationRequest, {}, await credential({ statusIdx: VALID_IDX }))).submissions![0]!.status).toBe(200);
    expect((await resultOf(t(), ok.id)).status).toBe('verified');
    const revoked = await created(t(), { dcqlQuery: query });
    expect((await wallet(revoked.authorizationRequest, {}, await credential({ statusIdx: REVOKED_IDX }))).submissions!.map((s) => s.body?.error)).toEqual(['access_denied']);
    const { status, result } = await resultOf(t(), revoked.id);
    expect(status).toBe('failed');
    expect((result!.credentials[0].checks as { check: string; passed: boolean }[]).filter((c) => !c.passed).map((c) => c.check)).toContain('status_invalid');
  });

  test('mso_mdoc: a DeviceResponse over Annex B\'s SessionTranscript (encrypted response), only the requested elements', async () => {
    const req = await created(t(), { dcqlQuery: mdocQuery });
    const out = await runWallet({ authorizationRequest: req.authorizationRequest, credentials: { pid_mdoc: await mdoc() }, holderPrivateJwk, walletAnchorsPem: [rootPem] });
    expect(out.submissions).toEqual([{ status: 200, body: {} }]);
    const { status, result } = await resultOf(t(), req.id);
    expect(status).toBe('verified');
    expect(result!.credentials[0]).toMatchObject({ queryId: 'pid_mdoc', format: 'mso_mdoc', verified: true, type: PID, claims: { [PID]: { given_name: 'Erika', family_name: 'Mustermann' } } });
    expect(Object.keys(result!.credentials[0].claims[PID]).sort()).toEqual(['family_name', 'given_name']);
  });

  test.each([
    ['extra-claim', 'disclosure'],
    ['wrong-aud', 'DEVICE_SIGNATURE_INVALID'],
    ['broken-kb', 'DEVICE_SIGNATURE_INVALID'],
    ['expired', 'EXPIRED'],
  ] as const)('mso_mdoc: %s does not verify', async (mode, failedCheck) => {
    const req = await created(t(), { dcqlQuery: mdocQuery, responseMode: 'direct_post' });
    const held = mode === 'expired' ? await mdoc(new Date(Date.now() - 3_600_000)) : await mdoc();
    const out = await runWallet({ authorizationRequest: req.authorizationRequest, credentials: { pid_mdoc: held }, holderPrivateJwk, walletAnchorsPem: [rootPem], ...(mode === 'expired' ? {} : { mode }), extraElements: ['birth_date'] });
    expect(out.submissions!.map((s) => [s.status, s.body?.error])).toEqual([[400, 'access_denied']]);
    const { status, result } = await resultOf(t(), req.id);
    expect(status).toBe('failed');
    expect((result!.credentials[0].checks as { check: string; passed: boolean }[]).filter((c) => !c.passed).map((c) => c.check)).toContain(failedCheck);
  });

  test('bad input is a 400 INVALID_INPUT and an unknown request a 404', async () => {
    for (const body of [{ dcqlQuery: { credentials: [] } }, { dcqlQuery: query, responseMode: 'fragment' }, { dcqlQuery: query, clientIdPrefix: 'did' }, { dcqlQuery: { credentials: [{ id: 'x', format: 'ldp_vc', meta: { type_values: [['X']] } }] } }, { dcqlQuery: query, webhookUrl: 'ftp://example.com' }]) {
      const out = await t().create(key, body);
      expect(out).toMatchObject({ ok: false, status: 400, code: 'INVALID_INPUT' });
    }
    expect(await t().get(key, '00000000-0000-4000-8000-000000000000')).toMatchObject({ ok: false, status: 404, code: 'NOT_FOUND' });
  });

  test("another tenant's request and result are not found", async () => {
    const req = await created(t(), { dcqlQuery: query });
    expect(await t().get(otherKey, req.id)).toMatchObject({ ok: false, status: 404, code: 'NOT_FOUND' });
    expect(await t().result(otherKey, req.id)).toMatchObject({ ok: false, status: 404, code: 'NOT_FOUND' });
    expect((await t().get(key, req.id)).ok).toBe(true);
  });
});

test('the result is pushed to the webhook, signed with the secret returned at creation', async () => {
  const received: { body: string; signature: string | undefined }[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ body: Buffer.concat(chunks).toString('utf8'), signature: req.headers['x-credgate-signature'] as string | undefined });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    const req = await created(oid4vpRest(svc.url), { dcqlQuery: query, webhookUrl: url });
    expect(req.webhookSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await wallet(req.authorizationRequest)).submissions![0]!.status).toBe(200);
    for (let i = 0; i < 100 && received.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(received).toHaveLength(1);
    const { body, signature } = received[0]!;
    expect(signature).toBe(`sha256=${createHmac('sha256', req.webhookSecret as string).update(body).digest('hex')}`);
    expect(JSON.parse(body)).toMatchObject({ id: req.id, status: 'verified', result: { verified: true } });
    for (let i = 0; i < 100; i++) {
      if ((await request(svc.url, 'GET', `/oid4vp/requests/${req.id}`, { headers: { 'X-API-Key': key } })).json.webhookStatus === 'delivered') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect((await request(svc.url, 'GET', `/oid4vp/requests/${req.id}`, { headers: { 'X-API-Key': key } })).json.webhookStatus).toBe('delivered');
  } finally {
    server.close();
  }
});

test('the request object by reference: GET, and POST with wallet_nonce (request_uri_method=post), signed with x5c', async () => {
  const req = await created(oid4vpRest(svc.url), { dcqlQuery: query });
  const decode = (jwt: string) => jwt.split('.').slice(0, 2).map((p) => JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as Record<string, any>);
  const got = await request(svc.url, 'GET', `/oid4vp/request-objects/${req.id}`);
  expect(got.status).toBe(200);
  expect(got.headers.get('content-type')).toMatch(/^application\/oauth-authz-req\+jwt/);
  const [header, payload] = decode(got.text);
  expect(header).toMatchObject({ alg: 'ES256', typ: 'oauth-authz-req+jwt', x5c: [expect.any(String), expect.any(String)] });
  expect(payload).toMatchObject({ aud: 'https://self-issued.me/v2', client_id: req.clientId, response_type: 'vp_token', response_mode: 'direct_post.jwt', response_uri: req.responseUri, dcql_query: query });
  expect(payload!.client_metadata.jwks.keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', use: 'enc', alg: 'ECDH-ES' });
  expect(payload!.client_metadata.jwks.keys[0]).not.toHaveProperty('d');
  expect(payload).not.toHaveProperty('wallet_nonce');
  const posted = await request(svc.url, 'POST', `/oid4vp/request-objects/${req.id}`, { headers: { 'content-type': 'application/x-www-form-urlencoded' }, raw: 'wallet_nonce=qPmxiNFCR3QTm19POc8u' });
  expect(posted.status).toBe(200);
  expect(decode(posted.text)[1]).toMatchObject({ wallet_nonce: 'qPmxiNFCR3QTm19POc8u', nonce: payload!.nonce, state: payload!.state });
});

test('wallet endpoints answer protocol errors, never a 500: unknown request, malformed body', async () => {
  const unknown = await request(svc.url, 'GET', '/oid4vp/request-objects/00000000-0000-4000-8000-000000000000');
  expect([unknown.status, unknown.json.error]).toEqual([404, 'invalid_request']);
  const req = await created(oid4vpRest(svc.url), { dcqlQuery: query, responseMode: 'direct_post' });
  for (const raw of ['vp_token=not-json&state=x', 'state=x', 'vp_token=%7B%7D&vp_token=%7B%7D']) {
    const res = await request(svc.url, 'POST', `/oid4vp/responses/${req.id}`, { headers: { 'content-type': 'application/x-www-form-urlencoded' }, raw });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('invalid_request');
  }
  expect((await resultOf(oid4vpRest(svc.url), req.id)).status).toBe('pending');
  // The relying-party routes need the API key.
  expect((await request(svc.url, 'GET', `/oid4vp/requests/${req.id}`)).status).toBe(401);
});
