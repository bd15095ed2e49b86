'use strict';
/**
 * Load on both sides, with the cost read from /proc around each run: against the service over
 * loopback, autocannon for a fixed number of connections and bench/paced.js (open loop, evenly
 * paced) for a fixed rate; the forked library runners (Veramo, Digital Bazaar) in-process.
 */
const { fork } = require('node:child_process');
const path = require('node:path');
const autocannon = require('autocannon');
const { cpuMs, peakRssMb, resetPeakRss } = require('./proc');
const { latencySummary } = require('./stats');
const { graphqlFailed, pacedRunInChild, scheduledCount } = require('./paced');

/**
 * Wraps a run with CPU time and peak RSS of process `pid`, or of every process in `pid` when it is
 * a list (a cluster primary and its workers: CPU summed, peak RSS summed); `count` is the number of
 * completed operations.
 */
async function measured(pid, run) {
  const pids = Array.isArray(pid) ? pid : [pid];
  const sum = (f) => pids.reduce((a, p) => a + f(p), 0);
  for (const p of pids) resetPeakRss(p);
  const cpu0 = sum(cpuMs);
  const r = await run();
  const cpu = sum(cpuMs) - cpu0;
  return { ...r, cpuMsPerOp: r.count > 0 ? cpu / r.count : NaN, peakRssMb: sum(peakRssMb) };
}

/**
 * One run of `req` ({ method, path, body, headers }, or a `pick` function for rotating requests,
 * each with its own `apiKey`) against the service: `connections` in flight (autocannon, closed
 * loop), or `rate` requests per second (bench/paced.js: open loop, evenly spaced, latency from each
 * request's scheduled send, so queueing in front of a slow answer counts). GraphQL answers 200 with
 * an `errors` array, so those bodies are counted as failures too. A paced run also gives `sendLagMs`
 * (how late the driver itself sent) and `driverCpuMsPerOp` (the driver child's CPU per request).
 */
async function driveService(server, req, apiKey, { connections, durationMs, rate, graphql = false }) {
  const base = { 'content-type': 'application/json', 'x-api-key': apiKey };
  // A picked request carries its tenant's key (bench issuers); a fixed one uses `apiKey`.
  const shape = (p, picked) => ({ method: p.method, path: p.path, body: p.body, headers: { ...base, ...p.headers, ...(picked && p.apiKey !== undefined ? { 'x-api-key': p.apiKey } : {}) } });
  const pids = server.pids ? server.pids() : server.pid;
  if (rate !== undefined) {
    // Plain request shapes for the driver child; a rotating `pick` is drawn here, once per request.
    const requests = [];
    let sequence;
    if (req.pick) {
      const index = new Map();
      sequence = Array.from({ length: scheduledCount(rate, durationMs) }, () => {
        const p = req.pick();
        if (!index.has(p)) index.set(p, requests.push(shape(p, true)) - 1);
        return index.get(p);
      });
    } else requests.push(shape(req));
    return measured(pids, async () => {
      const r = await pacedRunInChild({ baseUrl: server.baseUrl, rate, durationMs, requests, sequence, graphql });
      const s = latencySummary(r.latencies);
      return { count: s.count, throughput: (s.count * 1000) / r.elapsedMs, p50: s.p50, p99: s.p99, failures: r.failures, sendLagMs: r.sendLagMs, driverCpuMsPerOp: r.driverCpuMs / r.sent };
    });
  }
  let gqlErrors = 0;
  const onResponse = graphql
    ? (status, body) => {
        if (graphqlFailed(status, body)) gqlErrors++;
      }
    : undefined;
  const request = req.pick
    ? {
        setupRequest: (r) => ({ ...r, ...shape(req.pick(), true) }),
      }
    : shape(req);
  return measured(pids, async () => {
    const result = await autocannon({
      url: server.baseUrl,
      connections,
      duration: durationMs / 1000,
      requests: [{ ...request, ...(onResponse ? { onResponse } : {}) }],
    });
    const ok = result['2xx'] - gqlErrors;
    return {
      count: ok,
      throughput: ok / result.duration,
      p50: result.latency.p50,
      p99: result.latency.p99,
      failures: result.non2xx + gqlErrors + result.errors + result.timeouts,
    };
  });
}

