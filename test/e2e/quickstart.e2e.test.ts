/**
 * docs/QUICKSTART.md, run as written: every ```sh block after the install step, in order, in one
 * bash session from the repository root, on the embedded database as a new user has it. Only the
 * environment differs from a user's terminal: a free PORT and a scratch CREDGATE_DATA_DIR, so the
 * run neither collides with another server nor touches ./.credgate.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');
const quickstart = readFileSync(path.join(root, 'docs/QUICKSTART.md'), 'utf8');
const blocks = [...quickstart.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
// Files the quickstart writes into the working directory.
const written = ['credential.json', 'tampered.json', 'credgate.log'];
let dataDir: string;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

function runBash(script: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-e', '-o', 'pipefail', '-c', script], { cwd: root, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

beforeAll(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'credgate-quickstart-'));
});

afterAll(() => {
  // Should the run have failed before its last step, stop the server it started.
  const lock = path.join(dataDir, 'pgdata.lock');
  if (existsSync(lock)) {
    const { pid } = JSON.parse(readFileSync(lock, 'utf8')) as { pid?: number };
    if (typeof pid === 'number' && pid > 0) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
  for (const f of written) rmSync(path.join(root, f), { force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

test('the install step is the clone and `npm install`, which this checkout has already done', () => {
  expect(blocks[0]).toMatch(/^git clone \S+ && cd credgate\nnpm install\b/);
});

test('docs/QUICKSTART.md issues and verifies a credential with curl and with the SDK, as written', async () => {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(await freePort()), CREDGATE_DATA_DIR: dataDir };
  // A new user has neither: the quickstart is about the embedded database.
  delete env.DATABASE_URL;
  delete env.CREDGATE_MASTER_KEY;
  delete env.CREDGATE_URL;
  delete env.CREDGATE_API_KEY;
  const run = await runBash(blocks.slice(1).join('\n'), env);
  if (run.code !== 0) throw new Error(`quickstart failed (exit ${run.code}):\n${run.stdout}\n${run.stderr}`);

  expect(run.stdout).toMatch(/^issuer: did:credgate:/m);
  const verified = /"verified": (true|false),\s*"checks": \[([^\]]*)\]/.exec(run.stdout);
  expect(verified?.[1]).toBe('true');
  for (const check of ['signature', 'ledger', 'status', 'expiry']) expect(verified?.[2]).toContain(`"${check}: true"`);
  expect(run.stdout).toMatch(/"error": "Verification failed: [^"]*disclosures[^"]*",\s*"code": "VERIFICATION_FAILED"/);
  expect(run.stdout).toMatch(/^verified: true$/m);
  // `kill %1 && wait` stopped the server: the data folder is unlocked.
  expect(existsSync(path.join(dataDir, 'pgdata.lock'))).toBe(false);
}, 300_000);
