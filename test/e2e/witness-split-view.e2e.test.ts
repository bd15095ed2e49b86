/**
 * Witness split view (issue 17, attack 3): two `credgate witness` processes on one `--state`
 * folder cosigned two different size-5 checkpoints of one log with one key. Now the second
 * process refuses to start, and writers that bypass that lock (other processes running the
 * witness code on the folder, two servers in one process) still cosign only one of them.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { formatCheckpoint, formatVerifierKey, leafHash, publicKeyOf, rootFromLeafHashes, signNote } from '../../src/domain/merkle';
import { Witness } from '../../src/witness/witness';
import { createWitnessServer } from '../../src/witness/witness-http';
import { JsonFileWitnessState } from '../../src/witness/witness-state';
import { DIST, ROOT, cleanEnv, requireBuild, runCli } from '../support/process';
import { spawnWitness } from '../support/witness-process';

const LOG = { name: 'log.example/ledger', seed: new Uint8Array(randomBytes(32)) };
const ORIGIN = `${LOG.name}/0.0.3`;
const utf8 = new TextEncoder();

/** Two histories of one log, both signed by its key: a witness must cosign at most one of them at size 5. */
const forkAt5 = (fork: string): string =>
  signNote(formatCheckpoint({ origin: ORIGIN, size: 5, rootHash: rootFromLeafHashes(Array.from({ length: 5 }, (_, i) => leafHash(utf8.encode(`${fork} ${i}`)))) }), LOG);

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'credgate-split-view-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('a second `credgate witness` on the same state folder refuses to start with one line; after the first stops, it starts', async () => {
  const logKey = formatVerifierKey(LOG.name, publicKeyOf(LOG.seed));
  const first = await spawnWitness({ logKeys: [logKey], dir, name: 'witness.test/one' });
  const state = path.join(dir, 'witness_test_one');
  const second = ['witness', '--log-key', logKey, '--key-file', path.join(dir, 'witness_test_one.key'), '--port', '0', '--state', state];
  try {
    const r = runCli(second, {});
    expect({ status: r.status, stdout: r.stdout }).toEqual({ status: 1, stdout: '' });
    expect(r.stderr).toMatch(new RegExp(`^credgate: the witness state folder ${state} is in use by process ${first.proc.pid} \\(credgate witness, since [^)]+\\); run one witness per state folder[^\\n]*\\n$`));
  } finally {
    await first.stop();
  }
  const again = await spawnWitness({ logKeys: [logKey], dir, name: 'witness.test/one' });
  await again.stop();
  expect(again.stderr.join('')).toBe('');
});

test('two witness servers in one process on one folder (no process lock), two different size-5 checkpoints at once: one 200, one 409', async () => {
  const state = path.join(dir, 'in-process');
  const servers = [0, 1].map(() =>
    createWitnessServer(
      new Witness({ logKeys: [{ name: LOG.name, publicKey: publicKeyOf(LOG.seed) }], signer: { name: 'witness.test/w', seed: new Uint8Array(32).fill(7) }, state: new JsonFileWitnessState(state), clock: { now: () => new Date(0) } }),
    ).listen(0, '127.0.0.1'),
  );
  try {
    await Promise.all(servers.map((s) => new Promise((r) => s.once('listening', r))));
    const post = (i: number, note: string) => fetch(`http://127.0.0.1:${(servers[i]!.address() as AddressInfo).port}/add-checkpoint`, { method: 'POST', body: `old 0\n\n${note}` });
    const answers = await Promise.all([post(0, forkAt5('left')), post(1, forkAt5('right'))]);
    const results = await Promise.all(answers.map(async (a) => ({ status: a.status, body: await a.text() })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.status === 409)!.body).toBe('5\n');
  } finally {
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  }
});

/**
 * One racer: a separate process running the compiled witness on the folder, without the process
 * lock the CLI takes. It waits for the start file so both submit as close together as possible.
 */
const RACER = `
const fs = require('node:fs');
const { Witness } = require(${JSON.stringify(path.join(DIST, 'witness/witness.js'))});
const { JsonFileWitnessState } = require(${JSON.stringify(path.join(DIST, 'witness/witness-state.js'))});
const { state, go, note, logName, logKey } = JSON.parse(process.env.RACE);
const w = new Witness({ logKeys: [{ name: logName, publicKey: Buffer.from(logKey, 'base64') }], signer: { name: 'witness.test/w', seed: new Uint8Array(32).fill(7) }, state: new JsonFileWitnessState(state), clock: { now: () => new Date(0) } });
while (!fs.existsSync(go)) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
w.addCheckpoint('old 0\\n\\n' + note).then((a) => process.stdout.write(String(a.status)));
`;

function race(state: string, go: string, note: string): Promise<string> {
  const env = cleanEnv({ RACE: JSON.stringify({ state, go, note, logName: LOG.name, logKey: Buffer.from(publicKeyOf(LOG.seed)).toString('base64') }) });
  const proc = spawn(process.execPath, ['-e', RACER], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve, reject) => {
    proc.once('error', reject);
    proc.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`racer exited ${code}`))));
  });
}

test('two processes writing one state folder without the process lock, different size-5 checkpoints at once: exactly one cosigned, every round', async () => {
  requireBuild();
  for (let round = 0; round < 4; round++) {
    const state = path.join(dir, `race-${round}`);
    const go = path.join(dir, `go-${round}`);
    const racers = [race(state, go, forkAt5(`left ${round}`)), race(state, go, forkAt5(`right ${round}`))];
    // Give both a moment to load before the start signal; the outcome must not depend on it.
    await new Promise((r) => setTimeout(r, 300));
    writeFileSync(go, '');
    expect({ round, statuses: (await Promise.all(racers)).sort() }).toEqual({ round, statuses: ['200', '409'] });
  }
});
