#!/usr/bin/env node
/**
 * Service benchmark (issues 9 and 19): Credgate over HTTP against Veramo 7 in-process and against
 * Veramo 7 as a service, in the same run.
 *
 *   npm run bench                               # build, then the whole run (~10 min on 2 cores)
 *   node bench/service.bench.js [--quick] [--json] [--duration=4] [--rounds=2] [--only=...] [--profile]
 *
 * A fresh database on the PostgreSQL server of DATABASE_URL (default postgres@127.0.0.1:5432),
 * dropped at the end; the compiled service as a child process on a loopback port; Veramo in a
 * forked child (bench/veramo-runner.js). For each operation (Family A issue/verify, Family B
 * issue/verify, VP create/verify) and transport (REST, GraphQL), each round runs, interleaved so
 * machine noise hits both sides alike: Credgate at 16 connections (autocannon), Veramo at 16 calls
 * in flight, Credgate at half its peak (bench/paced.js), Veramo at half its peak (an open loop in
 * the child); for issue and verify then the Veramo service (bench/veramo-service.js: a Veramo
 * agent over HTTP with @veramo/data-store on its own database of the same PostgreSQL) driven
 * exactly like Credgate, at 16 connections and at half its peak. CPU per operation and peak RSS
 * come from /proc of the server, of the Veramo child and of the Veramo service.
 * Peak: 16 connections, each sending its next request when the previous answer arrives (closed
 * loop); p50/p99 there are latencies under saturation. Half of peak: an open loop at half the
 * measured peak rate, requests evenly spaced (t0 + i/rate) over up to 64 keep-alive connections
 * from a driver process of its own, latency from each request's *scheduled* send, so time spent
 * waiting behind a slow answer counts (no coordinated omission); that p99 is issue 19's "p99 < 25
 * ms at half of peak". Not autocannon's overallRate: it sends each connection's quota back-to-back
 * at the start of every second, i.e. runs at full speed half of the time (see bench/paced.js and
 * docs/BENCHMARKS.md). The log line of each cell also gives the driver's send lag (p99) and CPU
 * per request, so a stall of the driver is not read as the server's.
 * Then the scaling runs: Family B issue and verify on issuer logs pre-filled to 10^3, 10^5 and 10^6
 * leaves (bench/prefill.js), and issue with 1, 10 and 100 issuers (one tenant each) at once.
 *
 * --workers=N: run Credgate as `credgate start --workers N` (node:cluster; CPU per operation and
 * RSS are then summed over the primary and its workers; no --profile).
 * --quick: 1.5 s runs, one round, no 10^6 log (a smoke run). --only=: a comma list of operations
 * (faIssue, faVerify, fbIssue, fbVerify, vpCreate, vpVerify) and/or sections (matrix, prefill,
 * issuers, profile, wallets). wallets: the OID4VCI and OID4VP flows against the libraries alone
 * (bench/oid4vc.bench.js, also `npm run bench:wallets`), run last with their own database and
 * service; `--only=wallets` runs only them. --profile (or --only=profile): also run the server under --cpu-prof for one
 * Family B issue round and one verify round and summarise the top frames.
 * Results: a table on stdout (or JSON with --json) and bench/results/service-<date>.json;
 * `--report=<that file>` prints the tables of a saved run again.
 */
'use strict';
const crypto = require('node:crypto');
const fs = require('node:fs');
const { runOrReport } = require('./entry');
const os = require('node:os');
const path = require('node:path');
const { Client } = require('pg');

const { ROOT, args } = require('./args');
const { createDatabase, dropDatabase, freePort, serviceEnv, startServer } = require('./service-process');
const { createTenantKeys, sdkFor, keyedDid, setupMain, setupScalingIssuer, verifyRequestFor } = require('./setup');
const { driveService, startVeramo, startVeramoService } = require('./drive');
const { MAX_SOCKETS } = require('./paced');
const { prefillLog } = require('./prefill');
const { summariseProfile } = require('./cpu-profile');
const { median, ratio, judgeTargets } = require('./stats');

