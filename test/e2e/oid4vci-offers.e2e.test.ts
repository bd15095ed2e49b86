/**
 * Issue 21, OpenID4VCI issuer-admin operations: create, read, list, revoke and mark ready a
 * credential offer, through REST and through GraphQL (the generated SDK) with one set of
 * assertions; the public sides a wallet sees of the same offer (issuer metadata, the offer behind
 * credential_offer_uri, the QR codes) follow what the operator did.
 */
import { randomBytes } from 'node:crypto';
import { useTestServer } from '../support/harness';
import { request } from '../support/http';
import { schemaBody, unwrap } from '../support/family-a-fixtures';
import { restFamilyA } from '../support/family-a-transports';
import { offerTransports } from '../support/oid4vci-transports';
import { FB_ATTRIBUTES, fbParty } from '../support/family-b-fixtures';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { PNG } = require('pngjs') as { PNG: { sync: { read(b: Buffer): { width: number; height: number; data: Buffer } } } };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const jsQR = require('jsqr') as (data: Uint8ClampedArray, w: number, h: number) => { data: string } | null;

jest.setTimeout(60_000);

/** What a phone camera reads from the PNG: the offer link, decoded back with jsQR. */
function readQr(dataUrl: string): string | undefined {
  const png = PNG.sync.read(Buffer.from(dataUrl.split(',')[1]!, 'base64'));
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data;
}

const server = useTestServer();
const PRE_AUTH = 'urn:ietf:params:oauth:grant-type:pre-authorized_code';

let tenant: string;
let issuerKey: string;
let verifierKey: string;
let sdJwtConfig: string;
let ldpConfig: string;

beforeAll(async () => {
  tenant = `oid4vci-${randomBytes(4).toString('hex')}`;
  issuerKey = await server.apiKey(tenant, ['issuer']);
  verifierKey = await server.apiKey(tenant, ['verifier']);
  unwrap(await restFamilyA(server, '').createSchema(issuerKey, schemaBody('EmployeeBadge')));
  sdJwtConfig = 'schema.EmployeeBadge.v1.sd_jwt';
  ldpConfig = 'schema.EmployeeBadge.v1.ldp_vc';
});

describe('issuer metadata is derived from what the tenant has', () => {
  test('every schema version is offered as dc+sd-jwt (vct resolvable) and ldp_vc', async () => {
    const res = await request(server.baseUrl, 'GET', `/.well-known/openid-credential-issuer/oid4vc/${tenant}`);
    expect(res.status).toBe(200);
    const issuer = `${server.config.publicUrl}/oid4vc/${tenant}`;
    expect(res.json.credential_issuer).toBe(issuer);
    expect(res.json.nonce_endpoint).toBe(`${issuer}/nonce`);
    const configs = res.json.credential_configurations_supported;
    expect(configs[sdJwtConfig]).toMatchObject({ format: 'dc+sd-jwt', vct: `${issuer}/vct/${sdJwtConfig}` });
    expect(configs[ldpConfig]).toMatchObject({ format: 'ldp_vc', credential_definition: { type: ['VerifiableCredential', 'EmployeeBadgeCredential'] } });
    const vct = await request(server.baseUrl, 'GET', `/oid4vc/${tenant}/vct/${sdJwtConfig}`);
    expect(vct.status).toBe(200);
    expect(vct.json.vct).toBe(`${issuer}/vct/${sdJwtConfig}`);
    expect(vct.json.claims.map((c: { path: string[] }) => c.path[0])).toEqual(expect.arrayContaining(['name', 'email', 'age']));
    const as = await request(server.baseUrl, 'GET', `/.well-known/oauth-authorization-server/oid4vc/${tenant}`);
    expect(as.status).toBe(200);
    expect(as.json).toMatchObject({ issuer, token_endpoint: `${issuer}/token`, pushed_authorization_request_endpoint: `${issuer}/par`, code_challenge_methods_supported: ['S256'], dpop_signing_alg_values_supported: ['ES256'] });
  });

  test('a Family B template is offered too: its configuration id, vct and claims come from the template', async () => {
    const party = await fbParty(server, 'REST');
    const templateId = party.template['templateId'] as string;
    const id = `template.${templateId}.sd_jwt`;
    const created = unwrap(await offerTransports(server)[0]!.create(party.keys.issuer, { credentialConfigurationIds: [id, `template.${templateId}.ldp_vc`], claims: { name: 'Grace' } }));
    const issuer = created.credentialOffer['credential_issuer'] as string;
    const meta = await request(server.baseUrl, 'GET', `/.well-known/openid-credential-issuer${new URL(issuer).pathname}`);
    expect(meta.json.credential_configurations_supported[id]).toMatchObject({ format: 'dc+sd-jwt', vct: `${issuer}/vct/${id}` });
    const claims = meta.json.credential_configurations_supported[id].credential_metadata.claims.map((c: { path: string[] }) => c.path[0]);
    expect(claims).toEqual(FB_ATTRIBUTES.map((a) => a.attributeName));
  });

  test('an unknown tenant has no issuer (404, OAuth error body)', async () => {
    const res = await request(server.baseUrl, 'GET', '/.well-known/openid-credential-issuer/oid4vc/no-such-tenant-here');
    expect(res.status).toBe(404);
    expect(res.json.error).toBe('invalid_request');
  });
});

