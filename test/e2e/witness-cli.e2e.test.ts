/**
 * `credgate witness` as an operator meets it: help without any configuration, one-line usage
 * errors (exit 2), a key file created once (0600) and reused, and the state folder kept across
 * restarts. The service side is in witness.e2e.test.ts.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { runCli } from '../support/process';
import { logVerifierKey, spawnWitness } from '../support/witness-process';

const LOG_KEY = logVerifierKey(randomBytes(32));
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'credgate-witness-cli-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('--help prints the usage with every option and exits 0, without configuration', () => {
  const r = runCli(['witness', '--help'], { CREDGATE_MASTER_KEY: 'not a key', DATABASE_URL: 'postgres://127.0.0.1:1/none' });
  expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: '' });
  expect(r.stdout).toMatch(/^usage: credgate witness --log-key VKEY --key-file FILE/);
  for (const flag of ['--log-key', '--key-file', '--name', '--port', '--host', '--state']) expect(r.stdout).toContain(flag);
});

test.each([
  ['a missing required option', ['--log-key', LOG_KEY, '--port', '0', '--state', 'x'], /^credgate: --key-file is required$/],
  ['a malformed log key', ['--log-key', 'nope', '--key-file', 'k', '--port', '0', '--state', 'x'], /^credgate: malformed note key$/],
  ['a bad port', ['--log-key', LOG_KEY, '--key-file', 'k', '--port', '70000', '--state', 'x'], /^credgate: --port must be an integer from 0 to 65535$/],
  ['an unknown option', ['--log-key', LOG_KEY, '--frob', 'x'], /^credgate: unknown option or argument --frob$/],
  ['an option without its value', ['--log-key'], /^credgate: option --log-key needs a value$/],
])('%s: one line, the usage, exit 2', (_what, args, message) => {
  const r = runCli(['witness', ...args], {});
  expect({ status: r.status, stdout: r.stdout }).toEqual({ status: 2, stdout: '' });
  const [first, ...rest] = r.stderr.split('\n');
  expect(first).toMatch(message);
  expect(rest.join('\n')).toMatch(/usage: credgate witness/);
  expect(r.stderr).not.toMatch(/\bat .+:\d+/);
});

test('a missing key file without --name is a usage error; with --name it is created 0600 and reused', async () => {
  const keyFile = path.join(dir, 'missing.key');
  const r = runCli(['witness', '--log-key', LOG_KEY, '--key-file', keyFile, '--port', '0', '--state', path.join(dir, 's')], {});
  expect(r.status).toBe(2);
  expect(r.stderr.split('\n')[0]).toBe(`credgate: ${keyFile} does not exist; pass --name to create a new witness key there`);

  const first = await spawnWitness({ logKeys: [LOG_KEY], dir, name: 'witness.test/cli' });
  await first.stop();
  const file = path.join(dir, 'witness_test_cli.key');
  expect(statSync(file).mode & 0o777).toBe(0o600);
  expect(readFileSync(file, 'utf8')).toMatch(/^PRIVATE\+KEY\+witness\.test\/cli\+[0-9a-f]{8}\+/);
  const again = await spawnWitness({ logKeys: [LOG_KEY], dir, name: 'witness.test/cli' });
  await again.stop();
  expect(again.verifierKey).toBe(first.verifierKey);
  // The key never reaches the output.
  expect(again.stderr.join('')).toBe('');
});
