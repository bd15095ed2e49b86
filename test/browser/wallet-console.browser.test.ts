import { createPrivateKey, generateKeyPairSync, randomBytes, sign as nodeSign, webcrypto } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { issueSdJwtVc } from '../../src/formats/sd-jwt-vc';
import { derToX5c, toPem } from '../../src/x509';
import { schemaBody, unwrap } from '../support/family-a-fixtures';
import { restFamilyA } from '../support/family-a-transports';
import { endpointAt } from '../support/harness';
import { type RunningService, runCliAsync, startService } from '../support/process';
import { type TestDatabase, createTestDatabase } from '../support/test-db';
import { testLeaf, testRoot } from '../support/x509-test-ca';
import { runIssuanceWallet, stepOf } from '../support/oid4vci-wallet';
import { runWallet } from '../support/oid4vp-wallet';
import { screenshot, withBrowser } from './support/browser';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const jsQR = require('jsqr') as (data: Uint8ClampedArray, w: number, h: number) => { data: string } | null;

/*
 * Issue 21, "a page a person uses": the operator page at /wallets in headless Chromium against the
 * compiled service (dist/main.js). A person enters the key, offers a credential and asks for a
 * presentation; the test reads each QR code from the page's image as a phone camera would, hands
 * the link to an independent wallet process (oid4vc-ts clients, test/wallets/), and sees the page
 * update: picked up, issued, accepted; then verified with the disclosed claims and checks. A
 * wallet-supplied claim that is HTML stays text.
 */

const TENANT = 'console';
const SD_JWT = 'schema.EmployeeBadge.v1.sd_jwt';
/** A credential issuer under the deployment's trust anchor, naming its iss in the SAN (HAIP x5c trust). */
const ISS = 'https://issuer.credgate.test';
const XSS = '<img src=x onerror="document.title=\'pwned\'">';

const browser = withBrowser();
let db: TestDatabase;
let dir: string;
let svc: RunningService;
let key: string;
let rootPem: string;
let issuerSigner: Parameters<typeof issueSdJwtVc>[0]['signer'];
const holder = generateKeyPairSync('ec', { namedCurve: 'P-256' });

async function pkcs8(k: webcrypto.CryptoKey): Promise<Buffer> {
  return Buffer.from(await webcrypto.subtle.exportKey('pkcs8', k));
}

beforeAll(async () => {
  db = await createTestDatabase();
  dir = mkdtempSync(path.join(os.tmpdir(), 'credgate-console-'));
  const root = await testRoot('Console Test Root');
  rootPem = toPem(root.certificate);
  // The deployment's certificate (offers' credentials, request objects): SAN dNSName = the public host.
  const service = await testLeaf(root, { dnsNames: ['127.0.0.1'], uris: [] });
  writeFileSync(path.join(dir, 'cert.pem'), toPem(service.der) + rootPem);
  writeFileSync(path.join(dir, 'key.pem'), toPem(new Uint8Array(await pkcs8(service.keys.privateKey)), 'PRIVATE KEY'));
  writeFileSync(path.join(dir, 'anchors.pem'), rootPem);
  const issuer = await testLeaf(root, { dnsNames: ['issuer.credgate.test'], uris: [ISS] });
  const issuerKey = createPrivateKey({ key: await pkcs8(issuer.keys.privateKey), format: 'der', type: 'pkcs8' });
  issuerSigner = {
    alg: 'ES256',
    publicJwk: (await webcrypto.subtle.exportKey('jwk', issuer.keys.publicKey)) as never,
    x5c: [derToX5c(issuer.der)],
    sign: async (data) => new Uint8Array(nodeSign('sha256', data, { key: issuerKey, dsaEncoding: 'ieee-p1363' })),
  };
  const env: Record<string, string> = {
    DATABASE_URL: db.config.kind === 'postgres' ? db.config.url : '',
    CREDGATE_MASTER_KEY: randomBytes(32).toString('hex'),
    CREDGATE_DATA_DIR: db.dataDir,
    CREDGATE_OID4VC_ISSUER_CERT_FILE: path.join(dir, 'cert.pem'),
    CREDGATE_OID4VC_ISSUER_KEY_FILE: path.join(dir, 'key.pem'),
    CREDGATE_OID4VC_TRUST_ANCHORS_FILE: path.join(dir, 'anchors.pem'),
  };
  // Before the service starts: PGlite admits one process at a time.
  expect((await runCliAsync(['tenant', 'create', TENANT], env)).status).toBe(0);
  const created = await runCliAsync(['api-key', 'create', '--tenant', TENANT, '--scopes', 'issuer,verifier'], env);
  expect(created.status).toBe(0);
  key = (JSON.parse(created.stdout.trim()) as { key: string }).key;
  svc = await startService(env);
  unwrap(await restFamilyA(endpointAt(svc.url), '').createSchema(key, schemaBody('EmployeeBadge')));
}, 180_000);

