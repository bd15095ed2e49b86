/**
 * Docs that run (issue 20, item 3): every curl and SDK example of README.md and docs/**.md is run
 * as written, against a started service, and what it prints is checked against the output the
 * document shows (doc-blocks.ts states the convention; doc-shape.ts how shapes compare). A document
 * that drifts from the service fails here, naming its file and line.
 *
 * Two kinds of documents:
 *   - one that starts the service itself (a block runs `node dist/main.js`: docs/QUICKSTART.md,
 *     docs/WALLETS.md) runs exactly as a new user runs it, from the repository root, on the embedded
 *     database: only a free PORT and a scratch CREDGATE_DATA_DIR differ from a user's terminal;
 *   - any other runs against a test server (useTestServer, real PostgreSQL) whose URL and API keys
 *     stand in for what the document assigns to BASE, URL, CREDGATE_URL, KEY, KEY_ID,
 *     CREDGATE_API_KEY, ISSUER and VERIFIER (keys of tenant `acme`).
 */
import { readFileSync, readdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { useTestServer } from '../support/harness';
import { type ParsedDoc, parseDoc } from './doc-blocks';
import { runDocExamples } from './doc-session';

const root = path.resolve(__dirname, '../..');
const server = useTestServer();

function markdownFiles(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(`${dir}/${e.name}`) : e.name.endsWith('.md') ? [`${dir}/${e.name}`] : []));
  return ['README.md', ...walk('docs')];
}

const docs = markdownFiles().map((name) => ({ name, parsed: parseDoc(readFileSync(path.join(root, name), 'utf8'), name) }));
const startsItsOwnService = (d: ParsedDoc): boolean => d.runnable.some((b) => b.lang === 'sh' && /\bnode dist\/main\.js\b/.test(b.code));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/** A new user's environment: no database, master key, URL or key of the test run's own. */
function newUserEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  for (const k of Object.keys(env)) if (k === 'DATABASE_URL' || (k.startsWith('CREDGATE_') && !(k in extra))) delete env[k];
  return env;
}

let provided: Record<string, string>;

beforeAll(async () => {
  const acme = async (scopes: string[]) => server.app.services.auth.createApiKey({ tenant: 'acme', scopes, createTenant: true });
  const all = await acme(['issuer', 'holder', 'verifier']);
  provided = {
    BASE: server.baseUrl,
    URL: server.baseUrl,
    CREDGATE_URL: server.baseUrl,
    KEY: all.key,
    CREDGATE_API_KEY: all.key,
    KEY_ID: all.apiKey.id,
    ISSUER: (await acme(['issuer'])).key,
    VERIFIER: (await acme(['verifier'])).key,
  };
});

test('every example in the docs is runnable or marked <!-- not-run: reason -->, and every shown output is JSON', () => {
  expect(docs.flatMap((d) => d.parsed.problems)).toEqual([]);
  // The convention is in use: the documents have examples that run and examples marked not to.
  expect(docs.reduce((n, d) => n + d.parsed.runnable.length, 0)).toBeGreaterThan(20);
});

const runnable = docs.filter((d) => d.parsed.runnable.length > 0);

test.each(runnable.map((d) => [d.name, d] as const))('%s runs as written', async (_name, doc) => {
  let failures: string[];
  if (startsItsOwnService(doc.parsed)) {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'credgate-doc-data-'));
    try {
      const env = newUserEnv({ PORT: String(await freePort()), CREDGATE_DATA_DIR: dataDir });
      failures = await runDocExamples(doc.name, doc.parsed, { root, env, timeoutMs: 420_000 });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  } else {
    failures = await runDocExamples(doc.name, doc.parsed, { root, env: { ...process.env, ...provided }, provided, timeoutMs: 300_000 });
  }
  expect(failures).toEqual([]);
}, 480_000);

describe('the runner catches drift', () => {
  const run = (markdown: string) => runDocExamples('drift.md', parseDoc(markdown, 'drift.md'), { root, env: { ...process.env, ...provided }, provided, timeoutMs: 60_000 });
  const fence = (lang: string, body: string) => `\`\`\`${lang}\n${body}\n\`\`\``;

  test('a route that does not exist (404) fails its block', async () => {
    const failures = await run(fence('sh', 'curl -s "$BASE/no-such-route" -H "X-API-Key: $KEY"'));
    expect(failures).toEqual([expect.stringMatching(/^drift\.md:1: curl answered 404/)]);
  });

  test('an answer of another shape than shown fails, with the member named', async () => {
    const failures = await run(`${fence('sh', 'curl -s "$BASE/healthz"')}\n\n${fence('json', '{"status": "ok", "uptimeSeconds": 1}')}`);
    expect(failures.join('\n')).toMatch(/drift\.md:5: .*"uptimeSeconds"/);
  });

  test('a `# ->` shape inside a block is checked against the lines above it', async () => {
    const failures = await run(fence('sh', 'curl -s "$BASE/healthz"\n# -> {"status": 1}'));
    expect(failures.join('\n')).toMatch(/drift\.md:3: \$\.status: the document shows a number/);
  });

  test('an error status the block does not announce fails; an announced one that does not occur fails too', async () => {
    const failures = await run(`<!-- expect-status: 400 -->\n${fence('sh', 'curl -s "$BASE/healthz"')}`);
    expect(failures).toEqual([expect.stringMatching(/expect-status 400, no call answered it/)]);
  });

  test('a failing SDK example fails', async () => {
    const failures = await run(fence('ts', "import { createCredgateClient } from '@credgate/sdk';\nconst sdk = createCredgateClient({ url: `${process.env.BASE}/graphql`, apiKey: 'not-a-key' });\nawait sdk.vcTemplates({});"));
    expect(failures.join('\n')).toMatch(/drift\.md:1: the example failed/);
  });

  test('an unlabelled block with a curl call, and a not-run mark without a reason, are problems', () => {
    const parsed = parseDoc(`${fence('', 'curl -s http://localhost:4000/')}\n\n<!-- not-run: -->\n${fence('sh', 'docker compose up')}`, 'drift.md');
    expect(parsed.problems).toEqual([expect.stringMatching(/^drift\.md:1: .*cannot run/), expect.stringMatching(/^drift\.md:6: .*needs a reason/)]);
  });
});