const QUICK = args.quick === 'true';
const DURATION_MS = Number(args.duration ?? (QUICK ? 1.5 : 4)) * 1000;
const ROUNDS = Number(args.rounds ?? (QUICK ? 1 : 2));
/** --workers=N: Credgate as `credgate start --workers N` (node:cluster); CPU and RSS summed over the primary and its workers. */
const WORKERS = Number(args.workers ?? 1);
if (!Number.isInteger(WORKERS) || WORKERS < 1) {
  console.error('bench: --workers must be a positive integer');
  process.exit(2);
}
const CONNECTIONS = 16;
const OPS = ['faIssue', 'faVerify', 'fbIssue', 'fbVerify', 'vpCreate', 'vpVerify'];
const VERAMO_OP = { faIssue: 'issue', fbIssue: 'issue', faVerify: 'verify', fbVerify: 'verify', vpCreate: 'vpCreate', vpVerify: 'vpVerify' };
const TRANSPORTS = ['REST', 'GraphQL'];
const PREFILL_SIZES = QUICK ? [1e3, 1e5] : [1e3, 1e5, 1e6];
const ISSUER_COUNTS = [1, 10, 100];

const only = (args.only ?? '').split(',').filter(Boolean);
const SECTIONS = ['matrix', 'prefill', 'issuers', 'profile', 'wallets'];
const onlySections = only.filter((o) => SECTIONS.includes(o));
const onlyOps = only.filter((o) => OPS.includes(o));
const unknown = only.filter((o) => !SECTIONS.includes(o) && !OPS.includes(o));
if (unknown.length > 0) {
  console.error(`bench: unknown --only entries: ${unknown.join(', ')} (operations: ${OPS.join(', ')}; sections: ${SECTIONS.join(', ')})`);
  process.exit(2);
}
/** Sections to run: all but the profile by default; --only narrows (operations alone: the matrix only). */
function runs(section) {
  // One profile file per process would be written under a cluster; the profile section profiles one.
  const profile = args.profile === 'true' && WORKERS === 1;
  if (onlySections.length > 0) return onlySections.includes(section) || (section === 'profile' && profile);
  if (onlyOps.length > 0) return section === 'matrix' || (section === 'profile' && profile);
  return section === 'profile' ? profile : true;
}
const matrixOps = onlyOps.length > 0 ? onlyOps : OPS;

const log = (...a) => process.stderr.write(`${a.join(' ')}\n`);
const fmt = (n, d = 0) => (Number.isFinite(n) ? n.toFixed(d) : '–');
const fmtRatio = (n) => (Number.isFinite(n) ? `${n.toFixed(2)}x` : '–');

/** Median of each numeric field over the rounds of one cell. */
function aggregate(list) {
  const pick = (f) => median(list.map(f));
  return {
    throughput: pick((r) => r.peak.throughput),
    p50: pick((r) => r.peak.p50),
    p99: pick((r) => r.peak.p99),
    half: {
      rate: pick((r) => r.half.rate),
      p50: pick((r) => r.half.p50),
      p99: pick((r) => r.half.p99),
      // The paced driver's own lateness and CPU (HTTP sides only; the Veramo child has neither).
      sendLagP99: pick((r) => r.half.sendLagMs?.p99),
      driverCpuMsPerOp: pick((r) => r.half.driverCpuMsPerOp),
    },
    cpuMsPerOp: pick((r) => r.peak.cpuMsPerOp),
    peakRssMb: Math.max(...list.map((r) => Math.max(r.peak.peakRssMb, r.half.peakRssMb))),
    failures: list.reduce((a, r) => a + r.peak.failures + r.half.failures, 0),
    rounds: list.length,
  };
}

