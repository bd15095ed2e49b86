/**
 * `credgate start` runs the service itself (it answers, and SIGTERM stops it cleanly), and
 * `credgate migrate` applies migrations, as the CLI list asks besides `db migrate`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli, startService } from '../support/process';

let dataDir: string;

beforeAll(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'credgate-cli-start-'));
});

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

test('`credgate start` serves and stops on SIGTERM with exit code 0; `credgate migrate` then finds nothing to do', async () => {
  const env = { CREDGATE_DATA_DIR: dataDir };
  const service = await startService(env, ['cli.js', 'start']);
  const health = await fetch(`${service.url}/healthz`);
  expect(health.status).toBe(200);
  expect(await service.stop()).toBe(0);
  expect(service.stdout.some((l) => l.includes('shutting down'))).toBe(true);

  const migrated = runCli(['migrate'], env);
  expect(migrated).toMatchObject({ status: 0, stdout: 'database is migrated\n' });
  expect(runCli(['start', '--help'], env)).toMatchObject({ status: 0, stdout: expect.stringContaining('run the service') });
});
