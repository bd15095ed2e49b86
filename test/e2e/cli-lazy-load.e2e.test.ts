/**
 * Issue 20 item 2: `credgate --help` and simple database commands such as `api-key list` must not
 * load the whole service (GraphQL, every service, the HTTP stack), which made each CLI call take
 * seconds. Asserted on what the child process loaded, never on how long it took.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cliDatabase } from '../support/cli-database';
import { DIST, ROOT, cleanEnv, requireBuild, runCli } from '../support/process';

const cli = cliDatabase();
let traceDir: string;

beforeAll(() => {
  traceDir = mkdtempSync(path.join(tmpdir(), 'credgate-cli-trace-'));
});

afterAll(() => {
  rmSync(traceDir, { recursive: true, force: true });
});

interface Traced {
  readonly status: number | null;
  readonly stdout: string;
  /** Loaded modules, relative to the repository root (`dist/…`, `node_modules/…`). */
  readonly modules: readonly string[];
}

let runs = 0;
/** Runs `node dist/cli.js <args>` with the module-trace preload and returns what it loaded. */
function traced(args: string[], env: Record<string, string>): Traced {
  requireBuild();
  const trace = path.join(traceDir, `run-${++runs}.json`);
  const r = spawnSync(process.execPath, ['-r', path.join(ROOT, 'test/support/module-trace.cjs'), path.join(DIST, 'cli.js'), ...args], {
    cwd: ROOT,
    env: cleanEnv({ ...env, CREDGATE_MODULE_TRACE: trace }),
    encoding: 'utf8',
    timeout: 60_000,
  });
  const modules = (JSON.parse(readFileSync(trace, 'utf8')) as string[]).map((m) => path.relative(ROOT, m).split(path.sep).join('/'));
  return { status: r.status, stdout: r.stdout, modules };
}

const packagesOf = (modules: readonly string[]): Set<string> =>
  new Set(
    modules
      .filter((m) => m.includes('node_modules/'))
      .map((m) => {
        const parts = m.slice(m.lastIndexOf('node_modules/') + 'node_modules/'.length).split('/');
        return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
      }),
  );

/** What only the running service needs: none of it belongs in help or a two-table command. */
const SERVICE_ONLY_PACKAGES = ['graphql', 'type-graphql', '@apollo/server', 'express', 'jsonld', 'sharp', 'ajv', '@sinclair/typebox', 'zod', 'undici'];
const SERVICE_ONLY_FILES = ['dist/app.js', 'dist/main.js', 'dist/services/index.js', 'dist/graphql/build-schema.js', 'dist/rest/', 'dist/oid4vc/', 'dist/zk/', 'dist/biometrics/'];

const serviceModulesIn = (modules: readonly string[]): string[] => [
  ...[...packagesOf(modules)].filter((p) => SERVICE_ONLY_PACKAGES.includes(p)),
  ...modules.filter((m) => SERVICE_ONLY_FILES.some((f) => m.startsWith(f))),
];

test('`credgate --help`, a group help and a usage error load the command-line parser and no package at all', () => {
  for (const args of [['--help'], ['api-key', '--help'], ['api-key', 'bogus']]) {
    const run = traced(args, {});
    expect(run.status).toBe(args[1] === 'bogus' ? 2 : 0);
    expect(packagesOf(run.modules)).toEqual(new Set());
    expect(serviceModulesIn(run.modules)).toEqual([]);
    // The parser, the command table and the error classes the exit codes depend on.
    expect(run.modules.filter((m) => m.startsWith('dist/')).length).toBeLessThan(15);
  }
});

test('`credgate api-key list` answers from the database without loading the service', () => {
  expect(runCli(['tenant', 'create', 'lazy'], cli.env).status).toBe(0);
  const created = runCli(['api-key', 'create', '--tenant', 'lazy', '--scopes', 'issuer'], cli.env);
  expect(created.status).toBe(0);
  const key = JSON.parse(created.stdout) as { id: string };

  const list = traced(['api-key', 'list', '--tenant', 'lazy'], cli.env);
  expect(list.status).toBe(0);
  expect(list.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { id: string }).id)).toEqual([key.id]);
  expect(serviceModulesIn(list.modules)).toEqual([]);
  // It does open the database: the check above would pass vacuously if the command never ran.
  expect(list.modules).toContain('dist/db/database.js');
});
