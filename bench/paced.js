'use strict';
/**
 * Open-loop, evenly paced HTTP load (wrk2 style) for the "half of peak" runs of the service
 * benchmarks.
 *
 * Why not autocannon's `overallRate`: autocannon spreads the rate over its connections, and each
 * connection sends back-to-back until its quota for the second is used, then pauses until the
 * next second (node_modules/autocannon/lib/httpClient.js, `reqsMadeThisSecond`). "Half of peak" is
 * then full speed with every connection busy for half of each second and idle for the other half,
 * and its p99 is closed-loop queueing at peak, not latency at half the load. It also measures from
 * the moment a request is written, so time a request waited for its connection never shows
 * (coordinated omission).
 *
 * Here request i is due at t0 + i / rate (uniform inter-arrival) whatever happened to earlier ones,
 * and is sent over a pool of keep-alive connections (node:http Agent; up to `maxSockets` in flight,
 * more wait in the agent's queue). Latency runs from the request's *scheduled* time to the end of
 * its answer, so a stalled server, a full pool or a late timer of this process all count against
 * the figure, as in wrk2.
 *
 * The bench runs it in a child process of its own (`pacedRunInChild`, this file forked), not in the
 * bench process: that one holds the parties, the SDK and autocannon's leftovers (about 60 MB live;
 * --trace-gc showed 5-16 ms collections and a 57 ms mark-compact during the matrix on the loaded
 * 2-core machine), and every request due during a pause is charged for it. With the driver inside
 * the bench process its send lag p99 reached 38-88 ms in 4 of 12 cells; in the child, at most 33
 * ms in 12. The child's heap is this file and node:http only, and the bench's own flags (--cpu-prof,
 * --trace-gc) stay out.
 */
const http = require('node:http');
const { fork } = require('node:child_process');
const { percentile } = require('./stats');

/** Default bound on connections in flight: far above what half of a measured peak at 16 connections needs. */
const MAX_SOCKETS = 64;
/** A request without a byte of answer for this long is a failure (autocannon's default timeout). */
const TIMEOUT_MS = 10_000;

/** How many requests a run of `durationMs` at `rate` per second schedules (at least one). */
function scheduledCount(rate, durationMs) {
  return Math.max(1, Math.round((rate * durationMs) / 1000));
}

/**
 * Drives `round(rate × durationMs / 1000)` requests at `rate` per second against `baseUrl`, then
 * waits for every answer. `next()` gives each request's { method, path, body, headers } (body a
 * string or absent). An answer is a success when its status is 2xx and `failed(status, body)`
 * (optional; the body is read only when it is given) is false; anything else, a socket error or a
 * timeout is a failure. `latencies` (ms, successes only) run from the scheduled send time;
 * `sendLagMs` is how late this process actually wrote requests (p99 and max), so a reader can tell
 * the driver's own lateness from the server's; `elapsedMs` runs from t0 to the last answer;
 * `driverCpuMs` is this process's CPU time over the run (node:http costs a few tenths of a ms per
 * spaced-out request, several times autocannon's per request in bursts: on a 2-core machine that
 * is CPU the server does not get, so it is reported).
 */
