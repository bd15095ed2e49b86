import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DataFolderLockedError, lockDataFolder } from '../../src/db/folder-lock';

let dir: string;
beforeEach(() => (dir = mkdtempSync(path.join(os.tmpdir(), 'credgate-flock-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

test('a folder is locked once; a second open (even in this process) is refused with the holder PID', () => {
  const folder = path.join(dir, 'pgdata');
  const lock = lockDataFolder(folder, 'test');
  expect(() => lockDataFolder(folder, 'other')).toThrow(DataFolderLockedError);
  expect(() => lockDataFolder(folder, 'other')).toThrow(new RegExp(`in use by process ${process.pid} \\(test, since `));
  lock.release();
  expect(existsSync(`${folder}.lock`)).toBe(false);
  lockDataFolder(folder, 'again').release();
});

test('a stale lock (dead PID) is taken over; release only removes our own lock', () => {
  const folder = path.join(dir, 'pgdata');
  const dead = Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
  writeFileSync(`${folder}.lock`, JSON.stringify({ pid: dead, command: 'old', startedAt: 'x', token: 't' }));
  const lock = lockDataFolder(folder, 'new');
  expect(JSON.parse(readFileSync(`${folder}.lock`, 'utf8'))).toMatchObject({ pid: process.pid, command: 'new' });
  // Someone replaced the file (an operator, a recycled PID): our release leaves theirs alone.
  writeFileSync(`${folder}.lock`, JSON.stringify({ pid: process.pid, command: 'theirs', startedAt: 'x', token: 'other' }));
  lock.release();
  expect(existsSync(`${folder}.lock`)).toBe(true);
});

test('an unreadable lock file is not silently overridden', () => {
  const folder = path.join(dir, 'pgdata');
  writeFileSync(`${folder}.lock`, 'garbage');
  expect(() => lockDataFolder(folder)).toThrow(/unreadable lock file/);
});
