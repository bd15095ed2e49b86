'use strict';
/**
 * Load on both sides, with the cost read from /proc around each run: autocannon against the
 * service over loopback, and the forked library runners (Veramo, Digital Bazaar) in-process.
 */
const { fork } = require('node:child_process');
const path = require('node:path');
const autocannon = require('autocannon');
const { cpuMs, peakRssMb, resetPeakRss } = require('./proc');
const { latencySummary } = require('./stats');

/** Wraps a run with CPU time and peak RSS of process `pid`; `count` is the number of completed operations. */
async function measured(pid, run) {
  resetPeakRss(pid);
  const cpu0 = cpuMs(pid);
  const r = await run();
  const cpu = cpuMs(pid) - cpu0;
  return { ...r, cpuMsPerOp: r.count > 0 ? cpu / r.count : NaN, peakRssMb: peakRssMb(pid) };
}

/**
 * One autocannon run of `req` ({ method, path, body, headers }, or a `pick` function for
 * rotating requests): `connections` in flight, or `overallRate` per second over them. GraphQL
 * answers 200 with an `errors` array, so those bodies are counted as failures too.
 */
async function driveService(server, req, apiKey, { connections, durationMs, overallRate, graphql = false }) {
  let gqlErrors = 0;
  const onResponse = graphql
    ? (status, body) => {
        if (status === 200 && body.includes('"errors":[')) gqlErrors++;
      }
    : undefined;
  const base = { 'content-type': 'application/json', 'x-api-key': apiKey };
  const request = req.pick
    ? {
        setupRequest: (r) => {
          const p = req.pick();
          return { ...r, method: p.method, path: p.path, body: p.body, headers: { ...base, ...p.headers, 'x-api-key': p.apiKey } };
        },
      }
    : { method: req.method, path: req.path, body: req.body, headers: { ...base, ...req.headers } };
  return measured(server.pid, async () => {
    const result = await autocannon({
      url: server.baseUrl,
      connections,
      duration: durationMs / 1000,
      ...(overallRate ? { overallRate } : {}),
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

module.exports = { driveService, forkRunner, startVeramo };
