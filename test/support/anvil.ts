import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { ROOT, freePort } from './process';

/** Account 0 of anvil's well-known test mnemonic: public test data, funded on every anvil chain. */
export const ANVIL_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80' as const;

/**
 * The anvil binary of @foundry-rs/anvil's platform package. The package.json names the linux-x64
 * one directly (an optional dependency): the registry mirror CI installs from has no other
 * platform's package, and the meta package's lock entries for them would make `npm ci` fail.
 */
export function anvilBinary(): string {
  const dir = path.join(ROOT, 'node_modules', '@foundry-rs');
  const found = existsSync(dir)
    ? readdirSync(dir)
        .filter((n) => n.startsWith('anvil-'))
        .map((n) => path.join(dir, n, 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil'))
        .find((p) => existsSync(p))
    : undefined;
  if (!found) throw new Error('no anvil binary under node_modules/@foundry-rs/anvil-*/bin: run npm install on linux-x64 (@foundry-rs/anvil-linux-amd64 is an optional dependency)');
  return found;
}

/**
 * A local chain on a free port. Its state lives in `stateFile` (written on exit and every second),
 * so stop() then start() brings back the same chain at the same address: an outage, not a reset.
 */
export class Anvil {
  private proc: ChildProcess | undefined;
  private port = 0;

  constructor(private readonly stateFile: string) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    if (this.port === 0) this.port = await freePort();
    const proc = spawn(anvilBinary(), ['--host', '127.0.0.1', '--port', String(this.port), '--state', this.stateFile, '--state-interval', '1', '--silent'], { stdio: 'ignore' });
    this.proc = proc;
    for (let i = 0; i < 200; i++) {
      if (proc.exitCode !== null) throw new Error(`anvil exited with ${proc.exitCode}`);
      try {
        const res = await fetch(this.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }) });
        if (res.ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('anvil did not start');
  }

  /** SIGTERM (anvil writes its state), then waits for the process to be gone. */
  async stop(): Promise<void> {
    const proc = this.proc;
    this.proc = undefined;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    proc.kill('SIGTERM');
    const timer = setTimeout(() => proc.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
}
