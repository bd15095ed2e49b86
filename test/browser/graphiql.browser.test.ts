import path from 'node:path';
import type { Page } from 'playwright-core';
import { unwrap } from '../support/family-a-fixtures';
import { FB_VALUES, type FbParty, fbParty } from '../support/family-b-fixtures';
import { useTestServer } from '../support/harness';
import { type OpenedPage, screenshot, withBrowser } from './support/browser';

/*
 * Issue 12 acceptance: GraphiQL in headless Chromium. A key entered once in the page's bar, a
 * Family B credential issued from the example tab (operation picker), the result read from the
 * result pane and checked against the service, the docs explorer, autocomplete, and a document
 * with two operations. Everything the page loads comes from this server (foreign requests are
 * blocked and recorded by openPage).
 */

const server = useTestServer();
const browser = withBrowser();
let party: FbParty;

beforeAll(async () => {
  // The DID and the template through the API; the issuance itself through the UI.
  party = await fbParty(server, 'GraphQL');
});

const QUERY_EDITOR = '.graphiql-query-editor .CodeMirror';
const VARIABLES_EDITOR = '.graphiql-editor-tool .graphiql-editor:not(.hidden) .CodeMirror';
const RESULT = '.graphiql-response .CodeMirror';

// Functions passed to page.evaluate run in the page: they reach its DOM through globalThis
// (the tests are type-checked without the DOM library).

/** CodeMirror 5 keeps its instance on its element: set a GraphiQL editor's whole text. */
async function setEditor(page: Page, selector: string, text: string): Promise<void> {
  await page.locator(selector).waitFor();
  await page.evaluate(([sel, value]) => ((globalThis as any).document.querySelector(sel!) as any).CodeMirror.setValue(value), [selector, text] as const);
}

/**
 * Waits until GraphiQL parsed the query editor's document (it does so 100 ms after a change):
 * before that the ▶ button still acts on the previous document's operations.
 */
async function operationsParsed(page: Page, names: readonly string[]): Promise<void> {
  const expected = JSON.stringify(names.length > 0 ? names : [null]);
  await page.waitForFunction(
    ([sel, want]) => JSON.stringify((((globalThis as any).document.querySelector(sel!) as any)?.CodeMirror?.operations ?? []).map((o: any) => o.name?.value ?? null)) === want,
    [QUERY_EDITOR, expected] as const,
  );
}

/** Sets the query editor's document and waits until GraphiQL parsed its operations. */
async function setQuery(page: Page, text: string): Promise<void> {
  await setEditor(page, QUERY_EDITOR, text);
  await operationsParsed(page, [...text.matchAll(/^(?:query|mutation|subscription)\s+(\w+)/gm)].map((m) => m[1]!));
}

async function editorText(page: Page, selector: string): Promise<string> {
  return page.evaluate((sel) => ((globalThis as any).document.querySelector(sel) as any)?.CodeMirror?.getValue() ?? '', selector);
}

/** Runs the document (picking `operation` from the ▶ menu when given) and parses the result pane. */
async function run(page: Page, operation?: string): Promise<any> {
  await page.evaluate((sel) => ((globalThis as any).document.querySelector(sel) as any).CodeMirror.setValue(''), RESULT);
  await page.click('.graphiql-execute-button');
  if (operation) await page.getByRole('menuitem', { name: operation, exact: true }).click();
  await page.waitForFunction((sel) => (((globalThis as any).document.querySelector(sel) as any)?.CodeMirror?.getValue() ?? '').trim() !== '', RESULT);
  return JSON.parse(await editorText(page, RESULT));
}

/** Opens GraphiQL and enters the key in the bar, as a user would, then waits for the schema. */
async function openWithKey(key: string): Promise<OpenedPage> {
  const opened = await browser.openPage(server, '/graphql');
  const { page } = opened;
  await page.locator('.graphiql-container').waitFor();
  await page.fill('#credgate-api-key', key);
  await page.click('#credgate-key-form button[type=submit]');
  await expect(page.locator('#credgate-key-status').textContent()).resolves.toMatch(/saved/);
  await schemaLoaded(page);
  return opened;
}

