import type { Locator, Page } from 'playwright-core';
import { useTestServer } from '../../support/harness';
import { request } from '../../support/http';
import { screenshot, withBrowser } from './browser';

/*
 * The Swagger UI test, run in shards (swagger-execute-*.browser.test.ts): each shard takes about
 * half of the document's tags, in its own server and browser, so two shards use both cores (one
 * operation costs about 3 s of Swagger UI rendering, and there are 120). A tag's operations stay
 * together and in the document's order.
 *
 * Issue 20, item 4: Swagger UI's "Try it out" works with the document's own examples. In one page per
 * shard, after "Authorize" with an API key of tenant `acme` (the tenant the examples name), every
 * operation is opened, "Try it out" pressed and "Execute" pressed with the example values as they
 * are, in the document's order; then every operation that writes is executed a second time (an
 * example must work repeatedly: a fixed credential id issued twice was a 409 the second time).
 * Each answer must be a success, unless the operation's `x-example-expects`
 * (src/rest/openapi/example-expects.ts) names the error its example shows; a stale mark (the
 * example now succeeds, or fails otherwise) fails too.
 */


type Json = Record<string, any>;
interface Documented {
  readonly operationId: string;
  /** The operation's first tag: shards split the document by tag. */
  readonly tag: string;
  readonly writes: boolean;
  readonly label: string;
  /** The error status the example demonstrates, or undefined: the example must succeed. */
  readonly expects: number | undefined;
  /** The example cannot be sent from the page as it is (a file to choose): Swagger UI refuses to send it. */
  readonly notSent: boolean;
}

function documentedOperations(doc: Json): Documented[] {
  const out: Documented[] = [];
  for (const [p, item] of Object.entries(doc['paths'] as Json)) {
    for (const [method, op] of Object.entries(item as Json)) {
      const mark = (op as Json)['x-example-expects'] as { status?: number; notSent?: boolean } | undefined;
      out.push({ operationId: (op as Json)['operationId'], tag: ((op as Json)['tags'] as string[] | undefined)?.[0] ?? '', writes: method !== 'get' && method !== 'head', label: `${method.toUpperCase()} ${p}`, expects: mark?.status, notSent: mark?.notSent === true });
    }
  }
  return out;
}

async function authorize(page: Page, key: string): Promise<void> {
  await page.locator('button.authorize').first().click();
  const apiKey = page.locator('.modal-ux .auth-container', { hasText: 'X-API-Key' });
  await apiKey.locator('input').first().fill(key);
  await apiKey.locator('button.authorize').click();
  await page.locator('.modal-ux button.btn-done').first().click();
}

/** How long an answer may take to show (the first face or zero-knowledge call starts its workers). */
const ANSWER_TIMEOUT_MS = 60_000;
/** How long a form that needs a file is watched for a request it must not send. */
const NOT_SENT_GRACE_MS = 3_000;

/** Opens the operation, presses Try it out and Execute; the answer's status, or 'not sent'. */
async function execute(page: Page, operationId: string, notSent: boolean): Promise<number | 'not sent' | 'no answer'> {
  // Swagger UI's id of an operation's block: operations-<tag>-<operationId>.
  const op: Locator = page.locator(`.opblock[id$="-${operationId}"]`);
  await setOpen(op, true);
  const tryOut = op.locator('button.try-out__btn').first();
  if ((await tryOut.textContent())?.trim() === 'Try it out') await tryOut.click();
  const shown = op.locator('.live-responses-table .response .response-col_status').first();
  await op.locator('button.execute').click();
  // Swagger UI validates required fields first and sends nothing when one is empty.
  // (A form waiting for a file shows no message: it just sends nothing, so give it time to answer.)
  const refused = op.locator('.validation-errors, .invalid').first();
  const answered = await Promise.race([
    shown.waitFor({ timeout: notSent ? NOT_SENT_GRACE_MS : ANSWER_TIMEOUT_MS }).then(() => 'answered' as const),
    refused.waitFor({ timeout: notSent ? NOT_SENT_GRACE_MS : ANSWER_TIMEOUT_MS }).then(() => 'refused' as const),
  ]).catch(() => (notSent ? ('refused' as const) : ('no answer' as const)));
  const result = answered === 'answered' ? Number((await shown.textContent())?.trim().slice(0, 3)) : answered === 'refused' ? 'not sent' : 'no answer';
  // "Clear" removes the answer, so the next round waits for its own.
  if (answered === 'answered') await op.locator('button.btn-clear').click();
  await setOpen(op, false);
  return result;
}

