import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { deriveLedgerSeed } from '../../src/ledger';
import { formatVerifierKey, publicKeyOf } from '../../src/domain/merkle';
import type { WitnessEndpoint } from '../../src/config';
import { DIST, ROOT, cleanEnv, requireBuild } from './process';

/** The C2SP verifier key of the log a test server signs with (origin base `<publicUrl host>/ledger`). */
export function logVerifierKey(masterKey: Uint8Array, host = 'credgate.test'): string {
  return formatVerifierKey(`${host}/ledger`, publicKeyOf(deriveLedgerSeed(masterKey)));
}

export interface RunningWitness extends WitnessEndpoint {
  readonly proc: ChildProcess;
  readonly stderr: string[];
  stop(): Promise<void>;
}

/** Spawns `credgate witness` (the compiled CLI) and waits for the JSON line it prints once listening. */
export async function spawnWitness(opts: { logKeys: readonly string[]; dir: string; name: string }): Promise<RunningWitness> {
  requireBuild();
  const args = [path.join(DIST, 'cli.js'), 'witness', ...opts.logKeys.flatMap((k) => ['--log-key', k])];
  args.push('--key-file', path.join(opts.dir, `${opts.name.replace(/\W/g, '_')}.key`), '--name', opts.name, '--port', '0', '--state', path.join(opts.dir, opts.name.replace(/\W/g, '_')));
  const proc = spawn(process.execPath, args, { cwd: ROOT, env: cleanEnv({}), stdio: ['ignore', 'pipe', 'pipe'] });
  const stderr: string[] = [];
  proc.stderr!.on('data', (d: Buffer) => stderr.push(d.toString()));
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const first = await new Promise<string>((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')));
    });
    proc.once('exit', (code) => reject(new Error(`witness exited with ${code}: ${stderr.join('')}`)));
  });
  const { verifierKey, url } = JSON.parse(first) as { verifierKey: string; url: string };
  return {
    verifierKey,
    url,
    name: opts.name,
    proc,
    stderr,
    async stop() {
      if (proc.exitCode === null) proc.kill('SIGTERM');
      await exited;
    },
  };
}
