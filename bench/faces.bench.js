#!/usr/bin/env node
/**
 * Face engine benchmark: cold start, per-photo latency, throughput, peak memory.
 *
 *   npm run build --silent && node bench/faces.bench.js [--iterations=5] [--cold-runs=3] [--photos=DIR] [--json]
 *
 * Uses the compiled engine (dist/biometrics) and the photos of test/fixtures/faces. Every
 * scenario runs in its own child process, so cold starts are really cold and each peak RSS
 * (process.resourceUsage().maxRSS: the whole process, i.e. the main thread plus every worker
 * thread's V8 heap and WASM memory) belongs to that scenario alone.
 */
'use strict';
const { execFileSync } = require('node:child_process');
const { readFileSync, readdirSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { performance, monitorEventLoopDelay } = require('node:perf_hooks');

const { ROOT, args } = require('./args');
const ITERATIONS = Number(args.iterations ?? 5);
const COLD_RUNS = Number(args['cold-runs'] ?? 3);
const PHOTO_DIR = path.resolve(args.photos ?? path.join(ROOT, 'test', 'fixtures', 'faces'));

function loadPhotos() {
  return readdirSync(PHOTO_DIR)
    .filter((f) => /\.(jpe?g|png|webp)$/i.test(f))
    .sort()
    .map((name) => ({ name, bytes: readFileSync(path.join(PHOTO_DIR, name)) }));
}

const quantile = (sorted, q) => {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1)); // nearest rank
  return sorted[i];
};
const ms = (x) => Math.round(x * 10) / 10;
const mb = (bytes) => Math.round(bytes / (1024 * 1024));
const peakRssBytes = () => process.resourceUsage().maxRSS * 1024;

// ---------------------------------------------------------------------------------------------
// Child scenarios: each prints one JSON line.

async function scenarioCold(workers) {
  const photos = loadPhotos();
  const first = photos.find((p) => p.name.startsWith('obama')) ?? photos[0];
  const t0 = performance.now();
  const { createFaceEngine } = require(path.join(ROOT, 'dist', 'biometrics'));
  const t1 = performance.now();
  const engine = createFaceEngine(workers === undefined ? {} : { workers });
  const t2 = performance.now();
  const r = await engine.createTemplate(first.bytes);
  const t3 = performance.now();
  await engine.close();
  if (!r.templateCreationResult) throw new Error('cold start photo produced no template');
  return { requireMs: ms(t1 - t0), createEngineMs: ms(t2 - t1), firstTemplateMs: ms(t3 - t2), totalMs: ms(t3 - t0), peakRssMb: mb(peakRssBytes()) };
}

async function scenarioLatency() {
  const { createFaceEngine } = require(path.join(ROOT, 'dist', 'biometrics'));
  const photos = loadPhotos();
  const engine = createFaceEngine({ workers: 1 });
  await engine.warmup();
  const all = [];
  const perPhoto = Object.fromEntries(photos.map((p) => [p.name, []]));
  for (let i = 0; i < ITERATIONS; i++) {
    for (const p of photos) {
      const t = performance.now();
      await engine.createTemplate(p.bytes);
      const d = performance.now() - t;
      all.push(d);
      perPhoto[p.name].push(d);
    }
  }
  await engine.close();
  all.sort((a, b) => a - b);
  const summary = {};
  for (const [name, xs] of Object.entries(perPhoto)) {
    xs.sort((a, b) => a - b);
    summary[name] = ms(quantile(xs, 0.5));
  }
  return {
    workers: 1,
    samples: all.length,
    medianMs: ms(quantile(all, 0.5)),
    p95Ms: ms(quantile(all, 0.95)),
    minMs: ms(all[0]),
    maxMs: ms(all[all.length - 1]),
    perPhotoMedianMs: summary,
    peakRssMb: mb(peakRssBytes()),
  };
}

async function scenarioThroughput(workers) {
  const { createFaceEngine, poolSize } = require(path.join(ROOT, 'dist', 'biometrics'));
  const photos = loadPhotos();
  const size = poolSize(workers);
  const engine = createFaceEngine({ workers: size });
  await engine.warmup();
  const total = photos.length * ITERATIONS;
  const inFlight = 2 * size; // keeps every worker busy while the next image decodes
  const loop = monitorEventLoopDelay({ resolution: 1 }); // samples every 1 ms; an idle loop reads ~1.1 ms
  let rssSampled = 0;
  const sampler = setInterval(() => (rssSampled = Math.max(rssSampled, process.memoryUsage().rss)), 50);
  let next = 0;
  loop.enable();
  const t = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < total) {
        const p = photos[next++ % photos.length];
        await engine.createTemplate(p.bytes);
      }
    }),
  );
  const elapsed = performance.now() - t;
  loop.disable();
  clearInterval(sampler);
  await engine.close();
  return {
    workers: size,
    photos: total,
    seconds: Math.round(elapsed) / 1000,
    photosPerSecond: Math.round((total / elapsed) * 1000 * 100) / 100,
    eventLoopDelayP99Ms: ms(loop.percentile(99) / 1e6),
    eventLoopDelayMaxMs: ms(loop.max / 1e6),
    peakRssMb: mb(Math.max(peakRssBytes(), rssSampled)),
  };
}

