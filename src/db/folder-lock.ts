import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Who holds an embedded database folder: written into `<folder>.lock`. */
export interface LockHolder {
  readonly pid: number;
  readonly command: string;
  readonly startedAt: string;
  /** Tells our own lock from a later one with a recycled PID when releasing. */
  readonly token: string;
}

/** The folder is in use by a live process; the message is the one line the CLI and main print. */
export class DataFolderLockedError extends Error {
  constructor(
    readonly folder: string,
    readonly holder: LockHolder,
  ) {
    super(
      `the embedded database ${folder} is in use by process ${holder.pid} (${holder.command}, since ${holder.startedAt}); ` +
        'stop the server or use DATABASE_URL (PostgreSQL) to run several processes',
    );
    this.name = 'DataFolderLockedError';
  }
}

export interface FolderLock {
  readonly path: string;
  release(): void;
}

function isAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: the process exists but belongs to someone else; only ESRCH means gone.
    return (e as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

function readHolder(file: string): LockHolder | 'missing' | 'unreadable' {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw e;
  }
  try {
    const v = JSON.parse(text) as Partial<LockHolder>;
    if (typeof v.pid === 'number' && Number.isSafeInteger(v.pid) && v.pid > 0) {
      return { pid: v.pid, command: String(v.command ?? 'unknown'), startedAt: String(v.startedAt ?? 'unknown'), token: String(v.token ?? '') };
    }
  } catch {
    // fall through
  }
  return 'unreadable';
}

const sleepSync = (ms: number): void => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms) as unknown as void;

/** Creates `file` with `content` only if it does not exist; the content is complete when it appears. */
function createExclusive(file: string, content: string): boolean {
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(temp, content, { mode: 0o600 });
  try {
    linkSync(temp, file);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  } finally {
    unlinkSync(temp);
  }
}

/**
 * Locks an embedded (PGlite) database folder for this process. PGlite has no server to arbitrate
 * between processes: two processes on one folder each keep their own view and the last to write
 * wins, so a second server or a CLI beside a running server lost data. The lock is a file
 * created atomically next to the folder; a lock whose PID no longer runs is stale and taken over.
 */
export function lockDataFolder(folder: string, command: string = path.basename(process.argv[1] ?? 'node')): FolderLock {
  const file = `${folder}.lock`;
  const me: LockHolder = { pid: process.pid, command, startedAt: new Date().toISOString(), token: randomBytes(12).toString('hex') };
  for (let attempt = 0; attempt < 20; attempt++) {
    if (createExclusive(file, JSON.stringify(me))) {
      let released = false;
      const release = (): void => {
        if (released) return;
        released = true;
        process.off('exit', release);
        const holder = readHolder(file);
        if (typeof holder === 'object' && holder.token === me.token) unlinkSync(file);
      };
      // A process that exits without closing the database still frees the folder.
      process.on('exit', release);
      return { path: file, release };
    }
    const holder = readHolder(file);
    if (holder === 'missing') continue;
    if (holder === 'unreadable') {
      // Not written by this code (our files appear complete); give a manual writer a moment, then refuse.
      if (attempt < 3) {
        sleepSync(50);
        continue;
      }
      throw new DataFolderLockedError(folder, { pid: 0, command: `unreadable lock file ${file}`, startedAt: 'unknown', token: '' });
    }
    if (isAlive(holder.pid)) throw new DataFolderLockedError(folder, holder);
    takeOverStale(file, holder);
  }
  throw new Error(`could not lock ${folder}: the lock file keeps changing`);
}

/**
 * Moves a stale lock aside atomically and checks that what moved is the lock judged stale; if a
 * live process locked in between, its lock is put back and the caller's next attempt refuses.
 */
function takeOverStale(file: string, stale: LockHolder): void {
  const aside = `${file}.stale.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    renameSync(file, aside);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw e;
  }
  const moved = readHolder(aside);
  if (typeof moved === 'object' && (moved.pid !== stale.pid || moved.token !== stale.token)) {
    try {
      linkSync(aside, file);
    } catch {
      // Someone else holds it now; the next attempt reports them.
    }
  }
  unlinkSync(aside);
}
