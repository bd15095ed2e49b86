/**
 * Split view: two witnesses on one state folder must never cosign two different checkpoints of
 * one size. The process lock keeps a second `credgate witness` out; the write lock and the re-read
 * under it cover writers that bypass it (here: two stores in one process).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { base64 } from '@scure/base';
import { formatCheckpoint, publicKeyOf, rootFromLeafHashes, leafHash, signNote } from '../../src/domain/merkle';
import { WitnessStateBusyError, WitnessStateLockedError, lockWitnessFolder } from '../../src/witness/state-lock';
import { Witness } from '../../src/witness/witness';
import { JsonFileWitnessState } from '../../src/witness/witness-state';

const seed = (b: number): Uint8Array => new Uint8Array(32).fill(b);
const LOG = { name: 'log.example/ledger', seed: seed(1) };
const ORIGIN = `${LOG.name}/0.0.7`;
const utf8 = new TextEncoder();

/** A log-signed checkpoint of `size` leaves; `fork` names one of two histories of the same log. */
function checkpoint(size: number, fork: string): { note: string; root: Uint8Array } {
  const root = rootFromLeafHashes(Array.from({ length: size }, (_, i) => leafHash(utf8.encode(`${fork} entry ${i}`))));
  return { note: signNote(formatCheckpoint({ origin: ORIGIN, size, rootHash: root }), LOG), root };
}

const request = (note: string): string => `old 0\n\n${note}`;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'credgate-witness-lock-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function witnessOn(stateDir: string, store = new JsonFileWitnessState(stateDir)): Witness {
  return new Witness({ logKeys: [{ name: LOG.name, publicKey: publicKeyOf(LOG.seed) }], signer: { name: 'witness.example/w1', seed: seed(2) }, state: store, clock: { now: () => new Date('2026-11-27T00:00:00Z') } });
}

/** A lock file as src/db/folder-lock.ts writes it, held by `pid`. */
const holdLock = (file: string, pid: number): void => writeFileSync(file, JSON.stringify({ pid, command: 'test holder', startedAt: 'then', token: 'theirs' }));

/** The PID of a process that has exited (its lock is stale). */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

describe('two witnesses on one state folder', () => {
  test('two stores in one process (the process lock bypassed), two different size-5 checkpoints at once: one cosigned, the other 409', async () => {
    // Both are created before either writes: each would have cached an empty state.
    const a = witnessOn(dir);
    const b = witnessOn(dir);
    const left = checkpoint(5, 'left');
    const right = checkpoint(5, 'right');
    const answers = await Promise.all([a.addCheckpoint(request(left.note)), b.addCheckpoint(request(right.note))]);
    expect(answers.map((x) => x.status).sort()).toEqual([200, 409]);
    const refused = answers.find((x) => x.status === 409)!;
    expect(refused).toEqual({ status: 409, contentType: 'text/x.tlog.size', body: '5\n' });
    // The stored head is the one that was cosigned, and stays so for both.
    const won = answers[0]!.status === 200 ? left : right;
    const lost = won === left ? right : left;
    expect(JSON.parse(readFileSync(path.join(dir, 'witness-state.json'), 'utf8'))).toEqual({ version: 1, logs: { [ORIGIN]: { size: 5, rootHash: base64.encode(won.root) } } });
    for (const w of [a, b]) expect((await w.addCheckpoint(`old 5\n\n${lost.note}`)).status).toBe(409);
  });

  test('a write waits for the state lock another live process holds, gives up without cosigning, and goes ahead once it is free', async () => {
    const lockFile = path.join(dir, 'witness-state.json.lock');
    // The parent of this test process is alive and not us: its lock is live.
    holdLock(lockFile, process.ppid);
    const w = witnessOn(dir, new JsonFileWitnessState(dir, { attempts: 3, pauseMs: 1 }));
    const cp = checkpoint(5, 'only');
    await expect(w.addCheckpoint(request(cp.note))).rejects.toBeInstanceOf(WitnessStateBusyError);
    expect(existsSync(path.join(dir, 'witness-state.json'))).toBe(false);
    rmSync(lockFile);
    expect((await w.addCheckpoint(request(cp.note))).status).toBe(200);
    expect(existsSync(lockFile)).toBe(false);
  });

  test('a state lock left by a process that died is taken over', async () => {
    holdLock(path.join(dir, 'witness-state.json.lock'), deadPid());
    const w = witnessOn(dir, new JsonFileWitnessState(dir, { attempts: 1, pauseMs: 1 }));
    expect((await w.addCheckpoint(request(checkpoint(5, 'only').note))).status).toBe(200);
  });

  test('the process lock: a second holder is refused with one line naming the first; released, the folder can be locked again', () => {
    const state = path.join(dir, 'state');
    const first = lockWitnessFolder(state);
    let refused: unknown;
    try {
      lockWitnessFolder(state);
    } catch (e) {
      refused = e;
    }
    expect(refused).toBeInstanceOf(WitnessStateLockedError);
    expect((refused as Error).message).toMatch(new RegExp(`^the witness state folder ${state} is in use by process ${process.pid} \\(credgate witness, since [^)]+\\); run one witness per state folder`));
    expect((refused as Error).message).not.toContain('\n');
    first.release();
    lockWitnessFolder(state).release();
  });
});
