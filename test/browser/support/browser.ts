import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { type Browser, type Page, chromium } from 'playwright-core';

/**
 * Headless Chromium for the browser tests: Debian's `chromium` package driven by playwright-core
 * (no browser download). A missing Chromium is an error, never a skip: CI installs it first.
 */

/** Where screenshots go (git-ignored). */
export const ARTIFACTS_DIR = path.resolve(__dirname, '../../artifacts');

/** CHROMIUM_PATH, else the first of `chromium` / `chromium-browser` on PATH. */
export function chromiumPath(): string {
  const configured = process.env['CHROMIUM_PATH'];
  if (configured) {
    if (!fs.existsSync(configured)) throw new Error(`CHROMIUM_PATH=${configured} does not exist`);
    return configured;
  }
  for (const name of ['chromium', 'chromium-browser']) {
    try {
      const found = execFileSync('which', [name], { encoding: 'utf8' }).trim();
      if (found) return found;
    } catch {
      // not on PATH: try the next name
    }
  }
  throw new Error('Chromium not found: install Debian\'s package (apt-get install -y chromium) or set CHROMIUM_PATH');
}

export async function launchChromium(): Promise<Browser> {
  // Chromium refuses to start its sandbox as root (CI containers run as root).
  const args = process.getuid?.() === 0 ? ['--no-sandbox'] : [];
  return chromium.launch({ executablePath: chromiumPath(), headless: true, args });
}

/** A page plus what it did that a test may want to assert on. */
export interface OpenedPage {
  readonly page: Page;
  /** Requests the page tried to make to any host other than the server (blocked: the UI must work offline). */
  readonly foreignRequests: string[];
  /** Uncaught page errors and console errors. */
  readonly errors: string[];
}

export interface BrowserSession {
  /** Opens `path` on the server in a fresh browser context (own localStorage) and waits for the load. */
  openPage(server: { readonly baseUrl: string }, urlPath: string): Promise<OpenedPage>;
}

/**
 * One Chromium for the file's tests, launched in `beforeAll` and closed in `afterAll` (pages and
 * contexts opened through it close with it). Use next to `useTestServer()`.
 */
export function withBrowser(): BrowserSession {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return {
    async openPage(server, urlPath) {
      if (!browser) throw new Error('withBrowser: Chromium starts in beforeAll');
      const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
      const own = new URL(server.baseUrl).host;
      const foreignRequests: string[] = [];
      const errors: string[] = [];
      await context.route('**/*', async (route) => {
        const url = route.request().url();
        const { protocol, host } = new URL(url);
        if ((protocol === 'http:' || protocol === 'https:') && host !== own) {
          foreignRequests.push(url);
          await route.abort('blockedbyclient');
        } else {
          await route.continue();
        }
      });
      const page = await context.newPage();
      page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(`console: ${m.text()}`);
      });
      const response = await page.goto(server.baseUrl + urlPath, { waitUntil: 'load' });
      if (!response || !response.ok()) throw new Error(`GET ${urlPath}: HTTP ${response?.status() ?? 'no response'}`);
      return { page, foreignRequests, errors };
    },
  };
}

/** Saves a full-page PNG to test/artifacts/<name>.png and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const file = path.join(ARTIFACTS_DIR, `${name.replace(/[^A-Za-z0-9._-]+/g, '-')}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
