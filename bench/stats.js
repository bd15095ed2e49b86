'use strict';
/** Pure statistics and verdict helpers of the service benchmark (unit-tested in test/unit/bench-helpers.test.ts). */

/** Nearest-rank percentile (0 < p ≤ 100) of an ascending array; NaN when empty. */
function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

/** Count, p50 and p99 (ms) of a list of latencies in ms. */
function latencySummary(latencies) {
  const sorted = Float64Array.from(latencies).sort();
  return { count: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
}

/** Median of numbers (mean of the middle two for an even count); NaN when empty. */
function median(values) {
  const v = values.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (v.length === 0) return NaN;
  const mid = Math.floor(v.length / 2);
  return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

/** a / b, or NaN when either is not a positive finite number. */
function ratio(a, b) {
  return Number.isFinite(a) && Number.isFinite(b) && b > 0 ? a / b : NaN;
}

/**
 * Issue 19's targets, judged on the medians of one run (printed by `npm run bench`, never
 * asserted by `npm test`). `cells` maps `<op>/<transport>` to { throughput, cpuMsPerOp,
 * half: { p99 } }; `veramo` and `veramoService` map a Veramo operation (issue, verify) to
 * { throughput } of Veramo in-process and of the Veramo service; `prefill` maps a log size to the
 * issue throughput measured at it; `issuers` maps a number of issuers issuing at once to the
 * throughput. A figure the run did not measure is reported with met: null, never as met.
 */
function judgeTargets({ cells, veramo, veramoService = {}, prefill = {}, issuers = {} }) {
  const t = (key) => cells[key]?.throughput;
  const out = [];
  const add = (target, value, met, note) => out.push({ target, value, met: Number.isFinite(value) ? met : null, note });
  for (const [family, op] of [
    ['Family B', 'fbIssue'],
    ['Family A', 'faIssue'],
  ]) {
    const inProcess = ratio(t(`${op}/REST`), veramo.issue?.throughput);
    add(`REST issue (${family}) ≥ 0.5x Veramo in-process`, inProcess, inProcess >= 0.5, 'ratio');
    const service = ratio(t(`${op}/REST`), veramoService.issue?.throughput);
    add(`REST issue (${family}) ≥ 3x the Veramo service`, service, service >= 3, 'ratio');
  }
  const verifyInProcess = ratio(t('fbVerify/REST'), veramo.verify?.throughput);
  add('REST verify (Family B) ≥ 1.0x Veramo in-process', verifyInProcess, verifyInProcess >= 1.0, 'ratio');
  const verifyService = ratio(t('fbVerify/REST'), veramoService.verify?.throughput);
  add('REST verify (Family B) ≥ 2x the Veramo service', verifyService, verifyService >= 2, 'ratio');
  const issueCpu = cells['fbIssue/REST']?.cpuMsPerOp;
  add('CPU per issued credential ≤ 1.5 ms (Family B, REST, server process)', issueCpu, issueCpu <= 1.5, 'ms');
  const verifyCpu = cells['fbVerify/REST']?.cpuMsPerOp;
  add('CPU per verification ≤ 1 ms (Family B, REST, server process)', verifyCpu, verifyCpu <= 1, 'ms');
  for (const [key, cell] of Object.entries(cells)) {
    const p99 = cell.half?.p99;
    if (Number.isFinite(p99)) add(`p99 < 25 ms at half of peak: ${key}`, p99, p99 < 25, 'ms');
  }
  const tenIssuers = ratio(issuers[10], issuers[1]);
  add('10 issuers at once ≥ 0.9x one issuer', tenIssuers, tenIssuers >= 0.9, 'ratio');
  const sizes = Object.keys(prefill).map(Number).sort((a, b) => a - b);
  const largest = sizes[sizes.length - 1];
  const leaves = sizes.length >= 2 ? ratio(prefill[largest], prefill[sizes[0]]) : NaN;
  add(`issue throughput at ${sizes.length >= 2 ? largest : 'the largest'} leaves within 5% of ${sizes.length >= 2 ? sizes[0] : 'the smallest'}`, leaves, leaves >= 0.95, 'ratio');
  return out;
}

module.exports = { percentile, latencySummary, median, ratio, judgeTargets };