/** Opens or closes an operation by its expand control (a click elsewhere on the summary may hit a link or the lock). */
async function setOpen(op: Locator, open: boolean): Promise<void> {
  if ((await op.evaluate((e) => (e as { classList: { contains(c: string): boolean } }).classList.contains('is-open'))) === open) return;
  await op.locator('.opblock-summary-control').first().click();
  if (open) await op.locator('.opblock-body').first().waitFor();
}

/**
 * The tags of shard `shard`: tags by their number of executions (writes run twice), heaviest first,
 * each to the shard with the fewest so far, so the shards take about the same time.
 */
function tagsOfShard(all: readonly Documented[], shard: number, shards: number): Set<string> {
  const weight = new Map<string, number>();
  for (const o of all) weight.set(o.tag, (weight.get(o.tag) ?? 0) + (o.writes ? 2 : 1));
  const load = new Array<number>(shards).fill(0);
  const mine = new Set<string>();
  for (const [tag, w] of [...weight].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))) {
    const lightest = load.indexOf(Math.min(...load));
    load[lightest]! += w;
    if (lightest === shard) mine.add(tag);
  }
  return mine;
}

/** Registers the test of shard `shard` (0-based) of `shards`. */
export function swaggerExecuteShard(shard: number, shards: number): void {
  const server = useTestServer();
  const browser = withBrowser();
  test(`every operation in /docs executes with its example after Authorize, twice, as its document says (shard ${shard + 1} of ${shards})`, async () => {
    const doc = (await request(server.baseUrl, 'GET', '/openapi.json')).json as Json;
    // SWAGGER_ONLY=id,id… narrows a run to those operations while working on them.
    const only = process.env['SWAGGER_ONLY']?.split(',');
    const all = documentedOperations(doc);
    const mine = tagsOfShard(all, shard, shards);
    const operations = all.filter((o) => mine.has(o.tag) && (!only || only.includes(o.operationId)));
    // Every shard has work, and together they cover the whole document (over 100 operations).
    if (!only) expect(all.length).toBeGreaterThan(100);
    if (!only) expect(operations.length).toBeGreaterThan(20);
    const key = await server.apiKey('acme', ['admin']);

    const { page, foreignRequests, errors } = await browser.openPage(server, '/docs');
    await page.locator('.opblock').first().waitFor();
    await authorize(page, key);
    // The token endpoint answers a failed client authentication 401 with `WWW-Authenticate: Basic`
    // (RFC 6749 §5.2), on which a browser opens its own login dialog and holds the request (headless:
    // for ever). The page gets the answer without that header; the status is the server's.
    await page.route('**/oauth/token', async (route) => {
      const response = await route.fetch();
      const { 'www-authenticate': _challenge, ...headers } = response.headers();
      await route.fulfill({ response, headers });
    });

    const problems: string[] = [];
    for (const round of [1, 2]) {
      for (const o of round === 1 ? operations : operations.filter((w) => w.writes)) {
        const got = await execute(page, o.operationId, o.notSent).catch((e: Error) => `error: ${e.message.split('\n')[0]}`);
        const want = o.notSent ? 'not sent' : (o.expects ?? 'success');
        const ok = typeof got !== 'number' ? got === want : got < 400 ? want === 'success' : got === want;
        if (got === 'no answer' || (typeof got === 'string' && got.startsWith('error:'))) await screenshot(page, `swagger-${o.operationId}`).catch(() => undefined);
        if (only) console.log(round, o.operationId, got);
        if (!ok) problems.push(`round ${round}: ${o.label} (${o.operationId}) answered ${got}, the document expects ${want}`);
      }
    }
    expect(problems).toEqual([]);
    expect(foreignRequests).toEqual([]);
    // The browser reports each 4xx the page received as a console error; the marks cover those.
    expect(errors.filter((e) => !/the server responded with a status of 4\d\d/.test(e))).toEqual([]);
  }, 1_500_000);
}
