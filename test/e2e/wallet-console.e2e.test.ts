/**
 * Issue 21, "a page a person uses": the operator page at /wallets is served offline (no URL of any
 * other host in its HTML, script or style), under a Content-Security-Policy that admits only this
 * host's script, style and requests, and it shows nothing without the API key: the two reads it
 * adds (the tenant's offerable configurations, a presentation request's QR code) answer 401
 * without a key, 403 with a key lacking the scope, and only the caller's tenant's data, through
 * REST (what the page calls) and GraphQL (the generated SDK) alike.
 * The browser test (test/browser/wallet-console.browser.test.ts) drives the page itself.
 */
import { randomBytes } from 'node:crypto';
import { useTestServer } from '../support/harness';
import { request } from '../support/http';
import { schemaBody, unwrap } from '../support/family-a-fixtures';
import { restFamilyA } from '../support/family-a-transports';
import { walletConsoleTransports } from '../support/wallet-console-transports';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { PNG } = require('pngjs') as { PNG: { sync: { read(b: Buffer): { width: number; height: number; data: Buffer } } } };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const jsQR = require('jsqr') as (data: Uint8ClampedArray, w: number, h: number) => { data: string } | null;

jest.setTimeout(60_000);

const server = useTestServer();
let tenant: string;
let bothKey: string;
let issuerOnly: string;
let verifierOnly: string;
let otherTenantKey: string;
const SD_JWT = 'schema.EmployeeBadge.v1.sd_jwt';

beforeAll(async () => {
  tenant = `console-${randomBytes(4).toString('hex')}`;
  bothKey = await server.apiKey(tenant, ['issuer', 'verifier']);
  issuerOnly = await server.apiKey(tenant, ['issuer']);
  verifierOnly = await server.apiKey(tenant, ['verifier']);
  otherTenantKey = await server.apiKey(`${tenant}-other`, ['issuer', 'verifier']);
  unwrap(await restFamilyA(server, '').createSchema(issuerOnly, schemaBody('EmployeeBadge')));
});

function readQr(dataUrl: string): string | undefined {
  const png = PNG.sync.read(Buffer.from(dataUrl.split(',')[1]!, 'base64'));
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data;
}

