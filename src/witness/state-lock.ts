import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { DataFolderLockedError, type FolderLock, type LockHolder, lockDataFolder } from '../db/folder-lock';

/** A second witness on a state folder another live process holds; the message is the one line the CLI prints. */
export class WitnessStateLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly holder: LockHolder,
  ) {
    super(
      `the witness state folder ${dir} is in use by process ${holder.pid} (${holder.command}, since ${holder.startedAt}); ` +
        'run one witness per state folder (two witnesses sharing one could cosign two different checkpoints of the same size)',
    );
    this.name = 'WitnessStateLockedError';
  }
}

/** `<dir>/witness.lock`: held by the witness process for its whole life. */
const LIFE_LOCK = 'witness';
/** `<dir>/witness-state.json.lock`: held around each read-compare-write of the state file. */
const WRITE_LOCK = 'witness-state.json';

/**
 * Locks a witness state folder for this process's life (the lock of src/db/folder-lock.ts: a file
 * created atomically, taken over once its PID is gone). Two witnesses on one folder each kept
 * their own copy of the state in memory and cosigned two different checkpoints of one size.
 */
export function lockWitnessFolder(dir: string): FolderLock {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  try {
    return lockDataFolder(path.join(dir, LIFE_LOCK), 'credgate witness');
  } catch (e) {
    if (e instanceof DataFolderLockedError) throw new WitnessStateLockedError(dir, e.holder);
    throw e;
  }
}

/** A write could not take the state lock in time: nothing was cosigned (the HTTP layer answers 500). */
export class WitnessStateBusyError extends Error {
  constructor(dir: string) {
    super(`the witness state in ${dir} stayed locked by another process; nothing was cosigned`);
    this.name = 'WitnessStateBusyError';
  }
}

export interface WriteLockOptions {
  /** Attempts before giving up, `pauseMs` apart (a count, not a deadline, so no clock is read). */
  readonly attempts: number;
  readonly pauseMs: number;
}

/** About two seconds: a write holds the lock for one fsynced file rename. */
export const DEFAULT_WRITE_LOCK: WriteLockOptions = { attempts: 200, pauseMs: 10 };

const pause = (ms: number): void => void Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Runs `fn` holding the folder's write lock. The life lock keeps a second `credgate witness` out;
 * this one also covers whoever bypasses it (another program on the folder, a second store in one
 * process), so the state read under it is the latest and no two writers compare against the same
 * old head. Synchronous like the store: the witness does nothing else while it writes.
 */
export function withWriteLock<T>(dir: string, fn: () => T, options: WriteLockOptions = DEFAULT_WRITE_LOCK): T {
  for (let attempt = 0; ; attempt++) {
    let lock: FolderLock;
    try {
      lock = lockDataFolder(path.join(dir, WRITE_LOCK), 'credgate witness (writing its state)');
    } catch (e) {
      if (!(e instanceof DataFolderLockedError)) throw e;
      if (attempt + 1 >= options.attempts) throw new WitnessStateBusyError(dir);
      pause(options.pauseMs);
      continue;
    }
    try {
      return fn();
    } finally {
      lock.release();
    }
  }
}
