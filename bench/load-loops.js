'use strict';
/**
 * In-process load loops for the Veramo side: the same two shapes the bench applies to the server.
 * Closed loop: latency from the call's start, as autocannon measures from the request's send.
 * Open loop: latency from the call's scheduled time, as bench/paced.js measures the server's half
 * peak, so on both sides a call that waited behind earlier ones (or behind a late timer) counts.
 */

/** `concurrency` calls in flight for `durationMs`: each finished call starts the next. */
async function closedLoop(op, concurrency, durationMs) {
  const latencies = [];
  let errors = 0;
  const start = performance.now();
  const deadline = start + durationMs;
  const worker = async () => {
    while (performance.now() < deadline) {
      const t = performance.now();
      try {
        await op();
        latencies.push(performance.now() - t);
      } catch {
        errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { latencies, errors, elapsedMs: performance.now() - start };
}

/** Calls started at a fixed `rate` per second for `durationMs` (open loop), then all awaited. */
async function openLoop(op, rate, durationMs) {
  const latencies = [];
  let errors = 0;
  const start = performance.now();
  const total = Math.max(1, Math.round((rate * durationMs) / 1000));
  const pending = [];
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    // From the due time, not from when the timer let us start (no coordinated omission).
    const t = due;
    pending.push(
      Promise.resolve()
        .then(op)
        .then(
          () => latencies.push(performance.now() - t),
          () => errors++,
        ),
    );
  }
  await Promise.all(pending);
  return { latencies, errors, elapsedMs: performance.now() - start };
}

module.exports = { closedLoop, openLoop };
