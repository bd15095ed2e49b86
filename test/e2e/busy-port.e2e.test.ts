import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { DIST, ROOT, cleanEnv, requireBuild } from '../support/process';

/** Runs the compiled service and resolves with its exit code, or 'still running' after `ms`. */
function runMainFor(env: Record<string, string>, ms: number): Promise<{ code: number | 'still running'; stdout: string; stderr: string }> {
  requireBuild();
  const proc = spawn(process.execPath, [path.join(DIST, 'main.js')], { cwd: ROOT, env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  proc.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  proc.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      resolve({ code: 'still running', stdout, stderr });
    }, ms);
    proc.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
  });
}

describe('a port another process owns', () => {
  let squatter: Server;
  let port: number;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'credgate-busy-'));
    squatter = createServer();
    await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
    port = (squatter.address() as { port: number }).port;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => squatter.close(() => resolve()));
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('the service exits non-zero with a one-line reason and never claims to listen', async () => {
    // A fresh PGlite folder is created and migrated before the listen is tried: alone that takes a
    // few seconds, but beside the other jest worker's servers on a 2-core CI machine it once took
    // over 30 s. The bound is how long the test waits, not what it asserts.
    const r = await runMainFor({ PORT: String(port), HOST: '127.0.0.1', CREDGATE_DATA_DIR: dataDir }, 100_000);
    expect(r.code).toBe(1);
    expect(r.stdout).not.toMatch(/credgate listening/);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^credgate: cannot listen on 127\\.0\\.0\\.1:${port}: .*(in use|EADDRINUSE)`));
  }, 120_000);
});
