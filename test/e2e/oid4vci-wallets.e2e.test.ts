/**
 * Issue 21, OpenID4VCI 1.0 issuer proven with a wallet nobody here wrote: the compiled service
 * (dist/main.js) and the OpenWallet Foundation's oid4vc-ts client classes in a separate process
 * (test/wallets/oid4vci-wallet.mjs). Flows: pre-authorized code with tx_code (offer by reference),
 * authorization code with PAR + PKCE through the issuer's own login hook, batch issuance, deferred
 * issuance, the notification endpoint. Negative tests from the OpenID Foundation's OID4VCI
 * conformance plan: wrong and reused pre-authorized codes, wrong tx_codes up to the lock-out,
 * missing and replayed DPoP proofs, replayed and unknown nonces, a stale proof, a proof signed by
 * another key than its header names, a proof for another audience, unsupported format and
 * unknown configuration. Each refusal is an OAuth error with its documented status and leaves
 * the offer where it was.
 */
import { type JsonWebKey, X509Certificate, createPublicKey, randomBytes, verify as nodeVerify } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type RunningService, runCliAsync, startService } from '../support/process';
import { type TestDatabase, createTestDatabase } from '../support/test-db';
import { request } from '../support/http';
import { endpointAt } from '../support/harness';
import { restFamilyA } from '../support/family-a-transports';
import { schemaBody, unwrap } from '../support/family-a-fixtures';
import { type CreateOfferBody, type CreatedOffer, type OfferView, offerTransports } from '../support/oid4vci-transports';
import { type WalletOutcome, runIssuanceWallet, runSphereonWallet, stepOf } from '../support/oid4vci-wallet';
import { decodeLst, statusAt } from '../../src/formats/token-status-list';
import { readIssuerSigned } from '../../src/formats/mdoc';
import { restFamilyB } from '../support/family-b-transports';
import { restTransport } from '../support/transports';

jest.setTimeout(180_000);

const TENANT = 'wallets';
const SCHEMA = 'EmployeeBadge';
const SD_JWT = `schema.${SCHEMA}.v1.sd_jwt`;
const LDP = `schema.${SCHEMA}.v1.ldp_vc`;
const JWT_VC = `schema.${SCHEMA}.v1.jwt_vc`;
const TX_ATTEMPTS = 3;

let db: TestDatabase;
let dir: string;
let svc: RunningService;
let key: string;

beforeAll(async () => {
  db = await createTestDatabase();
  dir = mkdtempSync(path.join(os.tmpdir(), 'credgate-oid4vci-'));
  const env: Record<string, string> = {
    DATABASE_URL: db.config.kind === 'postgres' ? db.config.url : '',
    CREDGATE_MASTER_KEY: randomBytes(32).toString('hex'),
    CREDGATE_DATA_DIR: db.dataDir,
    CREDGATE_OID4VCI_TX_CODE_ATTEMPTS: String(TX_ATTEMPTS),
    // The authorization code flow's test login hook (login_hint = the offer's claims.sub).
    CREDGATE_OID4VCI_TEST_LOGIN: 'true',
  };
  // Before the service starts: PGlite admits one process at a time.
  expect((await runCliAsync(['tenant', 'create', TENANT], env)).status).toBe(0);
  // verifier too: the jwt_vc_json test has the received JWT checked by the service's VC-API verifier.
  const created = await runCliAsync(['api-key', 'create', '--tenant', TENANT, '--scopes', 'issuer,verifier'], env);
  expect(created.status).toBe(0);
  key = (JSON.parse(created.stdout.trim()) as { key: string }).key;
  svc = await startService(env);
  unwrap(await restFamilyA(endpointAt(svc.url), '').createSchema(key, schemaBody(SCHEMA)));
}, 180_000);

