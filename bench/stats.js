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
 * Issue 9's targets, judged on the medians of the run. `cells` maps `<op>/<transport>` to
 * { throughput, half: { p99 } }, `veramo` maps a Veramo operation to { throughput }, and
 * `prefill` maps a log size to the issue throughput measured at it.
 */
function judgeTargets({ cells, veramo, prefill }) {
  const t = (key) => cells[key]?.throughput;
  const out = [];
  const add = (target, value, met, note) => out.push({ target, value, met: Number.isFinite(value) ? met : null, note });
  const issueRatio = ratio(t('fbIssue/REST'), veramo.issue?.throughput);
  add('REST issuance (Family B) ≥ 1.0x Veramo issue, 1 issuer, 16 connections', issueRatio, issueRatio >= 1.0, 'ratio');
  const faIssueRatio = ratio(t('faIssue/REST'), veramo.issue?.throughput);
  add('REST issuance (Family A) ≥ 1.0x Veramo issue', faIssueRatio, faIssueRatio >= 1.0, 'ratio');
  for (const op of ['fbVerify', 'faVerify']) {
    const r = ratio(t(`${op}/REST`), veramo.verify?.throughput);
    add(`REST verification (${op === 'fbVerify' ? 'Family B' : 'Family A'}) ≥ 2.0x Veramo verify`, r, r >= 2.0, 'ratio');
  }
  for (const op of ['faIssue', 'faVerify', 'fbIssue', 'fbVerify', 'vpCreate', 'vpVerify']) {
    // "Within 1.3x of REST": GraphQL's throughput is at least REST's / 1.3.
    const r = ratio(t(`${op}/REST`), t(`${op}/GraphQL`));
    if (Number.isFinite(r)) add(`GraphQL within 1.3x of REST: ${op}`, r, r <= 1.3, 'REST/GraphQL throughput');
  }
  for (const [key, cell] of Object.entries(cells)) {
    const p99 = cell.half?.p99;
    if (Number.isFinite(p99)) add(`p99 < 25 ms at half of peak: ${key}`, p99, p99 < 25, 'ms');
  }
  const sizes = Object.keys(prefill).map(Number).sort((a, b) => a - b);
  if (sizes.length >= 2) {
    const small = prefill[sizes[0]];
    const large = prefill[sizes[sizes.length - 1]];
    const r = ratio(large, small);
    add(`issue throughput at ${sizes[sizes.length - 1]} leaves within 10% of ${sizes[0]}`, r, r >= 0.9, 'large/small');
  }
  return out;
}

module.exports = { percentile, latencySummary, median, ratio, judgeTargets };
