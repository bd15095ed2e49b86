import { execFile } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import type { TestDatabase } from './test-db';

const run = promisify(execFile);

/** The PostgreSQL server binaries (initdb, pg_ctl, pg_basebackup): PG_BIN, else the newest under /usr/lib/postgresql. */
const PG_BIN = process.env.PG_BIN ?? newestServerBin();

function newestServerBin(): string {
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base) ? readdirSync(base).filter((v) => /^\d+$/.test(v) && existsSync(path.join(base, v, 'bin', 'initdb'))) : [];
  if (versions.length === 0) throw new Error('the replica tests need the PostgreSQL server binaries (initdb, pg_ctl, pg_basebackup): set PG_BIN to their folder');
  return path.join(base, versions.sort((a, b) => Number(b) - Number(a))[0]!, 'bin');
}

/**
 * A fresh PostgreSQL primary and a streaming replica of it, each in a temporary folder on a port
 * of its own, run as the `postgres` OS user (the server refuses to run as root). Nothing is
 * mocked: the replica is a hot standby made by `pg_basebackup -R` and replays the primary's WAL.
 */
export interface ReplicaCluster {
  readonly primaryUrl: string;
  readonly replicaUrl: string;
  /** A TestDatabase on the primary's `postgres` database (the harness migrates it on start). */
  readonly db: TestDatabase;
  /** Stops WAL replay on the replica (pg_wal_replay_pause): it keeps answering, frozen in the past. */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** Waits (bounded by tries) until the replica has replayed everything the primary has written. */
  caughtUp(): Promise<void>;
  /** A query on the replica itself (to show what it holds). */
  queryReplica<T extends Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** `pg_ctl stop -m immediate`: the replica dies as in a crash (nothing when it is down). */
  killReplica(): Promise<void>;
  /** Starts it again (nothing when it is up); it resumes streaming from where it stopped. */
  startReplica(): Promise<void>;
  close(): Promise<void>;
}

/** Runs a PostgreSQL binary as the postgres user (runuser when root, directly otherwise). */
async function asPostgres(bin: string, args: readonly string[]): Promise<string> {
  const exe = path.join(PG_BIN, bin);
  const asRoot = process.getuid?.() === 0;
  const { stdout } = await run(asRoot ? 'runuser' : exe, asRoot ? ['-u', 'postgres', '--', exe, ...args] : [...args], { timeout: 120_000 });
  return stdout;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

async function withClient<T>(url: string, fn: (c: Client) => Promise<T>): Promise<T> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function startReplicaCluster(): Promise<ReplicaCluster> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'credgate-replica-'));
  if (process.getuid?.() === 0) chownSync(root, Number((await run('id', ['-u', 'postgres'])).stdout.trim()), -1);
  const primaryDir = path.join(root, 'primary');
  const replicaDir = path.join(root, 'replica');
  const [primaryPort, replicaPort] = [await freePort(), await freePort()];
  const primaryUrl = `postgresql://postgres@127.0.0.1:${primaryPort}/postgres`;
  const replicaUrl = `postgresql://postgres@127.0.0.1:${replicaPort}/postgres`;
  const pgCtl = (dir: string, ...args: string[]) => asPostgres('pg_ctl', ['-D', dir, '-l', `${dir}.log`, ...args]);

  let primaryUp = false;
  let replicaUp = false;
  const close = async (): Promise<void> => {
    if (replicaUp) await pgCtl(replicaDir, 'stop', '-m', 'immediate').catch(() => undefined);
    if (primaryUp) await pgCtl(primaryDir, 'stop', '-m', 'immediate').catch(() => undefined);
    rmSync(root, { recursive: true, force: true });
  };
  try {
    await asPostgres('initdb', ['-D', primaryDir, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync']);
    // Replication settings, a socket folder we own, and durability off: this cluster is thrown away.
    appendFileSync(
      path.join(primaryDir, 'postgresql.conf'),
      [`port = ${primaryPort}`, "listen_addresses = '127.0.0.1'", `unix_socket_directories = '${root}'`, 'wal_level = replica', 'max_wal_senders = 4', 'hot_standby = on', 'fsync = off', 'max_connections = 60', ''].join('\n'),
    );
    await pgCtl(primaryDir, '-w', 'start');
    primaryUp = true;
    await asPostgres('pg_basebackup', ['-R', '-X', 'stream', '-D', replicaDir, '-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres']);
    // hot_standby_feedback: the primary keeps rows the replica's reads still see, so no read is cancelled.
    appendFileSync(path.join(replicaDir, 'postgresql.conf'), [`port = ${replicaPort}`, 'hot_standby_feedback = on', ''].join('\n'));
    await pgCtl(replicaDir, '-w', 'start');
    replicaUp = true;
  } catch (e) {
    await close();
    throw e;
  }

  const onReplica = <T>(fn: (c: Client) => Promise<T>) => withClient(replicaUrl, fn);
  return {
    primaryUrl,
    replicaUrl,
    db: { config: { kind: 'postgres', url: primaryUrl }, dataDir: path.join(root, 'data'), drop: async () => undefined },
    pauseReplay: () => onReplica(async (c) => void (await c.query('SELECT pg_wal_replay_pause()'))),
    resumeReplay: () => onReplica(async (c) => void (await c.query('SELECT pg_wal_replay_resume()'))),
    async caughtUp() {
      const target = await withClient(primaryUrl, async (c) => (await c.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn')).rows[0]!.lsn);
      for (let i = 0; i < 500; i++) {
        const ok = await onReplica(async (c) => (await c.query<{ ok: boolean }>('SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS ok', [target])).rows[0]!.ok);
        if (ok) return;
        await sleep(20);
      }
      throw new Error('the replica did not catch up');
    },
    queryReplica: (sql, params = []) => onReplica(async (c) => (await c.query(sql, params)).rows),
    async killReplica() {
      if (!replicaUp) return;
      await pgCtl(replicaDir, 'stop', '-m', 'immediate');
      replicaUp = false;
    },
    async startReplica() {
      if (replicaUp) return;
      await pgCtl(replicaDir, '-w', 'start');
      replicaUp = true;
    },
    close,
  };
}