/** The docs explorer shows the root types once the introspection (which needs the key) answered. */
async function schemaLoaded(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Show Documentation Explorer' }).click();
  await page.locator('.graphiql-doc-explorer').getByText('mutation:', { exact: false }).first().waitFor();
  await page.getByRole('button', { name: 'Hide Documentation Explorer' }).click();
}

test('a key entered once issues a Family B credential from the example tab; the result pane shows it; the key survives a reload', async () => {
  const { page, foreignRequests, errors } = await openWithKey(party.keys.issuer);
  await page.locator('.graphiql-tab', { hasText: 'CreateVcTemplate' }).click();
  await operationsParsed(page, ['CreateVcTemplate', 'IssueTemplateCredential', 'TemplateCredential']);
  const issue = { templateId: party.template['templateId'], credentialSubject: FB_VALUES, holder: party.holder.did };
  await setEditor(page, VARIABLES_EDITOR, JSON.stringify({ issue }, null, 2));

  const result = await run(page, 'IssueTemplateCredential');
  await screenshot(page, 'graphiql-issue-credential');
  expect(result.errors).toBeUndefined();
  const credential = result.data.issueTemplateCredential;
  expect(credential.id).toEqual(expect.any(String));
  expect(credential.issuer).toEqual(expect.stringContaining(party.issuer.did));
  expect(credential.credentialSubject).toEqual([{ id: party.holder.did, ...FB_VALUES }]);
  expect(credential.proof).toEqual(expect.objectContaining({ type: expect.any(String) }));
  // What the page showed is the credential the service issued and can verify.
  const verified = unwrap(await party.t.verify(party.keys.verifier, credential));
  expect({ verified: verified.verified, failed: verified.checks.filter((c) => !c.ok) }).toEqual({ verified: true, failed: [] });

  // Entered once: after a reload the key is still used, without typing it again.
  await page.reload({ waitUntil: 'load' });
  await expect(page.locator('#credgate-key-status').textContent()).resolves.toMatch(/saved/);
  await schemaLoaded(page);
  await setQuery(page, `query Template($name: String!) { vcTemplate(templateName: $name) { templateId } }`);
  await setEditor(page, VARIABLES_EDITOR, JSON.stringify({ name: party.template['name'] }));
  await expect(run(page)).resolves.toEqual({ data: { vcTemplate: { templateId: party.template['templateId'] } } });

  expect(foreignRequests).toEqual([]);
  expect(errors).toEqual([]);
});

test('without a key the page asks for one and makes no request; a wrong key is refused in the result pane', async () => {
  const { page, errors } = await browser.openPage(server, '/graphql');
  const posts: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST') posts.push(r.url());
  });
  await page.locator('.graphiql-container').waitFor();
  await expect(page.locator('#credgate-key-status').textContent()).resolves.toMatch(/Enter a key/);
  expect(posts).toEqual([]);
  await page.fill('#credgate-api-key', 'not-a-key');
  await page.click('#credgate-key-form button[type=submit]');
  await setQuery(page, '{ issuerDid }');
  const refused = await run(page);
  expect(refused.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  expect(refused.data ?? null).toBeNull();
  // Forget clears it from the browser.
  await page.click('#credgate-forget-key');
  await expect(page.evaluate(() => (globalThis as any).localStorage.getItem('credgate:apiKey'))).resolves.toBeNull();
  expect(errors.every((e) => /401/.test(e))).toBe(true);
});