async function main() {
  const started = Date.now();
  const masterKey = crypto.randomBytes(32).toString('hex');
  const db = await createDatabase();
  const port = await freePort();
  const env = serviceEnv({ databaseUrl: db.url, port, masterKey });
  let server;
  let veramo;
  let veramoService;
  let veramoDb;
  const out = { meta: {}, matrix: {}, veramo: {}, veramoService: {}, prefill: [], issuers: [], profiles: [], targets: [] };
  try {
    log(`bench: database ${db.name}, port ${port}, ${DURATION_MS / 1000} s runs, ${ROUNDS} round(s)`);
    const issuerTenants = Array.from({ length: Math.max(...ISSUER_COUNTS) }, (_, i) => `bench-issuer-${i}`);
    const keys = await createTenantKeys(ROOT, env, ['bench-main', ...(runs('issuers') ? issuerTenants : [])]);
    const mainKey = keys['bench-main'];
    server = await startServer(ROOT, env, { workers: WORKERS });
    log('bench: setting up parties');
    const main = await setupMain(ROOT, server.baseUrl, mainKey);
    const scaling = runs('prefill') ? await Promise.all(PREFILL_SIZES.map(() => setupScalingIssuer(main.sdk, main.fbHolder.did))) : [];
    const issuerSets = runs('issuers') ? await setupIssuerTenants(issuerTenants, keys, server.baseUrl) : [];

    if (scaling.length > 0) {
      // Prefill with the service stopped (nothing may append meanwhile), then start it afresh.
      await server.stop();
      await prefillAll(db.url, scaling, env);
      server = await startServer(ROOT, env, { workers: WORKERS });
    }

    veramo = await startVeramo();
    out.meta = meta(veramo.versions);
    if (runs('matrix') && matrixOps.some((op) => ['issue', 'verify'].includes(VERAMO_OP[op]))) {
      veramoDb = await createDatabase();
      veramoService = await startVeramoService({ databaseUrl: veramoDb.url, port: await freePort() });
      out.meta.veramoService = `Veramo ${veramoService.versions.veramo} agent, @veramo/data-store on PostgreSQL, Express ${veramoService.versions.express} (bench/veramo-service.js)`;
    }

    if (runs('matrix')) await runMatrix(server, mainKey, main.requests, veramo, veramoService, out);
    veramo.stop();
    veramo = undefined;
    await veramoService?.stop();
    veramoService = undefined;
    if (scaling.length > 0) await runPrefill(server, mainKey, main, scaling, out);
    if (issuerSets.length > 0) await runIssuers(server, mainKey, main, issuerSets, out);
    if (runs('profile')) {
      await server.stop();
      server = undefined;
      out.profiles = await runProfiles(env, mainKey, main.requests, issuerSets);
    }

    out.targets = judgeTargets({
      cells: Object.fromEntries(Object.entries(out.matrix).map(([k, v]) => [k, v.credgate])),
      veramo: out.veramo,
      veramoService: out.veramoService,
      prefill: Object.fromEntries(out.prefill.map((p) => [p.size, p.issue.throughput])),
      issuers: Object.fromEntries(out.issuers.map((r) => [r.issuers, r.throughput])),
    });
    out.meta.wallSeconds = Math.round((Date.now() - started) / 1000);
    out.meta.loadavgAfter = os.loadavg().map((l) => l.toFixed(2)).join(' ');
    report(out);
  } finally {
    veramo?.stop();
    await veramoService?.stop();
    if (veramoDb) await dropDatabase(veramoDb.name).catch((e) => log(`bench: could not drop ${veramoDb.name}: ${e.message}`));
    if (server) {
      const r = await server.stop();
      if (r.code !== 0 && r.code !== null) log(`bench: service exited with ${r.code}: ${server.stderr()}`);
    }
    await dropDatabase(db.name).catch((e) => log(`bench: could not drop ${db.name}: ${e.message}`));
  }
}

function meta(veramoVersions) {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  return {
    date: new Date().toISOString(),
    command: `node bench/service.bench.js ${process.argv.slice(2).join(' ')}`.trim(),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cores: os.availableParallelism(),
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    loadavgBefore: os.loadavg().map((l) => l.toFixed(2)).join(' '),
    credgate: pkg.version,
    veramo: veramoVersions.veramo,
    autocannon: require('autocannon/package.json').version,
    halfPeakDriver: `bench/paced.js: open loop, evenly paced, latency from the scheduled send, up to ${MAX_SOCKETS} keep-alive connections`,
    durationSeconds: DURATION_MS / 1000,
    rounds: ROUNDS,
    connections: CONNECTIONS,
    workers: WORKERS,
  };
}

