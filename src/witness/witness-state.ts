import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_WRITE_LOCK, type WriteLockOptions, withWriteLock } from './state-lock';

/** The latest checkpoint a witness cosigned for one log origin. */
export interface CosignedHead {
  readonly size: number;
  /** base64 root hash */
  readonly rootHash: string;
}

/** What a decision on the stored head asks for: the head to store (if any) and the answer to give. */
export interface StateDecision<T> {
  readonly store?: CosignedHead;
  readonly result: T;
}

/** Where a witness keeps its latest cosigned head per origin. */
export interface WitnessStateStore {
  /**
   * Reads the stored head of `origin`, lets `decide` compare the request with it and stores what it
   * returns, as one step no other writer of the same state can interleave with. Durable before it
   * returns: the witness answers 200 only after this.
   */
  advance<T>(origin: string, decide: (known: CosignedHead | undefined) => StateDecision<T>): T;
}

interface StateFile {
  readonly version: 1;
  readonly logs: Record<string, CosignedHead>;
}

const FILE = 'witness-state.json';

/**
 * DECISION: a JSON file, not a database. The witness must be independent of the operator it
 * watches, so it cannot share Credgate's PostgreSQL, and an embedded PGlite would add a 10 MB
 * engine for a map of (origin → size, root) that is rewritten whole on each cosignature. Each
 * write goes to a temporary file that is fsynced, renamed over the old one and the directory
 * fsynced, so a crash leaves either the old or the new state, never a torn one, and a restart
 * never forgets a cosigned size (forgetting would let a rolled-back log be cosigned).
 *
 * Nothing is cached between requests: each `advance` re-reads the file under the folder's write
 * lock (state-lock.ts), so a second writer on the folder (one that bypassed the process lock the
 * CLI takes) is seen, and of two different checkpoints of one size only the first is stored.
 */
export class JsonFileWitnessState implements WitnessStateStore {
  private readonly file: string;

  constructor(
    private readonly dir: string,
    private readonly writeLock: WriteLockOptions = DEFAULT_WRITE_LOCK,
  ) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.file = path.join(dir, FILE);
    // A state file that does not parse is refused at start, not at the first request.
    JsonFileWitnessState.load(this.file);
  }

  private static load(file: string): Record<string, CosignedHead> {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw e;
    }
    // A state file that does not parse is not silently reset: that would forget cosigned sizes.
    const parsed = JSON.parse(text) as StateFile;
    if (parsed.version !== 1 || typeof parsed.logs !== 'object' || parsed.logs === null) throw new Error(`${file} is not a witness state file`);
    return { ...parsed.logs };
  }

  advance<T>(origin: string, decide: (known: CosignedHead | undefined) => StateDecision<T>): T {
    return withWriteLock(
      this.dir,
      () => {
        const logs = JsonFileWitnessState.load(this.file);
        const decision = decide(Object.hasOwn(logs, origin) ? logs[origin] : undefined);
        if (decision.store) this.write({ ...logs, [origin]: { size: decision.store.size, rootHash: decision.store.rootHash } });
        return decision.result;
      },
      this.writeLock,
    );
  }

  private write(logs: Record<string, CosignedHead>): void {
    // Unique per writer, so a writer that bypassed the lock cannot rename another's half-written file.
    const tmp = `${this.file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    const fd = openSync(tmp, 'wx', 0o600);
    try {
      writeSync(fd, JSON.stringify({ version: 1, logs } satisfies StateFile));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, this.file);
    const dirFd = openSync(this.dir, 'r');
    try {
      fsyncSync(dirFd);
    } finally {
      closeSync(dirFd);
    }
  }
}
