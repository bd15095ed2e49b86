import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { request } from '../support/http';
import { DIST, ROOT, cleanEnv, freePort, requireBuild, runCli, runCliAsync, startService } from '../support/process';

const ADMIN = `admin-${randomBytes(12).toString('hex')}`;

/** Runs the compiled service; resolves with its exit code, or 'still running' (then killed) after `ms`. */
function runMainFor(env: Record<string, string>, ms: number): Promise<{ code: number | 'still running'; stderr: string }> {
  requireBuild();
  const proc = spawn(process.execPath, [path.join(DIST, 'main.js')], { cwd: ROOT, env: cleanEnv(env), stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  proc.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      resolve({ code: 'still running', stderr });
    }, ms);
    proc.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stderr });
    });
  });
}

/** A PID that certainly belongs to no running process: one that has just exited. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

describe('one process at a time on an embedded database folder', () => {
  let dataDir: string;
  let env: Record<string, string>;

  beforeEach(() => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'credgate-lock-'));
    env = { CREDGATE_DATA_DIR: dataDir, CREDGATE_ADMIN_API_KEY: ADMIN };
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  test('while the server runs, the CLI and a second server refuse, naming the holder PID; nothing is lost', async () => {
    const svc = await startService(env);
    const pid = svc.proc.pid!;
    try {
      // Async: a blocked loop could not retire the keep-alive socket the start-up probe left (see runCliAsync).
      const cli = await runCliAsync(['api-key', 'create', '--tenant', 'acme', '--scopes', 'issuer'], env);
      expect(cli.status).not.toBe(0);
      expect(cli.stdout).toBe('');
      const lines = cli.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(new RegExp(`in use by process ${pid}\\b`));
      expect(lines[0]).toMatch(/stop the server or use DATABASE_URL/);

      const second = await runMainFor({ ...env, PORT: String(await freePort()) }, 30_000);
      expect(second.code).toBe(1);
      expect(second.stderr.trim().split('\n')).toHaveLength(1);
      expect(second.stderr).toMatch(new RegExp(`in use by process ${pid}\\b`));

      // The running server is unaffected.
      expect((await request(svc.url, 'GET', '/generate-keypair', { headers: { 'x-api-key': ADMIN } })).status).toBe(200);
    } finally {
      expect(await svc.stop()).toBe(0);
    }

    // Stopped: the CLI works, and the key it prints is accepted after a restart.
    expect(runCli(['tenant', 'create', 'acme'], env).status).toBe(0);
    const created = runCli(['api-key', 'create', '--tenant', 'acme', '--scopes', 'issuer'], env);
    expect(created.status).toBe(0);
    const { key } = JSON.parse(created.stdout) as { key: string };
    const again = await startService(env);
    try {
      expect((await request(again.url, 'GET', '/generate-keypair', { headers: { 'x-api-key': key } })).status).toBe(200);
    } finally {
      expect(await again.stop()).toBe(0);
    }
  }, 120_000);

  test('a stale lock left by a dead process is taken over', () => {
    mkdirSync(dataDir, { recursive: true });
    const lock = path.join(dataDir, 'pgdata.lock');
    const dead = deadPid();
    writeFileSync(lock, JSON.stringify({ pid: dead, role: 'server', startedAt: new Date().toISOString() }));
    const r = runCli(['tenant', 'create', 'initech'], env);
    expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: '' });
    // Released on exit: nothing is left behind for the next process to trip over.
    expect(existsSync(lock)).toBe(false);
    expect(runCli(['tenant', 'list'], env).stdout).toContain('"slug":"initech"');
  }, 60_000);

  test('a lock file held by a live process blocks the CLI and names it', () => {
    mkdirSync(dataDir, { recursive: true });
    const lock = path.join(dataDir, 'pgdata.lock');
    writeFileSync(lock, JSON.stringify({ pid: process.pid, role: 'server', startedAt: new Date().toISOString() }));
    const r = runCli(['tenant', 'list'], env);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(new RegExp(`in use by process ${process.pid}\\b.*stop the server or use DATABASE_URL`));
    expect(JSON.parse(readFileSync(lock, 'utf8')).pid).toBe(process.pid);
  }, 60_000);
});
