'use strict';
/**
 * The Credgate side of `npm run bench`: a scratch database on the local PostgreSQL and the
 * compiled service (`node dist/main.js`) as a child process, listening on loopback.
 */
const { spawn } = require('node:child_process');
const crypto = require('node:crypto');
const net = require('node:net');
const path = require('node:path');
const { Client } = require('pg');

/** The server the scratch database is created on: DATABASE_URL's, as for the tests, else the local one. */
const ADMIN_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

function databaseUrl(name) {
  const u = new URL(ADMIN_URL);
  u.pathname = `/${name}`;
  return u.toString();
}

async function withAdmin(fn) {
  const client = new Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Creates a fresh database and returns its name and URL. */
async function createDatabase() {
  const name = `credgate_bench_${crypto.randomBytes(4).toString('hex')}`;
  await withAdmin((c) => c.query(`CREATE DATABASE ${name}`));
  return { name, url: databaseUrl(name) };
}

async function dropDatabase(name) {
  await withAdmin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}

/** A free loopback port, chosen once so the service keeps its public URL (and log origin) across restarts. */
function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * The service's environment. Rate limits are off: they exist to stop abuse, and left on they
 * would turn a load test into a count of 429s. Everything else keeps its default.
 */
function serviceEnv({ databaseUrl: url, port, masterKey }) {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    DATABASE_URL: url,
    HOST: '127.0.0.1',
    PORT: String(port),
    CREDGATE_PUBLIC_URL: `http://127.0.0.1:${port}`,
    CREDGATE_MASTER_KEY: masterKey,
    LOG_LEVEL: 'warn',
    CREDGATE_RATE_LIMIT_PER_API_KEY: '0',
    CREDGATE_RATE_LIMIT_PER_CREDENTIAL: '0',
    CREDGATE_RATE_LIMIT_PER_IP: '0',
  };
}

/**
 * Starts `node [nodeArgs] dist/main.js` and waits for /readyz. `stop()` sends SIGTERM (the
 * service drains and exits, which also writes a --cpu-prof profile) and waits for the exit.
 * With `workers` > 1: `dist/cli.js start --workers N` (a node:cluster primary and N workers on the
 * port), ready once the primary reports every worker listening; `pids()` then names the primary
 * and its workers, so CPU and memory are read over all of them.
 */
async function startServer(root, env, { nodeArgs = [], workers = 1 } = {}) {
  const cluster = workers > 1;
  const entry = cluster ? [path.join(root, 'dist', 'cli.js'), 'start', '--workers', String(workers)] : [path.join(root, 'dist', 'main.js')];
  const child = spawn(process.execPath, [...nodeArgs, ...entry], { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe', ...(cluster ? ['ipc'] : [])] });
  const allListening = cluster ? new Promise((resolve) => child.on('message', (m) => m === 'ready' && resolve())) : Promise.resolve();
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr = (stderr + d).slice(-4000);
  });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const baseUrl = `http://127.0.0.1:${env.PORT}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`service exited during start-up (${child.exitCode}): ${stderr}`);
    try {
      const res = await fetch(`${baseUrl}/readyz`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`service not ready within 60 s: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  let timer;
  const late = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`not every worker listened within 60 s: ${stderr}`)), 60_000)));
  try {
    await Promise.race([allListening, late]);
  } catch (e) {
    child.kill('SIGKILL');
    throw e;
  } finally {
    clearTimeout(timer);
  }
  return {
    pid: child.pid,
    pids: () => (cluster ? [child.pid, ...childPids(child.pid)] : [child.pid]),
    baseUrl,
    stderr: () => stderr,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      const result = await exited;
      clearTimeout(timer);
      return result;
    },
  };
}

/** The children of a process (Linux: /proc/<pid>/task/<pid>/children), e.g. a cluster primary's workers. */
function childPids(pid) {
  try {
    return require('node:fs').readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

module.exports = { createDatabase, dropDatabase, freePort, serviceEnv, startServer };