async function pacedRun({ baseUrl, rate, durationMs, next, failed, maxSockets = MAX_SOCKETS, timeoutMs = TIMEOUT_MS }) {
  if (!(rate > 0) || !(durationMs > 0)) throw new Error(`paced: rate and durationMs must be positive (got ${rate}, ${durationMs})`);
  const url = new URL(baseUrl);
  const prefix = url.pathname.replace(/\/$/, '');
  const agent = new http.Agent({ keepAlive: true, maxSockets });
  const total = scheduledCount(rate, durationMs);
  const interval = 1000 / rate;
  const latencies = [];
  const lags = new Float64Array(total);
  let failures = 0;
  let answered = 0;
  let lastAnswer = 0;
  let allAnswered;
  const drained = new Promise((resolve) => (allAnswered = resolve));

  const send = (i, scheduled) => {
    lags[i] = performance.now() - scheduled;
    const r = next();
    const headers = { ...r.headers };
    if (r.body !== undefined) headers['content-length'] = Buffer.byteLength(r.body);
    let settled = false;
    // Exactly once per request: a socket error may follow a response already counted.
    const settle = (ok) => {
      if (settled) return;
      settled = true;
      lastAnswer = performance.now();
      if (ok) latencies.push(lastAnswer - scheduled);
      else failures++;
      if (++answered === total) allAnswered();
    };
    const req = http.request(
      { agent, protocol: url.protocol, hostname: url.hostname, port: url.port, method: r.method, path: prefix + r.path, headers, timeout: timeoutMs },
      (res) => {
        const status = res.statusCode ?? 0;
        const chunks = [];
        if (failed) res.on('data', (c) => chunks.push(c));
        else res.resume();
        res.once('end', () => settle(status >= 200 && status < 300 && !(failed && failed(status, Buffer.concat(chunks).toString('utf8')))));
        res.once('error', () => settle(false));
      },
    );
    req.once('timeout', () => req.destroy(new Error('timeout')));
    req.once('error', () => settle(false));
    req.end(r.body);
  };

  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let i = 0;
  await new Promise((resolve) => {
    // Send whatever is due (catching up after a late timer, never skipping), then sleep until the
    // next due time. Timers have millisecond granularity, so a send may be up to ~1 ms late, which
    // the latency from the scheduled time includes; whole milliseconds, because a fractional delay
    // makes Node's timer list wake and re-arm for the remainder, which costs CPU for nothing.
    const tick = () => {
      const now = performance.now();
      while (i < total && t0 + i * interval <= now) {
        send(i, t0 + i * interval);
        i++;
      }
      if (i >= total) return resolve();
      setTimeout(tick, Math.max(1, Math.floor(t0 + i * interval - performance.now())));
    };
    tick();
  });
  await drained;
  const cpu = process.cpuUsage(cpu0);
  agent.destroy();
  const sortedLags = lags.sort();
  return {
    latencies,
    failures,
    sent: total,
    elapsedMs: lastAnswer - t0,
    sendLagMs: { p99: percentile(sortedLags, 99), max: sortedLags[sortedLags.length - 1] },
    driverCpuMs: (cpu.user + cpu.system) / 1000,
  };
}

/** GraphQL answers 200 with an `errors` array when the operation failed: the bench counts those as failures. */
const graphqlFailed = (status, body) => status === 200 && body.includes('"errors":[');

let child;
let nextId = 0;
const waiting = new Map();

/** The child, forked once and kept warm (JIT, sockets aside) across runs; it exits with the bench. */
function driverChild() {
  if (child) return child;
  // No inherited execArgv: the bench's --cpu-prof or --trace-gc must not apply to the driver.
  child = fork(__filename, [], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  child.on('message', (msg) => {
    const w = waiting.get(msg.id);
    if (!w) return;
    waiting.delete(msg.id);
    if (waiting.size === 0) child?.channel?.unref();
    if (msg.ok) w.resolve(msg.result);
    else w.reject(new Error(`paced driver: ${msg.error}`));
  });
  child.once('exit', (code, signal) => {
    for (const w of waiting.values()) w.reject(new Error(`paced driver exited (${code ?? signal})`));
    waiting.clear();
    child = undefined;
  });
  // Idle between runs it must not keep the bench (or a test worker) alive.
  child.unref();
  child.channel?.unref();
  return child;
}

/**
 * pacedRun in the driver child. `requests` are plain { method, path, body, headers }; request i is
 * `requests[sequence[i]]` when `sequence` is given, else `requests[i % requests.length]`.
 * `graphql`: a 200 with an `errors` array is a failure. Same result as pacedRun.
 */
function pacedRunInChild({ baseUrl, rate, durationMs, requests, sequence, graphql = false, maxSockets, timeoutMs }) {
  const c = driverChild();
  const id = ++nextId;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    c.channel?.ref();
    c.send({ id, baseUrl, rate, durationMs, requests, sequence, graphql, maxSockets, timeoutMs });
  });
}

/** Ends the driver child, if one runs (tests; the bench just exits, and the child with it). */
async function stopPacedChild() {
  const c = child;
  if (!c) return;
  const exited = new Promise((resolve) => c.once('exit', resolve));
  c.disconnect();
  await exited;
}

/** The child side: one run per message, answered with its result. */
function childMain() {
  process.on('disconnect', () => process.exit(0));
  process.on('message', async (msg) => {
    try {
      let i = 0;
      const next = msg.sequence ? () => msg.requests[msg.sequence[i++]] : () => msg.requests[i++ % msg.requests.length];
      const result = await pacedRun({ ...msg, next, failed: msg.graphql ? graphqlFailed : undefined });
      process.send({ id: msg.id, ok: true, result });
    } catch (e) {
      process.send({ id: msg.id, ok: false, error: e instanceof Error ? e.message : String(e) });
    }
  });
}

if (require.main === module && process.send) childMain();

module.exports = { pacedRun, pacedRunInChild, stopPacedChild, scheduledCount, graphqlFailed, MAX_SOCKETS };
