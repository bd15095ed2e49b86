/**
 * The CLI as a newcomer meets it: help on every command, one-line errors with usage for mistakes
 * (exit 2), no tenant created by a typo, and a clear line where a list is empty.
 */
import { COMMANDS } from '../../src/cli/spec';
import { request } from '../support/http';
import { runCli } from '../support/process';
import { cliDatabase } from '../support/cli-database';

const cli = cliDatabase();

/** A mistake: exactly one `credgate: …` line, then the usage; nothing on stdout; exit 2. */
function expectUsageError(r: ReturnType<typeof runCli>, message: RegExp, usage: RegExp): void {
  expect({ status: r.status, stdout: r.stdout }).toEqual({ status: 2, stdout: '' });
  const [first, ...rest] = r.stderr.split('\n');
  expect(first).toMatch(message);
  expect(rest.filter((l) => l.startsWith('credgate:'))).toEqual([]);
  expect(rest.join('\n')).toMatch(usage);
  expect(r.stderr).not.toMatch(/\bat .+:\d+|Error:/);
}

describe('help', () => {
  // No configuration at all: help must not need the database (or a master key) to answer.
  const noConfig = { CREDGATE_MASTER_KEY: 'not a key', DATABASE_URL: 'postgres://127.0.0.1:1/none' };

  test('credgate --help, -h and help list every command and exit 0', () => {
    for (const args of [['--help'], ['-h'], ['help']]) {
      const r = runCli(args, noConfig);
      expect({ args, status: r.status, stderr: r.stderr }).toEqual({ args, status: 0, stderr: '' });
      expect(r.stdout).toMatch(/^usage: credgate <command>/);
      for (const c of COMMANDS) expect(r.stdout).toContain(c.name);
      expect(r.stdout).toContain('--holder-did DID');
    }
  });

  test('--help on every command and group prints its usage and exits 0', () => {
    for (const c of COMMANDS) {
      for (const flag of ['--help', '-h']) {
        const r = runCli([...c.name.split(' '), flag], noConfig);
        expect({ command: c.name, status: r.status, stderr: r.stderr }).toEqual({ command: c.name, status: 0, stderr: '' });
        expect(r.stdout).toMatch(new RegExp(`^usage: credgate ${c.name}`));
        for (const flagName of Object.keys(c.options)) expect(r.stdout).toContain(`--${flagName}`);
      }
    }
    for (const group of ['db', 'tenant', 'api-key']) {
      const r = runCli([group, '--help'], noConfig);
      expect({ group, status: r.status }).toEqual({ group, status: 0 });
      expect(r.stdout).toMatch(new RegExp(`^usage: credgate ${group} <`));
    }
  });

  test('--help after other arguments still answers help', () => {
    const r = runCli(['api-key', 'create', '--tenant', 'acme', '--help'], noConfig);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^usage: credgate api-key create/);
  });
});

describe('mistakes: one line, usage, exit 2', () => {
  test('unknown command, unknown action, no command', () => {
    expectUsageError(runCli(['frobnicate'], cli.env), /^credgate: unknown command "frobnicate"$/, /usage: credgate <command>/);
    expectUsageError(runCli(['tenant', 'delete', 'x'], cli.env), /^credgate: unknown command "tenant delete"$/, /usage: credgate tenant </);
    expectUsageError(runCli([], cli.env), /^credgate: missing command$/, /usage: credgate <command>/);
    expectUsageError(runCli(['--verbose'], cli.env), /^credgate: unknown option --verbose$/, /usage: credgate <command>/);
  });

  test('unknown option, missing value, missing or extra argument', () => {
    expectUsageError(
      runCli(['api-key', 'create', '--tenat', 'acme', '--scopes', 'issuer'], cli.env),
      /^credgate: unknown option --tenat for api-key create$/,
      /usage: credgate api-key create --tenant SLUG/,
    );
    expectUsageError(runCli(['api-key', 'list', '--tenant'], cli.env), /^credgate: option --tenant needs a value$/, /usage: credgate api-key list/);
    expectUsageError(runCli(['api-key', 'create', '--tenant', 'acme'], cli.env), /^credgate: --scopes is required$/, /usage: credgate api-key create/);
    expectUsageError(runCli(['tenant', 'create'], cli.env), /^credgate: missing <slug>$/, /usage: credgate tenant create <slug>/);
    expectUsageError(runCli(['tenant', 'list', 'extra'], cli.env), /^credgate: unexpected argument "extra"$/, /usage: credgate tenant list/);
    expectUsageError(runCli(['tenant', 'list', '--name', 'x'], cli.env), /^credgate: unknown option --name for tenant list$/, /usage: credgate tenant list/);
  });
});

describe('tenants are created only by tenant create', () => {
  test('tenant list on an empty database says so', () => {
    const r = runCli(['tenant', 'list'], cli.env);
    expect({ status: r.status, stdout: r.stdout }).toEqual({ status: 0, stdout: '' });
    expect(r.stderr).toBe('no tenants yet; create one with: credgate tenant create <slug>\n');
  });

  test('api-key create with a mistyped --tenant names it, suggests tenant create, and creates nothing', () => {
    expect(runCli(['tenant', 'create', 'acme'], cli.env).status).toBe(0);
    const r = runCli(['api-key', 'create', '--tenant', 'acmee', '--scopes', 'issuer'], cli.env);
    expect({ status: r.status, stdout: r.stdout }).toEqual({ status: 2, stdout: '' });
    expect(r.stderr).toBe('credgate: tenant acmee does not exist; create it first with: credgate tenant create acmee\n');
    const tenants = runCli(['tenant', 'list'], cli.env).stdout.trim().split('\n').map((l) => (JSON.parse(l) as { slug: string }).slug);
    expect(tenants).toEqual(['acme']);
    // The other api-key commands say the same for an unknown tenant.
    for (const args of [['api-key', 'list', '--tenant', 'acmee'], ['api-key', 'revoke', '--tenant', 'acmee', '--id', '00000000-0000-0000-0000-000000000000']]) {
      const other = runCli(args, cli.env);
      expect({ status: other.status, stderr: other.stderr }).toEqual({ status: 2, stderr: expect.stringMatching(/^credgate: tenant acmee does not exist; create it first with: credgate tenant create acmee\n$/) });
    }
  });

  test('in an existing tenant the key is created, works over REST and GraphQL, and an empty list says so', async () => {
    expect(runCli(['tenant', 'create', 'globex', '--name', 'Globex'], cli.env).status).toBe(0);
    const empty = runCli(['api-key', 'list', '--tenant', 'globex'], cli.env);
    expect({ status: empty.status, stdout: empty.stdout }).toEqual({ status: 0, stdout: '' });
    expect(empty.stderr).toMatch(/^no API keys in tenant globex; create one with: credgate api-key create --tenant globex/);

    const created = runCli(['api-key', 'create', '--tenant', 'globex', '--scopes', 'issuer'], cli.env);
    expect(created.status).toBe(0);
    const { key } = JSON.parse(created.stdout) as { key: string };
    const server = await cli.startServer();
    try {
      expect((await request(server.baseUrl, 'GET', '/generate-keypair', { headers: { 'x-api-key': key } })).status).toBe(200);
      expect((await server.sdk(key).generateKeypair()).generateKeypair.publicKey).toEqual(expect.any(String));
    } finally {
      await server.close();
    }
  });
});