/** Every http(s) origin written in a text. */
const origins = (text: string): string[] => [...text.matchAll(/https?:\/\/[^\s"'`)<>]+/g)].map((m) => new URL(m[0]).origin);

describe('the page is offline and under a CSP', () => {
  test('GET /wallets and its two files: no other host named, the CSP header on each, no inline script', async () => {
    const page = await request(server.baseUrl, 'GET', '/wallets', { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const srcs = [...page.text.matchAll(/<(?:script|link)[^>]+(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(srcs.sort()).toEqual(['/wallets/assets/console.css', '/wallets/assets/console.js']);
    // Inline code would need 'unsafe-inline', which the policy does not grant.
    expect(page.text).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    expect(page.text).not.toMatch(/<style|\son[a-z]+=/i);
    const texts = [page.text];
    for (const res of [page, ...(await Promise.all(srcs.map((s) => request(server.baseUrl, 'GET', s))))]) {
      expect(res.status).toBe(200);
      const csp = res.headers.get('content-security-policy') ?? '';
      const directives = Object.fromEntries(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values]));
      expect(directives).toMatchObject({ 'default-src': ["'none'"], 'script-src': ["'self'"], 'style-src': ["'self'"], 'connect-src': ["'self'"], 'img-src': ["'self'", 'data:'], 'frame-ancestors': ["'none'"] });
      expect(csp).not.toMatch(/unsafe-(inline|eval)|\*|https?:/);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      texts.push(res.text);
    }
    // The service's own origin would be allowed; nothing at all is named.
    const foreign = texts.flatMap(origins).filter((o) => o !== server.baseUrl && o !== server.config.publicUrl);
    expect(foreign).toEqual([]);
  });

  test('the service index links to the page, so an operator finds it from GET /', async () => {
    const index = await request(server.baseUrl, 'GET', '/');
    expect(index.json.links.wallets).toEqual({ href: '/wallets', title: expect.stringMatching(/QR code/) });
  });

  test('the script puts what it receives on the page as text, never as HTML', async () => {
    const js = (await request(server.baseUrl, 'GET', '/wallets/assets/console.js')).text;
    expect(js).toMatch(/textContent/);
    expect(js).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function/);
  });

  test('only the two files are served: other names, traversal and prototype keys are 404', async () => {
    for (const name of ['package.json', '..%2Fpackage.json', '__proto__', 'constructor', 'toString', 'console.js.map']) {
      const res = await request(server.baseUrl, 'GET', `/wallets/assets/${name}`);
      expect({ name, status: res.status }).toEqual({ name, status: 404 });
    }
  });
});

describe.each(walletConsoleTransports(server))('the page shows nothing without the API key, through $name', (t) => {
  test('the offerable configurations: 401 without a key or with a wrong one, 403 without the issuer scope, the tenant\'s own list with it', async () => {
    expect(await t.configurations(undefined)).toEqual({ ok: false, status: 401, code: 'UNAUTHENTICATED' });
    expect(await t.configurations('cg_not-a-key')).toEqual({ ok: false, status: 401, code: 'UNAUTHENTICATED' });
    expect(await t.configurations(verifierOnly)).toEqual({ ok: false, status: 403, code: 'FORBIDDEN' });

    const answer = unwrap(await t.configurations(issuerOnly));
    const issuer = `${server.config.publicUrl}/oid4vc/${tenant}`;
    expect(answer.credentialIssuer).toBe(issuer);
    // The list is the issuer metadata a wallet sees, not a second derivation of it.
    const metadata = (await request(server.baseUrl, 'GET', `/.well-known/openid-credential-issuer/oid4vc/${tenant}`)).json;
    expect(answer.configurations.map((c: { id: string }) => c.id).sort()).toEqual(Object.keys(metadata.credential_configurations_supported).sort());
    const sdJwt = answer.configurations.find((c: { id: string }) => c.id === SD_JWT);
    expect(sdJwt).toEqual({ id: SD_JWT, format: 'dc+sd-jwt', name: 'EmployeeBadge v1', vct: `${issuer}/vct/${SD_JWT}`, doctype: null, claims: expect.arrayContaining([['name'], ['email']]) });

    // Another tenant sees its own (empty) issuer.
    expect(unwrap(await t.configurations(otherTenantKey))).toEqual({ credentialIssuer: `${server.config.publicUrl}/oid4vc/${tenant}-other`, configurations: [] });
  });

  test('a presentation request\'s QR code: the link a camera reads; 401 / 403 / 404 for the wrong caller or id, nothing changed', async () => {
    const vct = `${server.config.publicUrl}/oid4vc/${tenant}/vct/${SD_JWT}`;
    const created = await request(server.baseUrl, 'POST', '/oid4vp/requests', {
      headers: { 'x-api-key': bothKey },
      body: { dcqlQuery: { credentials: [{ id: 'badge', format: 'dc+sd-jwt', meta: { vct_values: [vct] }, claims: [{ path: ['name'] }] }] } },
    });
    expect(created.status).toBe(201);
    const id = created.json.id as string;

    const qr = unwrap(await t.requestQr(verifierOnly, id));
    expect(qr.authorizationRequest).toBe(created.json.authorizationRequest);
    expect(qr.qrSvg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    expect(qr.qrPng).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/);
    expect(readQr(qr.qrPng)).toBe(created.json.authorizationRequest);

    expect(await t.requestQr(undefined, id)).toEqual({ ok: false, status: 401, code: 'UNAUTHENTICATED' });
    expect(await t.requestQr(issuerOnly, id)).toEqual({ ok: false, status: 403, code: 'FORBIDDEN' });
    // Another tenant's request does not exist for this caller.
    expect(await t.requestQr(otherTenantKey, id)).toEqual({ ok: false, status: 404, code: 'NOT_FOUND' });
    for (const missing of ['not-a-uuid', '00000000-0000-4000-8000-000000000000', '__proto__']) {
      expect({ missing, outcome: await t.requestQr(verifierOnly, missing) }).toEqual({ missing, outcome: { ok: false, status: 404, code: 'NOT_FOUND' } });
    }
    // Reading the QR code changes nothing: the request is still pending and unanswered.
    const after = await request(server.baseUrl, 'GET', `/oid4vp/requests/${id}`, { headers: { 'x-api-key': verifierOnly } });
    expect(after.json).toMatchObject({ status: 'pending', respondedAt: null, result: null });
  });
});
