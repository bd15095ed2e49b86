import { useTestServer } from '../support/harness';
import { request } from '../support/http';
import { screenshot, withBrowser } from './support/browser';

/*
 * Issue 12 acceptance: the API reference at /docs in headless Chromium. Swagger UI, served from
 * this server only (foreign requests are blocked and recorded by openPage), renders every path of
 * /openapi.json; one operation opens and shows its schema; a screenshot goes to test/artifacts/.
 */

const server = useTestServer();
const browser = withBrowser();

// Functions passed to page.evaluate run in the page: they reach its DOM through globalThis
// (the tests are type-checked without the DOM library).

test('/docs shows every documented path, loading nothing from another host', async () => {
  const documented = Object.keys((await request(server.baseUrl, 'GET', '/openapi.json')).json.paths as Record<string, unknown>).sort();
  expect(documented.length).toBeGreaterThan(50);

  const { page, foreignRequests, errors } = await browser.openPage(server, '/docs');
  await page.locator('.opblock').first().waitFor();
  // Swagger UI puts each operation's path on its summary as data-path.
  const shown = await page.evaluate(() =>
    [...new Set([...(globalThis as any).document.querySelectorAll('.opblock-summary-path[data-path]')].map((e: any) => e.getAttribute('data-path') as string))].sort(),
  );
  expect(shown).toEqual(documented);
  await expect(page.locator('.info .title').first().textContent()).resolves.toContain('Credgate REST API');
  // No warning box (e.g. an unsupported jsonSchemaDialect) and no parser errors.
  expect(await page.locator('.errors-wrapper').count()).toBe(0);
  await screenshot(page, 'docs-index');

  // One operation, expanded: its request body schema and its error answers are there.
  const op = page.locator('.opblock-post', { has: page.locator('.opblock-summary-path[data-path="/vc-templates"]') });
  await op.locator('.opblock-summary').click();
  await op.locator('.opblock-body').waitFor();
  const text = (await op.textContent()) ?? '';
  for (const word of ['templateName', 'attributes', 'expiration', 'Idempotency-Key', '409', '415']) expect(text).toContain(word);
  await screenshot(page, 'docs-create-template');

  expect(foreignRequests).toEqual([]);
  expect(errors).toEqual([]);
});