/** Each request once, checked, then a short warm-up: a failing request would otherwise look fast. */
async function preflight(server, req, apiKey, label) {
  const res = await fetch(server.baseUrl + req.path, { method: req.method, headers: { 'content-type': 'application/json', 'x-api-key': apiKey, ...req.headers }, body: req.body });
  const text = await res.text();
  if (res.status >= 300 || text.includes('"errors":[')) throw new Error(`bench: ${label} answered ${res.status}: ${text.slice(0, 400)}`);
  await driveService(server, req, apiKey, { connections: CONNECTIONS, durationMs: Math.min(DURATION_MS, 1000), graphql: req.path === '/graphql' });
}

async function runMatrix(server, apiKey, requests, veramo, veramoService, out) {
  const cells = {};
  const vcells = {};
  const scells = {};
  for (const op of matrixOps) for (const t of TRANSPORTS) await preflight(server, requests[op][t], apiKey, `${op}/${t}`);
  for (const v of new Set(matrixOps.map((op) => VERAMO_OP[op]))) {
    await veramo.run(v, { concurrency: CONNECTIONS, durationMs: 1000 });
    if (veramoService?.requests[v]) await driveService(veramoService, veramoService.requests[v], '', { connections: CONNECTIONS, durationMs: 1000 });
  }
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate the transport order between rounds, so neither always runs first.
    const transports = round % 2 === 0 ? TRANSPORTS : [...TRANSPORTS].reverse();
    for (const op of matrixOps) {
      for (const t of transports) {
        const req = requests[op][t];
        const vop = VERAMO_OP[op];
        const graphql = t === 'GraphQL';
        const a = await driveService(server, req, apiKey, { connections: CONNECTIONS, durationMs: DURATION_MS, graphql });
        const v = await veramo.run(vop, { concurrency: CONNECTIONS, durationMs: DURATION_MS });
        const aRate = Math.max(1, Math.round(a.throughput / 2));
        const vRate = Math.max(1, Math.round(v.throughput / 2));
        const ah = await driveService(server, req, apiKey, { rate: aRate, durationMs: DURATION_MS, graphql });
        const vh = await veramo.run(vop, { rate: vRate, durationMs: DURATION_MS });
        (cells[`${op}/${t}`] ??= []).push({ peak: a, half: { ...ah, rate: aRate } });
        (vcells[vop] ??= []).push({ peak: v, half: { ...vh, rate: vRate } });
        let service = '';
        const sreq = veramoService?.requests[vop];
        if (sreq) {
          // The Veramo service, right after, driven like Credgate: 16 connections, then paced at half its own peak.
          const s = await driveService(veramoService, sreq, '', { connections: CONNECTIONS, durationMs: DURATION_MS });
          const sRate = Math.max(1, Math.round(s.throughput / 2));
          const sh = await driveService(veramoService, sreq, '', { rate: sRate, durationMs: DURATION_MS });
          (scells[vop] ??= []).push({ peak: s, half: { ...sh, rate: sRate } });
          service = `, Veramo service ${fmt(s.throughput)}/s (failures ${s.failures + sh.failures})`;
        }
        log(
          `round ${round + 1} ${op}/${t}: ${fmt(a.throughput)}/s (Veramo ${vop} ${fmt(v.throughput)}/s${service}), p50 ${fmt(a.p50, 1)} ms, p99 ${fmt(a.p99, 1)} ms; ` +
            `paced at ${aRate}/s p50 ${fmt(ah.p50, 1)} ms p99 ${fmt(ah.p99, 1)} ms (driver: send lag p99 ${fmt(ah.sendLagMs.p99, 1)} ms, ${fmt(ah.driverCpuMsPerOp, 2)} ms CPU/req); failures ${a.failures + ah.failures}`,
        );
      }
    }
  }
  for (const [vop, list] of Object.entries(vcells)) out.veramo[vop] = aggregate(list);
  for (const [vop, list] of Object.entries(scells)) out.veramoService[vop] = aggregate(list);
  for (const [key, list] of Object.entries(cells)) {
    const op = key.split('/')[0];
    const credgate = aggregate(list);
    out.matrix[key] = { op, transport: key.split('/')[1], veramoOp: VERAMO_OP[op], credgate, ratios: cellRatios(credgate, out.veramo[VERAMO_OP[op]]) };
  }
}