afterAll(async () => {
  if (process.env.OID4VCI_DEBUG) process.stderr.write(svc?.stdout.join('\n') + svc?.stderr.join('\n'));
  await svc?.stop();
  await db?.drop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const admin = () => offerTransports(endpointAt(svc.url))[0]!;
async function offer(body: Partial<CreateOfferBody> = {}): Promise<CreatedOffer> {
  return unwrap(await admin().create(key, { credentialConfigurationIds: [SD_JWT], claims: { name: 'Alice', email: 'alice@example.com', age: 30 }, byReference: true, txCodeLength: 6, ...body }));
}
async function statusOf(id: string): Promise<OfferView> {
  return unwrap(await admin().get(key, id));
}

interface SdJwt {
  header: Record<string, any>;
  payload: Record<string, any>;
  disclosed: Record<string, unknown>;
}

/** Splits an SD-JWT VC, checks the issuer signature with its x5c leaf, and reads the disclosures. */
function readSdJwt(compact: string): SdJwt {
  const [jwt, ...rest] = compact.split('~');
  const [h, p, s] = jwt!.split('.') as [string, string, string];
  const header = JSON.parse(Buffer.from(h, 'base64url').toString());
  const payload = JSON.parse(Buffer.from(p, 'base64url').toString());
  const leaf = new X509Certificate(Buffer.from(header.x5c[0], 'base64'));
  expect(nodeVerify('sha256', Buffer.from(`${h}.${p}`), { key: createPublicKey(leaf.publicKey.export({ format: 'pem', type: 'spki' })), dsaEncoding: 'ieee-p1363' }, Buffer.from(s, 'base64url'))).toBe(true);
  const disclosed: Record<string, unknown> = {};
  for (const d of rest.filter(Boolean)) {
    const [, name, value] = JSON.parse(Buffer.from(d, 'base64url').toString()) as [string, string, unknown];
    disclosed[name] = value;
  }
  return { header, payload, disclosed };
}

/** The status of an entry as any verifier reads it: the signed statuslist+jwt at its URI, decoded. */
async function statusBit(ref: { uri: string; idx: number }): Promise<number | undefined> {
  const res = await fetch(ref.uri);
  expect(res.status).toBe(200);
  const payload = JSON.parse(Buffer.from((await res.text()).split('.')[1]!, 'base64url').toString());
  return statusAt(decodeLst(payload.status_list.lst, 1 << 20), payload.status_list.bits, ref.idx);
}

const sameKey = (a: JsonWebKey, b: JsonWebKey): boolean => a.x === b.x && a.y === b.y;

describe('honest wallets receive credentials', () => {
  test('pre-authorized code with tx_code, by reference: a DPoP-bound token, an SD-JWT VC bound to the wallet key, accepted', async () => {
    const o = await offer();
    const out = await runIssuanceWallet({ offerUri: o.offerUri, txCode: o.txCode, notify: 'credential_accepted' });
    expect(stepOf(out, 'resolved')).toMatchObject({ ok: true, issuer: `${svc.url}/oid4vc/${TENANT}`, format: 'dc+sd-jwt' });
    expect(stepOf(out, 'token-type')).toMatchObject({ ok: true, tokenType: 'DPoP' });
    expect(stepOf(out, 'credentials')).toMatchObject({ ok: true, count: 1 });
    const vc = readSdJwt(out.credentials[0] as string);
    expect(vc.header.typ).toBe('dc+sd-jwt');
    expect(vc.payload).toMatchObject({ iss: `${svc.url}/oid4vc/${TENANT}`, vct: `${svc.url}/oid4vc/${TENANT}/vct/${SD_JWT}` });
    expect(sameKey(vc.payload.cnf.jwk, out.holderJwks[0]!)).toBe(true);
    expect(vc.payload.status.status_list).toMatchObject({ uri: expect.stringContaining('/token-status-lists/'), idx: expect.any(Number) });
    expect(vc.disclosed).toEqual({ name: 'Alice', email: 'alice@example.com', age: 30 });
    expect(stepOf(out, 'notification').ok).toBe(true);
    for (const t of offerTransports(endpointAt(svc.url))) expect(unwrap(await t.get(key, o.id)).status).toBe('accepted');
    // The vct resolves to the type metadata, the status list URI to a signed status list token.
    expect((await request(svc.url, 'GET', new URL(vc.payload.vct).pathname)).json.vct).toBe(vc.payload.vct);
    expect(await statusBit(vc.payload.status.status_list)).toBe(0);
    // Revoking the offer through the issuer-admin route revokes what it produced: the list flips.
    unwrap(await admin().revoke(key, o.id));
    expect(await statusBit(vc.payload.status.status_list)).toBe(1);
  });

  test('batch: three proofs by three keys give three credentials, one per key', async () => {
    const o = await offer();
    const out = await runIssuanceWallet({ offerUri: o.offerUri, txCode: o.txCode, batch: 3 });
    expect(stepOf(out, 'credentials')).toMatchObject({ ok: true, count: 3 });
    const bound = out.credentials.map((c) => readSdJwt(c as string).payload.cnf.jwk as JsonWebKey);
    out.holderJwks.forEach((k, i) => expect(sameKey(bound[i]!, k)).toBe(true));
    expect(new Set(bound.map((k) => k.x)).size).toBe(3);
    expect((await statusOf(o.id)).status).toBe('credential-issued');
  });

  test('deferred: a transaction_id until the operator marks the offer ready, then the credential once', async () => {
    const o = await offer({ deferred: true });
    const out = await runIssuanceWallet({ offerUri: o.offerUri, txCode: o.txCode }, async () => {
      expect((await statusOf(o.id)).status).toBe('token-issued');
      unwrap(await admin().markReady(key, o.id));
    });
    expect(stepOf(out, 'deferred')).toMatchObject({ ok: true, interval: 5 });
    expect(stepOf(out, 'deferred-early-answer')).toMatchObject({ ok: true, stillPending: true });
    expect(stepOf(out, 'credentials')).toMatchObject({ ok: true, count: 1 });
    expect(sameKey(readSdJwt(out.credentials[0] as string).payload.cnf.jwk, out.holderJwks[0]!)).toBe(true);
    expect(stepOf(out, 'deferred-again')).toMatchObject({ ok: false, status: 400, error: 'invalid_transaction_id' });
    expect((await statusOf(o.id)).status).toBe('credential-issued');
  });

  test('authorization code: PAR, PKCE S256, the issuer logs the user in, DPoP-bound token, credential', async () => {
    const o = await offer({ grants: ['authorization_code'], txCodeLength: undefined, claims: { sub: 'alice', name: 'Alice' } });
    const out = await runIssuanceWallet({ offerUri: o.offerUri, loginHint: 'alice', mode: 'authorization-code' });
    expect(stepOf(out, 'par')).toMatchObject({ ok: true, flow: 'Oauth2Redirect', pushed: true });
    expect(stepOf(out, 'authorize')).toMatchObject({ ok: true, status: 302, iss: `${svc.url}/oid4vc/${TENANT}` });
    expect(stepOf(out, 'token-type')).toMatchObject({ ok: true, tokenType: 'DPoP' });
    expect(stepOf(out, 'credentials')).toMatchObject({ ok: true, count: 1 });
    expect(readSdJwt(out.credentials[0] as string).disclosed).toMatchObject({ sub: 'alice', name: 'Alice' });
  });

  test('authorization code: a user the hook does not authenticate gets access_denied, no code', async () => {
    const o = await offer({ grants: ['authorization_code'], txCodeLength: undefined, claims: { sub: 'alice' } });
    const out = await runIssuanceWallet({ offerUri: o.offerUri, loginHint: 'mallory', mode: 'authorization-code' });
    expect(stepOf(out, 'authorize')).toMatchObject({ ok: false, status: 302, error: 'access_denied' });
    expect((await statusOf(o.id)).status).toBe('offered');
  });

  test('Sphereon\'s client: pre-authorized code with tx_code and DPoP, an SD-JWT VC bound to its key', async () => {
    const o = await offer();
    const out = await runSphereonWallet({ offerUri: o.offerUri, txCode: o.txCode, configurationId: SD_JWT });
    if (out.error) throw new Error(`the Sphereon wallet failed: ${out.message}`);
    expect(out.tokenType).toBe('DPoP');
    const vc = readSdJwt(out.credential!);
    expect(vc.payload.iss).toBe(`${svc.url}/oid4vc/${TENANT}`);
    expect(sameKey(vc.payload.cnf.jwk, out.holderJwk!)).toBe(true);
    expect(vc.disclosed).toEqual({ name: 'Alice', email: 'alice@example.com', age: 30 });
    expect((await statusOf(o.id)).status).toBe('credential-issued');
  });

  test('mso_mdoc: a template whose attributes map onto the EU PID is offered as an mdoc; the wallet gets IssuerSigned bound to its key', async () => {
    const endpoint = endpointAt(svc.url);
    const slice = restTransport(endpoint, '');
    const k = unwrap(await slice.generateKeypair(key));
    const full = unwrap(await slice.createDid(key, { method: 'credgate', publicKey: k.publicKey })).document.id as string;
    const attributes = ['familyName', 'givenName', 'birthDate', 'birthPlace', 'nationality', 'expiryDate', 'issuingAuthority', 'issuingCountry'].map((attributeName) => ({ attributeName, type: attributeName.endsWith('Date') ? 'date' : 'string', description: attributeName }));
    const template = unwrap(await restFamilyB(endpoint).createTemplate(key, { templateName: 'Person ID', description: 'PID', issuer: full.slice(0, full.lastIndexOf(':')), attributes, expiration: { value: 1, unit: 'years' } })) as Record<string, any>;
    const configurationId = `template.${template['templateId']}.mdoc`;
    const meta = await request(svc.url, 'GET', `/.well-known/openid-credential-issuer/oid4vc/${TENANT}`);
    expect(meta.json.credential_configurations_supported[configurationId]).toMatchObject({ format: 'mso_mdoc', doctype: 'eu.europa.ec.eudi.pid.1' });
    expect(meta.json.credential_configurations_supported[configurationId].credential_metadata.claims[0].path).toEqual(['eu.europa.ec.eudi.pid.1', 'family_name']);
    const claims = { familyName: 'Mustermann', givenName: 'Erika', birthDate: '1964-08-12', birthPlace: 'Berlin', nationality: ['DE'], expiryDate: '2031-01-01', issuingAuthority: 'Credgate Test', issuingCountry: 'DE' };
    const o = await offer({ credentialConfigurationIds: [configurationId], claims });
    const out = await runIssuanceWallet({ offerUri: o.offerUri, txCode: o.txCode });
    expect(stepOf(out, 'resolved')).toMatchObject({ format: 'mso_mdoc' });
    expect(stepOf(out, 'credentials')).toMatchObject({ ok: true, count: 1 });
    const mdoc = readIssuerSigned(out.credentials[0] as string);
    expect(mdoc.docType).toBe('eu.europa.ec.eudi.pid.1');
    expect(sameKey(mdoc.deviceKeyJwk!, out.holderJwks[0]!)).toBe(true);
    expect(mdoc.claims['eu.europa.ec.eudi.pid.1']).toMatchObject({ family_name: 'Mustermann', given_name: 'Erika', birth_place: 'Berlin', issuing_country: 'DE' });
    expect(mdoc.x5c.length).toBeGreaterThan(0);
    expect(mdoc.status).toMatchObject({ uri: expect.stringContaining('/token-status-lists/'), idx: expect.any(Number) });
  });

  test('ldp_vc: a Data Integrity credential whose subject is the wallet key (did:jwk)', async () => {
    const o = await offer({ credentialConfigurationIds: [LDP] });
    const out = await runIssuanceWallet({ offerUri: o.offerUri, txCode: o.txCode });
    expect(stepOf(out, 'credentials')).toMatchObject({ ok: true, count: 1 });
    const vc = out.credentials[0] as Record<string, any>;
    expect(vc.type).toEqual(['VerifiableCredential', 'EmployeeBadgeCredential']);
    expect(vc.proof).toBeDefined();
    const did = vc.credentialSubject.id as string;
    expect(did.startsWith('did:jwk:')).toBe(true);
    expect(sameKey(JSON.parse(Buffer.from(did.slice('did:jwk:'.length), 'base64url').toString()), out.holderJwks[0]!)).toBe(true);
  });
});

describe('jwt_vc_json', () => {
  test('a VCDM 1.1 JWT VC signed by the tenant\'s vc+jwt VC-API issuer (did:key, ES256), subject the wallet key, verified by the VC-API', async () => {
    const metadata = (await request(svc.url, 'GET', `/.well-known/openid-credential-issuer/oid4vc/${TENANT}`)).json;
    expect(metadata.credential_configurations_supported[JWT_VC]).toMatchObject({ format: 'jwt_vc_json', credential_definition: { type: ['VerifiableCredential', 'EmployeeBadgeCredential'] } });
    const o = await offer({ credentialConfigurationIds: [JWT_VC] });
    const out = await runIssuanceWallet({ offerUri: o.offerUri, txCode: o.txCode });
    expect(stepOf(out, 'resolved')).toMatchObject({ format: 'jwt_vc_json' });
    expect(stepOf(out, 'credentials')).toMatchObject({ ok: true, count: 1 });
    const jwt = out.credentials[0] as string;
    expect(typeof jwt).toBe('string');
    const [h, p] = jwt.split('.') as [string, string];
    const header = JSON.parse(Buffer.from(h, 'base64url').toString());
    const payload = JSON.parse(Buffer.from(p, 'base64url').toString());
    expect(header).toMatchObject({ alg: 'ES256', typ: 'JWT', kid: expect.stringMatching(/^did:key:z.+#z.+$/) });
    expect(payload.iss).toBe(header.kid.split('#')[0]);
    expect(payload.vc).toMatchObject({ type: ['VerifiableCredential', 'EmployeeBadgeCredential'], credentialSubject: { name: 'Alice', email: 'alice@example.com', age: 30 } });
    expect(payload.sub.startsWith('did:jwk:')).toBe(true);
    expect(sameKey(JSON.parse(Buffer.from(payload.sub.slice('did:jwk:'.length), 'base64url').toString()), out.holderJwks[0]!)).toBe(true);
    const verified = await request(svc.url, 'POST', '/vc-api/credentials/verify', { headers: { 'X-API-Key': key }, body: { verifiableCredential: jwt } });
    expect(verified.status).toBe(200);
    // A tampered payload does not verify: the signature is what the 200 above rests on.
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...payload, vc: { ...payload.vc, credentialSubject: { ...payload.vc.credentialSubject, age: 31 } } })).toString('base64url')}.${jwt.split('.')[2]}`;
    expect((await request(svc.url, 'POST', '/vc-api/credentials/verify', { headers: { 'X-API-Key': key }, body: { verifiableCredential: tampered } })).status).toBe(422);
  });
});

describe('conformance-plan negative tests: refused with the OAuth error, nothing moves', () => {
  const expectRefused = (out: WalletOutcome, step: string, status: number, error: string) => expect(stepOf(out, step)).toMatchObject({ ok: false, status, error });

  test('wrong tx_codes lock the offer after the limit; then even the right one is refused', async () => {
    const o = await offer();
    const out = await runIssuanceWallet({ offerUri: o.offerUri, mode: 'wrong-tx-code', wrongTxCodes: [...Array.from({ length: TX_ATTEMPTS }, () => (o.txCode === '000000' ? '111111' : '000000')), o.txCode] });
    for (let i = 1; i <= TX_ATTEMPTS + 1; i++) expectRefused(out, `token-${i}`, 400, 'invalid_grant');
    expect(await statusOf(o.id)).toMatchObject({ locked: true, status: 'failed' });
  });

  test('a missing tx_code is invalid_request and does not count against the offer', async () => {
    const o = await offer();
    const out = await runIssuanceWallet({ offerUri: o.offerUri, mode: 'missing-tx-code', txCode: o.txCode });
    expectRefused(out, 'token-without-tx-code', 400, 'invalid_request');
    expect(stepOf(out, 'token').ok).toBe(true);
  });

  test('a reused pre-authorized code is invalid_grant', async () => {
    const o = await offer();
    const out = await runIssuanceWallet({ offerUri: o.offerUri, txCode: o.txCode, mode: 'reused-code' });
    expect(stepOf(out, 'token').ok).toBe(true);
    expectRefused(out, 'token-again', 400, 'invalid_grant');
  });

  test('a wrong pre-authorized code is invalid_grant; its DPoP proof cannot be replayed', async () => {
    const o = await offer();
    const out = await runIssuanceWallet({ offerUri: o.offerUri, txCode: o.txCode, mode: 'replayed-dpop-token' });
    expectRefused(out, 'token-wrong-code', 400, 'invalid_grant');
    expectRefused(out, 'token-replayed-proof', 400, 'invalid_dpop_proof');
    expect((await statusOf(o.id)).status).toBe('offered');
  });

  test('a token request without DPoP is invalid_dpop_proof (tokens are always DPoP-bound)', async () => {
    const o = await offer();
    const out = await runIssuanceWallet({ offerUri: o.offerUri, txCode: o.txCode, mode: 'missing-dpop' });
    expectRefused(out, 'token', 400, 'invalid_dpop_proof');
    expect((await statusOf(o.id)).status).toBe('offered');
  });

  test.each([
    ['credential-missing-dpop', 'credential', 'invalid_dpop_proof'],
    ['credential-replayed-dpop', 'credential-replayed', 'invalid_dpop_proof'],
    ['credential-other-dpop-key', 'credential', 'invalid_dpop_proof'],
  ])('%s: 401 with WWW-Authenticate: DPoP', async (mode, step, error) => {
    const o = await offer();
    const out = await runIssuanceWallet({ offerUri: o.offerUri, txCode: o.txCode, mode });
    expect(stepOf(out, step)).toMatchObject({ ok: false, status: 401, error, wwwAuthenticate: expect.stringMatching(/^DPoP /) });
  });

  test.each([
    ['replayed-nonce', 'credential-same-nonce', 'invalid_nonce'],
    ['unknown-nonce', 'credential', 'invalid_nonce'],
    ['stale-proof', 'credential', 'invalid_proof'],
    ['other-key-proof', 'credential', 'invalid_proof'],
    ['wrong-audience', 'credential', 'invalid_proof'],
    ['unsupported-format', 'credential', 'unsupported_credential_format'],
    ['unsupported-format', 'credential-unknown-configuration', 'unknown_credential_configuration'],
  ])('%s: %s is %s', async (mode, step, error) => {
    const o = await offer();
    const out = await runIssuanceWallet({ offerUri: o.offerUri, txCode: o.txCode, mode });
    expectRefused(out, step, 400, error);
    // A refused credential request issues nothing: the offer stays at token-issued (replayed-nonce's first request was honest).
    expect((await statusOf(o.id)).status).toBe(mode === 'replayed-nonce' ? 'credential-issued' : 'token-issued');
  });
});
