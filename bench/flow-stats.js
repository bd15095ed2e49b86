'use strict';
/**
 * Pure helpers of the wallet benchmark (bench/oid4vc.bench.js): a bounded pool of concurrent
 * multi-step flows, and per-step p50/p99 plus whole-flow throughput of what it recorded.
 * Unit-tested in test/unit/oid4vc-bench-helpers.test.ts.
 */
const { latencySummary } = require('./stats');

/**
 * Runs `flow(wallet, record)` in `concurrency` loops until `maxFlows` flows have started or
 * `maxMs` has passed (both bounds, so a slow machine cannot run away and a fast one stops). A
 * flow times its own steps through `record(step, ms)`; a flow that throws counts as a failure
 * and its steps are kept out of the figures (a refusal would otherwise look fast).
 * `now` is injectable so the bounds can be tested without a clock.
 */
async function runFlows({ concurrency, maxFlows, maxMs, flow, now = () => performance.now() }) {
  if (!(concurrency >= 1) || !(maxFlows >= 1) || !(maxMs > 0)) throw new Error('runFlows: concurrency, maxFlows and maxMs must be positive');
  const started = now();
  let begun = 0;
  const completed = [];
  const failures = [];
  const loop = async (wallet) => {
    while (begun < maxFlows && now() - started < maxMs) {
      begun++;
      const steps = [];
      const t0 = now();
      try {
        await flow(wallet, (step, ms) => steps.push({ step, ms }));
        completed.push({ steps, ms: now() - t0 });
      } catch (e) {
        failures.push(e instanceof Error ? e.message : String(e));
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, (_, i) => loop(i)));
  return { completed, failures, elapsedMs: now() - started };
}

/**
 * Per step (in the order steps first appear) count, p50 and p99 in ms; the whole flow's p50/p99;
 * and completed flows per second over the run. Failures are counted, never averaged in.
 */
function summarizeFlows({ completed, failures, elapsedMs }) {
  const order = [];
  const byStep = new Map();
  for (const f of completed) {
    for (const { step, ms } of f.steps) {
      if (!byStep.has(step)) {
        byStep.set(step, []);
        order.push(step);
      }
      byStep.get(step).push(ms);
    }
  }
  const steps = order.map((step) => ({ step, ...latencySummary(byStep.get(step)) }));
  return {
    steps,
    flow: latencySummary(completed.map((f) => f.ms)),
    flowsPerSecond: elapsedMs > 0 ? (completed.length * 1000) / elapsedMs : NaN,
    completed: completed.length,
    failures: failures.length,
    firstFailure: failures[0] ?? null,
  };
}

module.exports = { runFlows, summarizeFlows };