test('the docs explorer finds a type and its fields; the editor autocompletes from the schema', async () => {
  const { page, foreignRequests } = await openWithKey(party.keys.issuer);
  await page.getByRole('button', { name: 'Show Documentation Explorer' }).click();
  const explorer = page.locator('.graphiql-doc-explorer');
  await explorer.locator('input').fill('VcTemplate');
  await page.getByRole('option', { name: 'VcTemplate', exact: true }).click();
  await expect(explorer.locator('.graphiql-doc-explorer-title').textContent()).resolves.toBe('VcTemplate');
  for (const field of ['templateId', 'issuer', 'credentialSubject', 'expirationDate']) {
    await explorer.getByText(field, { exact: true }).first().waitFor();
  }
  await screenshot(page, 'graphiql-docs-explorer');

  await setEditor(page, QUERY_EDITOR, '');
  await page.click(QUERY_EDITOR);
  await page.keyboard.type('{ vcTempl');
  const hints = page.locator('.CodeMirror-hints');
  await hints.waitFor();
  await expect(hints.textContent()).resolves.toMatch(/vcTemplates/);
  await screenshot(page, 'graphiql-autocomplete');
  expect(foreignRequests).toEqual([]);
});

test('a document with two operations runs the one picked from the menu', async () => {
  const { page } = await openWithKey(party.keys.issuer);
  await setQuery(
    page,
    `query TemplateByName($name: String!) { vcTemplate(templateName: $name) { templateId name } }

query TemplatePage { vcTemplates(first: 5) { totalCount edges { node { templateId } } } }
`,
  );
  await setEditor(page, VARIABLES_EDITOR, JSON.stringify({ name: party.template['name'] }));
  await page.click('.graphiql-execute-button');
  const menu = page.getByRole('menu');
  await expect(menu.getByRole('menuitem').allTextContents()).resolves.toEqual(['TemplateByName', 'TemplatePage']);
  await screenshot(page, 'graphiql-operation-picker');
  await page.keyboard.press('Escape');

  const second = await run(page, 'TemplatePage');
  expect(second.errors).toBeUndefined();
  expect(Object.keys(second.data)).toEqual(['vcTemplates']);
  expect(second.data.vcTemplates.edges.map((e: any) => e.node.templateId)).toContain(party.template['templateId']);
  const first = await run(page, 'TemplateByName');
  expect(first).toEqual({ data: { vcTemplate: { templateId: party.template['templateId'], name: party.template['name'] } } });

  // The history panel keeps the document (GraphiQL stores a document once, labelled with the
  // operation first run from it); choosing it brings the document back into the editor.
  await setQuery(page, '{ vcTemplates(first: 1) { totalCount } }');
  await page.getByRole('button', { name: 'Show History' }).click();
  const item = page.locator('.graphiql-history-item-label', { hasText: 'TemplatePage' });
  await item.click();
  await expect(editorText(page, QUERY_EDITOR)).resolves.toMatch(/query TemplateByName[\s\S]*query TemplatePage/);
  await screenshot(page, 'graphiql-history');
});

test('files attached in the bar are sent as a GraphQL multipart request: face templates from two photos', async () => {
  const { page, foreignRequests } = await openWithKey(party.keys.issuer);
  const faces = path.resolve(__dirname, '../fixtures/faces');
  for (const [variable, file] of [['originalPhoto', 'obama_1.jpg'], ['selfiePhoto', 'obama_2.jpg']] as const) {
    await page.fill('#credgate-upload-variable', variable);
    await page.setInputFiles('#credgate-upload-file', path.join(faces, file));
    await page.click('#credgate-upload-form button[type=submit]');
  }
  await expect(page.locator('#credgate-uploads').textContent()).resolves.toMatch(/\$originalPhoto = obama_1\.jpg.*\$selfiePhoto = obama_2\.jpg/);
  await page.locator('.graphiql-tab', { hasText: 'CreateFaceTemplates' }).click();
  await operationsParsed(page, ['CreateFaceTemplates']);
  const sent: (string | undefined)[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST') sent.push(r.headers()['content-type']);
  });
  const result = await run(page);
  await screenshot(page, 'graphiql-upload');
  expect(sent).toEqual([expect.stringMatching(/^multipart\/form-data; boundary=/)]);
  expect(result.errors).toBeUndefined();
  for (const face of [result.data.createFaceTemplates.galleryFace, result.data.createFaceTemplates.probeFace]) {
    expect(face).toEqual({ faceCount: 1, reason: null, template: expect.stringMatching(/^[A-Za-z0-9+/]{100,}={0,2}$/) });
  }
  expect(foreignRequests).toEqual([]);
});