/** The scaling issuers' logs to 10^3, 10^5, 10^6 leaves, with the project's merkle code and the deployment's log key. */
async function prefillAll(url, scaling, env) {
  const merkle = require(path.join(ROOT, 'dist', 'domain', 'merkle'));
  const { deriveLedgerSeed } = require(path.join(ROOT, 'dist', 'ledger', 'log-key'));
  const signer = { origin: `${new URL(env.CREDGATE_PUBLIC_URL).host}/ledger`, seed: deriveLedgerSeed(Buffer.from(env.CREDGATE_MASTER_KEY, 'hex')) };
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    for (const [i, issuer] of scaling.entries()) {
      const size = PREFILL_SIZES[i];
      let shown = 0;
      const r = await prefillLog(client, merkle, issuer.topicId, size, signer, (n) => {
        if (n - shown >= 100_000) log(`prefill ${issuer.topicId}: ${(shown = n)} leaves`);
      });
      issuer.prefill = { size, seconds: r.ms / 1000 };
      log(`prefill ${issuer.topicId}: ${r.size} leaves in ${(r.ms / 1000).toFixed(1)} s`);
    }
  } finally {
    await client.end();
  }
}

async function runPrefill(server, apiKey, main, scaling, out) {
  for (const issuer of scaling) issuer.verify = await verifyRequestFor(main.sdk, issuer, main.fbHolder.did);
  for (const issuer of scaling) {
    await preflight(server, issuer.issue, apiKey, `prefill ${issuer.prefill.size} issue`);
    await preflight(server, issuer.verify, apiKey, `prefill ${issuer.prefill.size} verify`);
  }
  const results = new Map(scaling.map((s) => [s, { issue: [], verify: [] }]));
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? scaling : [...scaling].reverse();
    for (const issuer of order) {
      const issue = await driveService(server, issuer.issue, apiKey, { connections: CONNECTIONS, durationMs: DURATION_MS });
      const verify = await driveService(server, issuer.verify, apiKey, { connections: CONNECTIONS, durationMs: DURATION_MS });
      results.get(issuer).issue.push(issue);
      results.get(issuer).verify.push(verify);
      log(`round ${round + 1} log of ${issuer.prefill.size}: issue ${fmt(issue.throughput)}/s p50 ${fmt(issue.p50, 1)} ms; verify ${fmt(verify.throughput)}/s p50 ${fmt(verify.p50, 1)} ms p99 ${fmt(verify.p99, 1)} ms`);
    }
  }
  for (const issuer of scaling) {
    const r = results.get(issuer);
    const m = (list, f) => median(list.map(f));
    out.prefill.push({
      size: issuer.prefill.size,
      prefillSeconds: issuer.prefill.seconds,
      issue: { throughput: m(r.issue, (x) => x.throughput), p50: m(r.issue, (x) => x.p50), p99: m(r.issue, (x) => x.p99), failures: r.issue.reduce((a, x) => a + x.failures, 0) },
      verify: { throughput: m(r.verify, (x) => x.throughput), p50: m(r.verify, (x) => x.p50), p99: m(r.verify, (x) => x.p99), failures: r.verify.reduce((a, x) => a + x.failures, 0) },
    });
  }
}

/** One Family B issuer (DID, template) and holder per tenant, set up a few at a time. */
async function setupIssuerTenants(tenants, keys, baseUrl) {
  log(`bench: setting up ${tenants.length} issuer tenants`);
  const sets = [];
  for (let i = 0; i < tenants.length; i += 8) {
    sets.push(
      ...(await Promise.all(
        tenants.slice(i, i + 8).map(async (slug) => {
          const sdk = sdkFor(ROOT, baseUrl, keys[slug]);
          const holder = await keyedDid(sdk);
          const issuer = await setupScalingIssuer(sdk, holder.did);
          return { ...issuer.issue, apiKey: keys[slug] };
        }),
      )),
    );
  }
  return sets;
}