// ---------------------------------------------------------------------------------------------
// Parent: runs each scenario in a fresh process and prints the report.

function child(scenario, extra = []) {
  const out = execFileSync(process.execPath, [__filename, `--scenario=${scenario}`, `--iterations=${ITERATIONS}`, `--photos=${PHOTO_DIR}`, ...extra], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 16 * 1024 * 1024,
  });
  const line = out.trim().split('\n').pop();
  return JSON.parse(line);
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

async function parent() {
  const cores = os.availableParallelism();
  const photos = loadPhotos();
  const report = {
    date: new Date().toISOString(),
    machine: { cpu: os.cpus()[0]?.model ?? 'unknown', cores, memoryGb: Math.round(os.totalmem() / 2 ** 30), node: process.version, platform: `${process.platform}-${process.arch}` },
    photos: photos.map((p) => p.name),
    iterations: ITERATIONS,
    cold: {},
  };
  for (const [label, extra] of [['1 worker', ['--workers=1']], [`default (${cores} workers)`, []]]) {
    const runs = [];
    for (let i = 0; i < COLD_RUNS; i++) runs.push(child('cold', extra));
    report.cold[label] = {
      runs,
      medianFirstTemplateMs: median(runs.map((r) => r.firstTemplateMs)),
      medianTotalMs: median(runs.map((r) => r.totalMs)),
    };
  }
  report.latency = child('latency');
  report.throughput = [child('throughput', ['--workers=1'])];
  if (cores > 1) report.throughput.push(child('throughput', [`--workers=${cores}`]));

  if (args.json === 'true') {
    console.log(JSON.stringify(report, null, 2));
    return;
  }
  const lines = [];
  lines.push(`Face engine benchmark — ${report.date}`);
  lines.push(`machine: ${report.machine.cpu}, ${cores} cores, ${report.machine.memoryGb} GB, Node ${report.machine.node}, ${report.machine.platform}`);
  lines.push(`photos: ${photos.length} from ${PHOTO_DIR}; ${ITERATIONS} iterations`);
  lines.push('');
  lines.push('cold start (fresh process: require + createFaceEngine + first createTemplate; median of runs)');
  for (const [label, c] of Object.entries(report.cold)) {
    lines.push(`  ${label}: first template ${c.medianFirstTemplateMs} ms, total ${c.medianTotalMs} ms  (runs: ${c.runs.map((r) => r.totalMs).join(', ')} ms; peak RSS ${c.runs.map((r) => r.peakRssMb).join('/')} MB)`);
  }
  const l = report.latency;
  lines.push('');
  lines.push(`per-photo latency, 1 worker, sequential, warm (${l.samples} samples): median ${l.medianMs} ms, p95 ${l.p95Ms} ms, min ${l.minMs}, max ${l.maxMs}; peak RSS ${l.peakRssMb} MB`);
  for (const [name, m] of Object.entries(l.perPhotoMedianMs)) lines.push(`  ${name.padEnd(24)} median ${m} ms`);
  lines.push('');
  for (const t of report.throughput) {
    lines.push(`throughput, ${t.workers} worker(s), ${2 * t.workers} in flight: ${t.photosPerSecond} photos/s (${t.photos} photos in ${t.seconds} s); event-loop delay p99 ${t.eventLoopDelayP99Ms} ms, max ${t.eventLoopDelayMaxMs} ms; peak RSS ${t.peakRssMb} MB`);
  }
  console.log(lines.join('\n'));
}

async function main() {
  const scenario = args.scenario;
  const workers = args.workers === undefined ? undefined : Number(args.workers);
  if (scenario === undefined) return parent();
  const result = scenario === 'cold' ? await scenarioCold(workers) : scenario === 'latency' ? await scenarioLatency() : await scenarioThroughput(workers);
  process.stdout.write(`${JSON.stringify(result)}\n`);
  return undefined;
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
});
