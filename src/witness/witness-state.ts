import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import path from 'node:path';

/** The latest checkpoint a witness cosigned for one log origin. */
export interface CosignedHead {
  readonly size: number;
  /** base64 root hash */
  readonly rootHash: string;
}

/** Where a witness keeps its latest cosigned head per origin. */
export interface WitnessStateStore {
  get(origin: string): CosignedHead | undefined;
  /** Durable before it returns: the witness answers 200 only after this. */
  put(origin: string, head: CosignedHead): void;
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
 * One process per state directory; the witness serialises requests itself.
 */
export class JsonFileWitnessState implements WitnessStateStore {
  private readonly file: string;
  private logs: Record<string, CosignedHead>;

  constructor(private readonly dir: string) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.file = path.join(dir, FILE);
    this.logs = JsonFileWitnessState.load(this.file);
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

  get(origin: string): CosignedHead | undefined {
    return Object.hasOwn(this.logs, origin) ? this.logs[origin] : undefined;
  }

  put(origin: string, head: CosignedHead): void {
    const next = { ...this.logs, [origin]: { size: head.size, rootHash: head.rootHash } };
    const tmp = `${this.file}.tmp`;
    const fd = openSync(tmp, 'w', 0o600);
    try {
      writeSync(fd, JSON.stringify({ version: 1, logs: next } satisfies StateFile));
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
    this.logs = next;
  }
}
