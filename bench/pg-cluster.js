'use strict';
/**
 * A PostgreSQL primary and a streaming replica of it for `npm run bench:replica`: initdb in a
 * temporary folder, `pg_basebackup -R` for the replica, each on a free loopback port, run as the
 * postgres OS user when the bench runs as root (the server refuses root). Default durability
 * settings (fsync on): the replica's lag under write load is part of what is measured.
 * (test/support/pg-replica.ts is the tests' twin, with durability off.)
 */
const { execFile } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { promisify } = require('node:util');
const { freePort } = require('./service-process');

const run = promisify(execFile);
/** The PostgreSQL server binaries: PG_BIN, else the newest under /usr/lib/postgresql. */
const PG_BIN = process.env.PG_BIN ?? newestServerBin();

function newestServerBin() {
  const base = '/usr/lib/postgresql';
  const versions = fs.existsSync(base) ? fs.readdirSync(base).filter((v) => /^\d+$/.test(v) && fs.existsSync(path.join(base, v, 'bin', 'initdb'))) : [];
  if (versions.length === 0) throw new Error('bench:replica needs the PostgreSQL server binaries (initdb, pg_ctl, pg_basebackup): set PG_BIN to their folder');
  return path.join(base, versions.sort((a, b) => Number(b) - Number(a))[0], 'bin');
}

async function asPostgres(bin, args) {
  const exe = path.join(PG_BIN, bin);
  const root = process.getuid?.() === 0;
  const { stdout } = await run(root ? 'runuser' : exe, root ? ['-u', 'postgres', '--', exe, ...args] : args, { timeout: 300_000 });
  return stdout;
}

/** Starts both servers; `close()` stops them and removes the folder. */
async function startCluster() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'credgate-bench-replica-'));
  if (process.getuid?.() === 0) fs.chownSync(root, Number((await run('id', ['-u', 'postgres'])).stdout.trim()), -1);
  const primaryDir = path.join(root, 'primary');
  const replicaDir = path.join(root, 'replica');
  const primaryPort = await freePort();
  const replicaPort = await freePort();
  const pgCtl = (dir, ...a) => asPostgres('pg_ctl', ['-D', dir, '-l', `${dir}.log`, ...a]);
  const up = { primary: false, replica: false };
  const close = async () => {
    if (up.replica) await pgCtl(replicaDir, 'stop', '-m', 'fast').catch(() => undefined);
    if (up.primary) await pgCtl(primaryDir, 'stop', '-m', 'fast').catch(() => undefined);
    fs.rmSync(root, { recursive: true, force: true });
  };
  try {
    await asPostgres('initdb', ['-D', primaryDir, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8']);
    fs.appendFileSync(
      path.join(primaryDir, 'postgresql.conf'),
      [`port = ${primaryPort}`, "listen_addresses = '127.0.0.1'", `unix_socket_directories = '${root}'`, 'wal_level = replica', 'max_wal_senders = 4', 'max_connections = 100', ''].join('\n'),
    );
    await pgCtl(primaryDir, '-w', 'start');
    up.primary = true;
    await asPostgres('pg_basebackup', ['-R', '-X', 'stream', '-D', replicaDir, '-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres']);
    fs.appendFileSync(path.join(replicaDir, 'postgresql.conf'), [`port = ${replicaPort}`, 'hot_standby_feedback = on', ''].join('\n'));
    await pgCtl(replicaDir, '-w', 'start');
    up.replica = true;
  } catch (e) {
    await close();
    throw e;
  }
  const postmaster = (dir) => Number(fs.readFileSync(path.join(dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  return {
    primaryUrl: `postgresql://postgres@127.0.0.1:${primaryPort}/postgres`,
    replicaUrl: `postgresql://postgres@127.0.0.1:${replicaPort}/postgres`,
    /** CPU ms of a server: its postmaster and every process it started (backends, WAL sender/receiver, startup/replay). */
    cpuMs: (which) => serverCpuMs(postmaster(which === 'primary' ? primaryDir : replicaDir)),
    close,
  };
}

/** utime + stime (ms) of `pid` and its live children, from /proc (USER_HZ = 100). */
function serverCpuMs(pid) {
  let total = 0;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // exited meanwhile
    }
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After the name: state (3), ppid (4) ... utime (14), stime (15).
    if (Number(entry) !== pid && Number(fields[1]) !== pid) continue;
    total += ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  }
  return total;
}

module.exports = { startCluster };