describe.each(offerTransports(server))('credential offers through $name', (t) => {
  test('create by reference with a tx_code: link, QR codes, the offer behind the URI, then read, list and revoke', async () => {
    const created = unwrap(await t.create(issuerKey, { credentialConfigurationIds: [sdJwtConfig], claims: { name: 'Alice', email: 'alice@example.com' }, txCodeLength: 6, byReference: true }));
    expect(created).toMatchObject({ status: 'offered', credentialConfigurationIds: [sdJwtConfig], txCodeRequired: true, locked: false, deferred: false, ready: true, revokedAt: null, grants: ['pre-authorized_code'] });
    expect(created.txCode).toMatch(/^[0-9]{6}$/);
    expect(created.credentialOfferUri).toMatch(new RegExp(`^${server.config.publicUrl}/oid4vc/${tenant}/credential-offer/[A-Za-z0-9_-]{43}$`));
    expect(created.offerUri).toBe(`openid-credential-offer://?credential_offer_uri=${encodeURIComponent(created.credentialOfferUri!)}`);
    expect(created.qrSvg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    expect(created.qrPng).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/);
    expect(readQr(created.qrPng)).toBe(created.offerUri);

    // The wallet's view: what credential_offer_uri serves is the offer the operator was given.
    const byRef = await request(server.baseUrl, 'GET', new URL(created.credentialOfferUri!).pathname);
    expect(byRef.status).toBe(200);
    expect(byRef.json).toEqual(created.credentialOffer);
    expect(byRef.json.grants[PRE_AUTH]).toMatchObject({ tx_code: { input_mode: 'numeric', length: 6 } });
    expect(byRef.json.grants[PRE_AUTH]['pre-authorized_code']).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const read = unwrap(await t.get(issuerKey, created.id));
    expect(read).toEqual({ id: created.id, status: 'offered', credentialConfigurationIds: [sdJwtConfig], txCodeRequired: true, locked: false, deferred: false, ready: true, expiresAt: created.expiresAt, createdAt: created.createdAt, updatedAt: created.updatedAt, revokedAt: null });
    // Secrets are shown once: never in a read.
    expect(JSON.stringify(read)).not.toContain(created.txCode!);

    const listed = unwrap(await t.list(issuerKey, { first: 200 }));
    expect(listed.items.map((o) => o.id)).toContain(created.id);

    const revoked = unwrap(await t.revoke(issuerKey, created.id));
    expect(revoked).toMatchObject({ id: created.id, status: 'revoked' });
    expect(revoked.revokedAt).not.toBeNull();
    expect(await t.revoke(issuerKey, created.id)).toMatchObject({ ok: false, status: 409, code: 'CONFLICT' });
    // A revoked offer's URI is dead.
    expect((await request(server.baseUrl, 'GET', new URL(created.credentialOfferUri!).pathname)).status).toBe(404);
  });

  test('by value with both grants: the link carries the offer itself', async () => {
    const created = unwrap(await t.create(issuerKey, { credentialConfigurationIds: [sdJwtConfig, ldpConfig], claims: { name: 'Bob' }, grants: ['pre-authorized_code', 'authorization_code'] }));
    expect(created.credentialOfferUri).toBeNull();
    expect(created.txCode).toBeNull();
    const embedded = JSON.parse(decodeURIComponent(created.offerUri.slice('openid-credential-offer://?credential_offer='.length)));
    expect(embedded).toEqual(created.credentialOffer);
    expect(embedded.credential_configuration_ids).toEqual([sdJwtConfig, ldpConfig]);
    expect(Object.keys(embedded.grants).sort()).toEqual(['authorization_code', PRE_AUTH]);
    expect(embedded.grants.authorization_code.issuer_state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(readQr(created.qrPng)).toBe(created.offerUri);
  });

  test('a deferred offer is marked ready once; a non-deferred one cannot be', async () => {
    const deferred = unwrap(await t.create(issuerKey, { credentialConfigurationIds: [sdJwtConfig], claims: { name: 'Carol' }, deferred: true }));
    expect(deferred).toMatchObject({ deferred: true, ready: false });
    expect(unwrap(await t.markReady(issuerKey, deferred.id))).toMatchObject({ deferred: true, ready: true });
    const plain = unwrap(await t.create(issuerKey, { credentialConfigurationIds: [sdJwtConfig], claims: { name: 'Dan' } }));
    expect(await t.markReady(issuerKey, plain.id)).toMatchObject({ ok: false, status: 409, code: 'CONFLICT' });
  });

  test('bad input is a 400 and stores nothing', async () => {
    const before = unwrap(await t.list(issuerKey, { first: 200 })).items.length;
    expect(await t.create(issuerKey, { credentialConfigurationIds: ['schema.NoSuch.v1.sd_jwt'], claims: {} })).toMatchObject({ ok: false, status: 400, code: 'INVALID_INPUT' });
    expect(await t.create(issuerKey, { credentialConfigurationIds: [], claims: {} })).toMatchObject({ ok: false, status: 400, code: 'INVALID_INPUT' });
    expect(await t.create(issuerKey, { credentialConfigurationIds: [sdJwtConfig], claims: {}, txCodeLength: 3 })).toMatchObject({ ok: false, status: 400, code: 'INVALID_INPUT' });
    expect(await t.create(issuerKey, { credentialConfigurationIds: [sdJwtConfig], claims: {}, grants: ['authorization_code'], txCodeLength: 6 })).toMatchObject({ ok: false, status: 400, code: 'INVALID_INPUT' });
    expect(unwrap(await t.list(issuerKey, { first: 200 })).items.length).toBe(before);
  });

  test('unknown offers are 404; other scopes and other tenants are refused', async () => {
    expect(await t.get(issuerKey, '00000000-0000-4000-8000-000000000000')).toMatchObject({ ok: false, status: 404, code: 'NOT_FOUND' });
    expect(await t.get(issuerKey, 'not-a-uuid')).toMatchObject({ ok: false, status: 404, code: 'NOT_FOUND' });
    expect(await t.create(verifierKey, { credentialConfigurationIds: [sdJwtConfig], claims: {} })).toMatchObject({ ok: false, status: 403, code: 'FORBIDDEN' });
    const mine = unwrap(await t.create(issuerKey, { credentialConfigurationIds: [sdJwtConfig], claims: { name: 'Eve' } }));
    const otherKey = await server.apiKey(`${tenant}-other`, ['issuer']);
    expect(await t.get(otherKey, mine.id)).toMatchObject({ ok: false, status: 404, code: 'NOT_FOUND' });
    expect(await t.revoke(otherKey, mine.id)).toMatchObject({ ok: false, status: 404, code: 'NOT_FOUND' });
    expect(unwrap(await t.get(issuerKey, mine.id)).status).toBe('offered');
  });
});