async function runIssuers(server, apiKey, main, issuerSets, out) {
  const results = new Map(ISSUER_COUNTS.map((n) => [n, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const n of round % 2 === 0 ? ISSUER_COUNTS : [...ISSUER_COUNTS].reverse()) {
      // One issuer: the main tenant's Family B issuer; more: one tenant each, taken in turn.
      const list = n === 1 ? [{ ...main.requests.fbIssue.REST, apiKey }] : issuerSets.slice(0, n);
      let next = 0;
      const req = { pick: () => list[next++ % list.length] };
      const connections = Math.max(CONNECTIONS, n);
      const r = await driveService(server, req, apiKey, { connections, durationMs: DURATION_MS });
      results.get(n).push({ ...r, connections });
      log(`round ${round + 1} ${n} issuer(s), ${connections} connections: ${fmt(r.throughput)}/s p50 ${fmt(r.p50, 1)} ms p99 ${fmt(r.p99, 1)} ms, failures ${r.failures}`);
    }
  }
  for (const [n, list] of results) {
    out.issuers.push({
      issuers: n,
      connections: list[0].connections,
      throughput: median(list.map((x) => x.throughput)),
      p50: median(list.map((x) => x.p50)),
      p99: median(list.map((x) => x.p99)),
      cpuMsPerOp: median(list.map((x) => x.cpuMsPerOp)),
      failures: list.reduce((a, x) => a + x.failures, 0),
    });
  }
}

/**
 * The server under --cpu-prof, one life per operation: Family B and Family A issue and verify (--only=<ops> narrows them),
 * and, when the issuers section ran, Family B issue spread over 10 issuers in 10 tenants (`issuers10`).
 */
async function runProfiles(env, apiKey, requests, issuerSets = []) {
  const dir = path.join(ROOT, 'bench', 'results', 'profiles');
  fs.mkdirSync(dir, { recursive: true });
  const summaries = [];
  const profiled = ['fbIssue', 'fbVerify', 'faIssue', 'faVerify'];
  const drives = { ...Object.fromEntries(profiled.map((op) => [op, requests[op]?.REST])) };
  const ops = onlyOps.length > 0 ? profiled.filter((o) => onlyOps.includes(o)) : onlySections.includes('issuers') ? [] : profiled;
  if (issuerSets.length >= 10) {
    const ten = issuerSets.slice(0, 10);
    let next = 0;
    drives.issuers10 = { pick: () => ten[next++ % ten.length] };
    ops.push('issuers10');
  }
  for (const op of ops) {
    const name = `${op}-${new Date().toISOString().replace(/[:.]/g, '-')}.cpuprofile`;
    const server = await startServer(ROOT, env, { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`, `--cpu-prof-name=${name}`] });
    await driveService(server, drives[op], apiKey, { connections: CONNECTIONS, durationMs: Math.min(DURATION_MS, 1000) });
    const t0 = Date.now();
    const r = await driveService(server, drives[op], apiKey, { connections: CONNECTIONS, durationMs: DURATION_MS });
    const t1 = Date.now();
    await server.stop();
    const t2 = Date.now();
    // Only the measured round: the profile ends at the exit, so it is the window ending (t2 − t1) ms before.
    const summary = summariseProfile(path.join(dir, name), 12, { fromEndMs: t2 - t0, toEndMs: t2 - t1 });
    summaries.push({ op, throughput: r.throughput, ...summary });
    log(`profile ${op}: ${path.relative(ROOT, summary.file)} (${fmt(r.throughput)}/s under the profiler)`);
  }
  return summaries;
}

function report(out) {
  const dir = path.join(ROOT, 'bench', 'results');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `service-${out.meta.date.replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(file, `${JSON.stringify(out, null, 2)}\n`);
  if (args.json === 'true') process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
  else process.stdout.write(`${render(out)}results: ${path.relative(ROOT, file)}\n`);
}

/** Credgate ÷ Veramo for each figure of a matrix cell (throughput: higher is better for Credgate; the rest: lower is). */
function cellRatios(c, v) {
  return {
    throughput: ratio(c.throughput, v.throughput),
    p50: ratio(c.p50, v.p50),
    p99: ratio(c.p99, v.p99),
    halfP50: ratio(c.half.p50, v.half.p50),
    halfP99: ratio(c.half.p99, v.half.p99),
    cpuMsPerOp: ratio(c.cpuMsPerOp, v.cpuMsPerOp),
    peakRssMb: ratio(c.peakRssMb, v.peakRssMb),
  };
}

/** The Markdown tables of a result (also `--report=<file.json>` to re-render a saved run). */
function render(out) {
  const lines = [];
  const p = (s = '') => lines.push(s);
  p(Object.entries(out.meta).map(([k, v]) => `${k}: ${v}`).join('\n'));
  p();
  if (Object.keys(out.matrix).length > 0) {
    p('| operation | transport | Credgate /s | Veramo /s | ratio | p50 / p99 ms @16 (Veramo) | half-peak rate | p50 / p99 ms @half (Veramo) | CPU ms/op (Veramo) | peak RSS MB (Veramo) | failures |');
    p('|---|---|---:|---:|---:|---|---:|---|---|---|---:|');
    for (const cell of Object.values(out.matrix)) {
      const c = cell.credgate;
      const v = out.veramo[cell.veramoOp];
      p(
        `| ${cell.op} | ${cell.transport} | ${fmt(c.throughput)} | ${fmt(v.throughput)} (${cell.veramoOp}) | ${fmtRatio(ratio(c.throughput, v.throughput))} | ` +
          `${fmt(c.p50, 1)} / ${fmt(c.p99, 1)} (${fmt(v.p50, 1)} / ${fmt(v.p99, 1)}) | ${fmt(c.half.rate)} | ${fmt(c.half.p50, 1)} / ${fmt(c.half.p99, 1)} (${fmt(v.half.p50, 1)} / ${fmt(v.half.p99, 1)}) | ` +
          `${fmt(c.cpuMsPerOp, 2)} (${fmt(v.cpuMsPerOp, 2)}) | ${fmt(c.peakRssMb)} (${fmt(v.peakRssMb)}) | ${c.failures} |`,
      );
    }
    p();
    // Saved runs from before bench/paced.js measured "@half" with autocannon's bursty overallRate.
    p(
      out.meta.halfPeakDriver
        ? '@16: 16 connections, closed loop (autocannon; Veramo: 16 calls in flight). @half: open loop at half the peak, evenly paced, latency from each request\'s scheduled send (bench/paced.js; Veramo: open loop in its child).'
        : '@half: autocannon overallRate (bursty: each second\'s quota sent back-to-back), from before bench/paced.js; not comparable with later runs.',
    );
    p();
    p('Ratios, Credgate ÷ Veramo (throughput: above 1 is Credgate faster; latency, CPU and memory: above 1 is Credgate costlier):');
    p();
    p('| operation | transport | throughput | p50 @16 | p99 @16 | p50 @half | p99 @half | CPU/op | peak RSS |');
    p('|---|---|---:|---:|---:|---:|---:|---:|---:|');
    for (const cell of Object.values(out.matrix)) {
      const r = cellRatios(cell.credgate, out.veramo[cell.veramoOp]);
      p(`| ${cell.op} | ${cell.transport} | ${[r.throughput, r.p50, r.p99, r.halfP50, r.halfP99, r.cpuMsPerOp, r.peakRssMb].map(fmtRatio).join(' | ')} |`);
    }
    p();
  }
  if (out.prefill.length > 0) {
    p('| log size (leaves) | prefill s | issue /s | issue p50 / p99 ms | verify /s | verify p50 / p99 ms |');
    p('|---:|---:|---:|---|---:|---|');
    for (const r of out.prefill) p(`| ${r.size} | ${fmt(r.prefillSeconds, 1)} | ${fmt(r.issue.throughput)} | ${fmt(r.issue.p50, 1)} / ${fmt(r.issue.p99, 1)} | ${fmt(r.verify.throughput)} | ${fmt(r.verify.p50, 1)} / ${fmt(r.verify.p99, 1)} |`);
    p();
  }
  if (out.issuers.length > 0) {
    p('| issuers at once | connections | issue /s | p50 / p99 ms | CPU ms/op | failures |');
    p('|---:|---:|---:|---|---:|---:|');
    for (const r of out.issuers) p(`| ${r.issuers} | ${r.connections} | ${fmt(r.throughput)} | ${fmt(r.p50, 1)} / ${fmt(r.p99, 1)} | ${fmt(r.cpuMsPerOp, 2)} | ${r.failures} |`);
    p();
  }
  const against = ['fbIssue', 'faIssue', 'fbVerify', 'faVerify'].map((op) => out.matrix[`${op}/REST`]).filter(Boolean);
  if (against.length > 0) {
    const service = out.veramoService ?? {};
    p('Against Veramo, REST (ratios: Credgate ÷ Veramo throughput; the same connections and duration on each side):');
    p();
    p('| operation | Credgate /s | Veramo in-process /s | ratio | Veramo service /s | ratio | CPU ms/op: Credgate / in-process / service | p99 ms at half peak: Credgate / service |');
    p('|---|---:|---:|---:|---:|---:|---|---|');
    for (const cell of against) {
      const c = cell.credgate;
      const v = out.veramo[cell.veramoOp] ?? {};
      const s = service[cell.veramoOp] ?? {};
      p(
        `| ${cell.op} | ${fmt(c.throughput)} | ${fmt(v.throughput)} | ${fmtRatio(ratio(c.throughput, v.throughput))} | ${fmt(s.throughput)} | ${fmtRatio(ratio(c.throughput, s.throughput))} | ` +
          `${fmt(c.cpuMsPerOp, 2)} / ${fmt(v.cpuMsPerOp, 2)} / ${fmt(s.cpuMsPerOp, 2)} | ${fmt(c.half.p99, 1)} / ${fmt(s.half?.p99, 1)} |`,
      );
    }
    p();
  }
  if (out.targets.length > 0) {
    p('| target | value | met |');
    p('|---|---:|---|');
    for (const t of out.targets) p(`| ${t.target} | ${fmt(t.value, 2)}${!Number.isFinite(t.value) ? '' : t.note === 'ms' ? ' ms' : t.note === 'ratio' ? 'x' : ''} | ${t.met === null ? 'not measured' : t.met ? 'met' : 'not met'} |`);
    p();
  }
  for (const prof of out.profiles) {
    p(`Profile ${prof.op} (${fmt(prof.totalMs)} ms sampled, ${fmt(prof.throughput)}/s under the profiler): ${path.relative(ROOT, prof.file)}`);
    p(`  by area: ${prof.areas.map((a) => `${a.name} ${(a.share * 100).toFixed(1)}%`).join(', ')}`);
    p(`  top frames: ${prof.frames.slice(0, 10).map((f) => `${f.name} ${(f.share * 100).toFixed(1)}%`).join('; ')}`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The wallet flows are their own benchmark (bench/oid4vc.bench.js, its own scratch database and
 * service), run after this one so the two never load the machine at once. --quick bounds it too.
 */
function runWallets() {
  const { spawn } = require('node:child_process');
  const extra = [...(QUICK ? ['--flows=64', '--duration=5'] : []), ...(args.json === 'true' ? ['--json'] : [])];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(__dirname, 'oid4vc.bench.js'), ...extra], { stdio: 'inherit' });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`bench: the wallet benchmark exited with ${code}`))));
  });
}

/** --only=wallets alone skips this benchmark's own set-up (database, parties, Veramo). */
async function all() {
  const walletsOnly = onlyOps.length === 0 && onlySections.length > 0 && onlySections.every((s) => s === 'wallets');
  if (!walletsOnly) await main();
  if (runs('wallets')) await runWallets();
}

runOrReport(args, all, render);