/**
 * A forked load runner (bench/veramo-runner.js, bench/digitalbazaar-runner.mjs): waits for its
 * `ready` message, then `run(message)` sends `{ cmd: 'run', ...message }` and turns the latencies
 * it answers with into the same figures driveService gives.
 */
async function forkRunner(file, argv, label) {
  const child = fork(path.join(__dirname, file), argv, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const next = () => new Promise((resolve) => child.once('message', resolve));
  const ready = await next();
  if (!ready.ready) throw new Error(`${label} runner failed: ${ready.error}`);
  return {
    pid: child.pid,
    ready,
    async run(message) {
      return measured(child.pid, async () => {
        const reply = next();
        child.send({ cmd: 'run', ...message });
        const msg = await reply;
        if (!msg.ok) throw new Error(`${label} ${message.op}: ${msg.error}`);
        const { latencies, errors, elapsedMs } = msg.result;
        const s = latencySummary(latencies);
        return { count: s.count, throughput: (s.count * 1000) / elapsedMs, p50: s.p50, p99: s.p99, failures: errors };
      });
    },
    stop() {
      if (child.connected) child.send({ cmd: 'exit' });
    },
  };
}

/** The forked Veramo runner: `run(op, { concurrency | rate, durationMs })`. */
async function startVeramo() {
  const runner = await forkRunner('veramo-runner.js', [], 'Veramo');
  return { pid: runner.pid, versions: runner.ready.versions, run: (op, options) => runner.run({ op, ...options }), stop: runner.stop };
}

/**
 * The Veramo service anchor (bench/veramo-service.js) as a process of its own on `databaseUrl`
 * (a database the caller created), listening on `port`. Resolves once it listens and one issue and
 * one verify went through; `requests` are the bodies driveService sends (the shape it takes,
 * with `pid` and `baseUrl` read from /proc and used like the Credgate server's).
 */
async function startVeramoService({ databaseUrl, port }) {
  const { spawn } = require('node:child_process');
  const crypto = require('node:crypto');
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production', VERAMO_DATABASE_URL: databaseUrl, VERAMO_SECRET_KEY: crypto.randomBytes(32).toString('hex'), PORT: String(port) };
  const child = spawn(process.execPath, [path.join(__dirname, 'veramo-service.js')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr = (stderr + d).slice(-4000)));
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const ready = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`Veramo service not ready within 60 s: ${stderr}`)), 60_000);
    child.stdout.on('data', (d) => {
      out += d;
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) {
        clearTimeout(timer);
        resolve(JSON.parse(line));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Veramo service exited during start-up (${code}): ${stderr}`));
    });
  });
  const baseUrl = ready.url;
  const post = async (p, body, expected) => {
    const res = await fetch(baseUrl + p, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const json = await res.json();
    if (res.status !== expected) throw new Error(`Veramo service ${p} answered ${res.status}: ${JSON.stringify(json).slice(0, 300)}`);
    return json;
  };
  // The same three attributes as the Credgate Family B template and bench/veramo-runner.js.
  const subject = { name: 'Grace Hopper', birthDate: '1990-12-09', employeeNo: 7 };
  const { credential } = await post('/issue', { credentialSubject: subject }, 201);
  await post('/verify', { credential }, 200);
  return {
    pid: child.pid,
    baseUrl,
    versions: ready.versions,
    requests: {
      issue: { method: 'POST', path: '/issue', body: JSON.stringify({ credentialSubject: subject }) },
      verify: { method: 'POST', path: '/verify', body: JSON.stringify({ credential }) },
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      const r = await exited;
      clearTimeout(timer);
      return r;
    },
  };
}

module.exports = { driveService, forkRunner, startVeramo, startVeramoService };