afterAll(async () => {
  await svc?.stop();
  await db?.drop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** What a phone camera reads: the element as rendered on screen, decoded with jsQR. */
async function readQrFromPage(page: Page, selector: string): Promise<string> {
  const png = await page.locator(selector).screenshot();
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const found = jsQR(new Uint8ClampedArray(data), info.width, info.height);
  if (!found) throw new Error(`no QR code readable in ${selector}`);
  return found.data;
}

/** Waits until a status element reports `status` (its data-status attribute). */
async function statusBecomes(page: Page, selector: string, status: string): Promise<void> {
  await page.locator(`${selector}[data-status="${status}"]`).waitFor({ timeout: 60_000 });
}

/** Opens the page and enters the key in its bar, as a person would. */
async function openWithKey() {
  const opened = await browser.openPage({ baseUrl: svc.url }, '/wallets');
  await opened.page.fill('#credgate-api-key', key);
  await opened.page.click('#credgate-key-form button[type=submit]');
  await expect(opened.page.locator('#credgate-key-status').textContent()).resolves.toMatch(/saved/);
  await opened.page.click('#load-configurations');
  await opened.page.locator('#configurations-status', { hasText: 'credential configuration(s)' }).waitFor();
  return opened;
}

test('offer: pick the schema, enter subject data, the QR on screen goes to a wallet, the page follows it to "accepted"', async () => {
  const { page, foreignRequests, errors } = await openWithKey();
  await page.selectOption('#configuration', { label: 'EmployeeBadge v1 (dc+sd-jwt)' });
  // Picking a credential pre-fills its claims for the person to complete.
  expect(JSON.parse(await page.inputValue('#subject-json'))).toEqual({ name: '', email: '', age: '', birthDate: '', employeeId: '' });
  await page.fill('#subject-json', JSON.stringify({ name: 'Alice', email: 'alice@example.com', age: 30, birthDate: '1990-05-17', employeeId: 'E-1' }));
  await page.fill('#tx-code-length', '6');
  await page.click('#create-offer');
  await page.locator('#offer-qr[src^="data:image/png"]').waitFor();
  await statusBecomes(page, '#offer-status', 'offered');

  const scanned = await readQrFromPage(page, '#offer-qr');
  expect(scanned).toBe(await page.textContent('#offer-link'));
  expect(scanned).toMatch(/^openid-credential-offer:\/\/\?credential_offer_uri=/);
  expect(await page.getAttribute('#offer-link', 'href')).toBe(scanned);
  const txCode = (await page.textContent('#offer-tx-code')) ?? '';
  expect(txCode).toMatch(/^[0-9]{6}$/);
  await screenshot(page, 'wallet-console-offer');

  // The person tells the user the code; the user's wallet scans the screen.
  const wallet = await runIssuanceWallet({ offerUri: scanned, txCode, configurationId: SD_JWT, notify: 'credential_accepted' });
  expect(stepOf(wallet, 'credential').ok).toBe(true);
  expect(stepOf(wallet, 'notification').ok).toBe(true);
  expect(wallet.credentials).toHaveLength(1);
  const payload = JSON.parse(Buffer.from(String(wallet.credentials[0]).split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
  expect(payload['vct']).toBe(`${svc.url}/oid4vc/${TENANT}/vct/${SD_JWT}`);

  await statusBecomes(page, '#offer-status', 'accepted');
  expect(await page.textContent('#offer-status')).toMatch(/accepted/);
  await screenshot(page, 'wallet-console-offer-accepted');
  expect(await page.textContent('#offer-error')).toBe('');
  expect(foreignRequests).toEqual([]);
  expect(errors).toEqual([]);
});

test('verify: a DCQL preset, the request QR on screen goes to a wallet, the verified result and disclosed claims appear; HTML in a claim stays text', async () => {
  const { page, foreignRequests, errors } = await openWithKey();
  await page.selectOption('#dcql-preset', { label: 'EmployeeBadge v1 (dc+sd-jwt)' });
  const vct = `${svc.url}/oid4vc/${TENANT}/vct/${SD_JWT}`;
  const query = JSON.parse(await page.inputValue('#dcql-query'));
  expect(query).toEqual({ credentials: [{ id: 'credential', format: 'dc+sd-jwt', meta: { vct_values: [vct] }, claims: expect.arrayContaining([{ path: ['name'] }, { path: ['employeeId'] }]) }] });
  await page.click('#create-request');
  await page.locator('#request-qr[src^="data:image/png"]').waitFor();
  await statusBecomes(page, '#request-status', 'pending');
  const scanned = await readQrFromPage(page, '#request-qr');
  expect(scanned).toBe(await page.textContent('#request-link'));
  expect(scanned).toMatch(/^openid4vp:\/\/\?/);
  const title = await page.title();

  // The wallet holds a credential of that type whose employeeId is an HTML payload.
  const subject = { name: 'Alice', email: 'alice@example.com', age: 30, birthDate: '1990-05-17', employeeId: XSS };
  const now = Math.floor(Date.now() / 1000);
  const compact = await issueSdJwtVc({ signer: issuerSigner, iss: ISS, vct, claims: subject, holderJwk: holder.publicKey.export({ format: 'jwk' }), iat: now - 60 });
  const out = await runWallet({ authorizationRequest: scanned, credentials: { credential: { compact } }, holderPrivateJwk: holder.privateKey.export({ format: 'jwk' }), walletAnchorsPem: [rootPem] });
  expect(out.error).toBeUndefined();
  expect(out.submissions?.map((s) => s.status)).toEqual([200]);

  await statusBecomes(page, '#request-status', 'verified');
  const result = page.locator('#request-result');
  await result.locator('.claims').waitFor();
  await screenshot(page, 'wallet-console-verified');
  const rows = await result.locator('.claims tr').evaluateAll((trs) => trs.map((tr) => [...(tr as any).children].map((td: any) => td.textContent as string)));
  // The claims as the verifier reports them: the disclosed ones and the credential's own (iss, vct, cnf…).
  expect(Object.fromEntries(rows)).toMatchObject({ name: 'Alice', email: 'alice@example.com', age: '30', birthDate: '1990-05-17', employeeId: XSS, iss: ISS, vct });
  expect(await result.locator('.checks li.failed').count()).toBe(0);
  expect(await result.locator('.checks li.passed').count()).toBeGreaterThan(0);
  expect(await result.textContent()).toMatch(/^Verified/);
  // The payload was shown, not parsed: no element came from it and its handler never ran.
  expect(await result.locator('img').count()).toBe(0);
  expect(await page.title()).toBe(title);
  expect(foreignRequests).toEqual([]);
  expect(errors).toEqual([]);
});

test('without a key the page asks for one; a wrong key is refused on the page and nothing is created', async () => {
  const { page, errors } = await browser.openPage({ baseUrl: svc.url }, '/wallets');
  await expect(page.locator('#credgate-key-status').textContent()).resolves.toMatch(/Enter a key/);
  await page.fill('#credgate-api-key', 'cg_wrong-key');
  await page.click('#credgate-key-form button[type=submit]');
  await page.click('#load-configurations');
  await page.locator('#configurations-status', { hasText: '401' }).waitFor();
  await page.fill('#dcql-query', JSON.stringify({ credentials: [{ id: 'x', format: 'dc+sd-jwt', meta: { vct_values: ['urn:x'] } }] }));
  await page.click('#create-request');
  await page.locator('#request-error', { hasText: '401' }).waitFor();
  expect(await page.locator('#request').isHidden()).toBe(true);
  // The browser logs the refused fetches as console errors; nothing else went wrong.
  expect(errors.filter((e) => !/401/.test(e))).toEqual([]);
});
