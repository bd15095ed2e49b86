#!/usr/bin/env node
/**
 * W3C VC-API benchmark (issue 11): POST /vc-api/credentials/issue and /vc-api/credentials/verify
 * of the compiled service over HTTP, per suite, against Digital Bazaar's @digitalbazaar/vc signing
 * and verifying the same VCDM 2.0 credential in-process (the library alone: no HTTP, no database).
 *
 *   npm run bench:vc-api                        # build, then the run (about 2.5 min on 2 cores)
 *   node bench/vc-api.bench.js [--duration=3] [--suites=eddsa-jcs-2022,vc+jwt] [--json]
 *   node bench/vc-api.bench.js --report=bench/results/vc-api-<date>.json
 *
 * A scratch database on the PostgreSQL server of DATABASE_URL (default postgres@127.0.0.1:5432),
 * dropped at the end, and `node dist/main.js` on a loopback port (bench/service-process.js, rate
 * limits off). eddsa-rdfc-2022 issues through the tenant's default instance (POST
 * /vc-api/credentials/issue); the other suites through an instance each (POST /vc-api/issuers,
 * then /vc-api/issuers/<id>/credentials/issue). Every issue request carries a fresh credential id,
 * so each gets its revocation status entry (a status-list slot allocated in the database), as a
 * real caller's would; issue runs again with `options.credentialStatus: []` (no entry, nothing
 * written: the suite's own cost plus HTTP, auth and key custody). Verify runs twice: a credential issued with that entry (proof, then the
 * status list read from the database and its list credential's proof checked) and one issued with
 * `options.credentialStatus: []` (proof and validity only, like the library's).
 *
 * For each suite, interleaved so machine noise hits both sides: Credgate at 16 connections
 * (autocannon; throughput, p50/p99) and at 1 connection (latency unloaded), then the Digital
 * Bazaar child (bench/digitalbazaar-runner.mjs) at 16 and at 1 call in flight. CPU per operation
 * and peak RSS come from /proc of the server and of the child (bench/proc.js).
 * Results: a table on stdout (or JSON with --json) and bench/results/vc-api-<date>.json.
 */
'use strict';
const crypto = require('node:crypto');
const fs = require('node:fs');
const { runOrReport } = require('./entry');
const os = require('node:os');
const path = require('node:path');

const { ROOT, args } = require('./args');
const { createDatabase, dropDatabase, freePort, serviceEnv, startServer } = require('./service-process');
const { createTenantKeys } = require('./setup');
const { driveService, forkRunner } = require('./drive');
const { ratio } = require('./stats');

const DURATION_MS = Number(args.duration ?? 3) * 1000;
/** The unloaded (1 connection) runs: shorter, they only need enough calls for a p99. */
const SINGLE_MS = Math.max(1000, Math.round(DURATION_MS / 2));
const CONNECTIONS = 16;
const BASE = '/vc-api';

const SUITES = [
  { suite: 'eddsa-rdfc-2022', keyType: 'Ed25519', instance: false },
  { suite: 'eddsa-jcs-2022', keyType: 'Ed25519', instance: true },
  { suite: 'ecdsa-rdfc-2019', keyType: 'P-256', instance: true },
  { suite: 'Ed25519Signature2020', keyType: 'Ed25519', instance: true },
  { suite: 'vc+jwt', keyType: 'Ed25519', instance: true },
];
const wanted = (args.suites ?? '').split(',').filter(Boolean);
const unknown = wanted.filter((s) => !SUITES.some((x) => x.suite === s));
if (unknown.length > 0) {
  console.error(`bench:vc-api: unknown --suites entries: ${unknown.join(', ')} (suites: ${SUITES.map((s) => s.suite).join(', ')})`);
  process.exit(2);
}
/** --suites also sets the order (a reversed run shows whether a suite's figure depends on when it ran). */
const suites = wanted.length > 0 ? wanted.map((w) => SUITES.find((s) => s.suite === w)) : SUITES;

/** The VCDM 2.0 credential both sides secure (the interop tests' AlumniCredential); issuer and id are set per call. */
const CREDENTIAL = {
  '@context': ['https://www.w3.org/ns/credentials/v2', 'https://www.w3.org/ns/credentials/undefined-terms/v2'],
  type: ['VerifiableCredential', 'AlumniCredential'],
  validFrom: '2024-05-01T10:00:00Z',
  credentialSubject: { id: 'did:example:holder', name: 'Ada Lovelace', alumniOf: 'Example University' },
};
const freshCredential = (issuer) => ({ ...CREDENTIAL, issuer, id: `urn:uuid:${crypto.randomUUID()}` });
/** Status entries are added only when asked for (VC-API options.credentialStatus). */
const REVOCABLE = { credentialStatus: { type: 'BitstringStatusListEntry', statusPurpose: 'revocation' } };

const loadavg = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');
const log = (...a) => process.stderr.write(`${a.join(' ')}\n`);
const fmt = (n, d = 0) => (Number.isFinite(n) ? n.toFixed(d) : '–');

async function call(server, apiKey, method, p, body) {
  const res = await fetch(server.baseUrl + p, { method, headers: { 'content-type': 'application/json', 'x-api-key': apiKey }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, text, json: text ? JSON.parse(text) : undefined };
}

async function must(server, apiKey, method, p, body, status, label) {
  const r = await call(server, apiKey, method, p, body);
  if (r.status !== status) throw new Error(`bench:vc-api: ${label} answered ${r.status}: ${r.text.slice(0, 400)}`);
  return r.json;
}

/** Per suite: the issue path (a fresh credential per request) and verify requests with and without a status entry. */
async function setupSuites(server, apiKey) {
  const out = [];
  for (const s of suites) {
    // A credential names its issuer: the instance's DID (listing the instances creates the default one).
    const instance = s.instance
      ? await must(server, apiKey, 'POST', `${BASE}/issuers`, { cryptosuite: s.suite, keyType: s.keyType }, 201, `create ${s.suite} instance`)
      : (await must(server, apiKey, 'GET', `${BASE}/issuers`, undefined, 200, 'list instances')).find((i) => i.default);
    const issuePath = s.instance ? instance.issueEndpoint : `${BASE}/credentials/issue`;
    const issued = (options) => must(server, apiKey, 'POST', issuePath, { credential: freshCredential(instance.issuer), ...(options ? { options } : {}) }, 201, `${s.suite} issue`);
    const withStatus = (await issued(REVOCABLE)).verifiableCredential;
    const noStatus = (await issued({ credentialStatus: [] })).verifiableCredential;
    if (s.suite !== 'vc+jwt' && withStatus.credentialStatus === undefined) throw new Error(`bench:vc-api: ${s.suite} credential has no status entry`);
    const verifyRequest = (vc) => ({ method: 'POST', path: `${BASE}/credentials/verify`, body: JSON.stringify({ verifiableCredential: vc }), headers: {} });
    const issueRequest = (options) => ({
      pick: () => ({ method: 'POST', path: issuePath, body: JSON.stringify({ credential: freshCredential(instance.issuer), ...(options ? { options } : {}) }), headers: {}, apiKey }),
    });
    const requests = { issue: issueRequest(REVOCABLE), issueNoStatus: issueRequest({ credentialStatus: [] }), verifyStatus: verifyRequest(withStatus), verifyNoStatus: verifyRequest(noStatus) };
    out.push({ ...s, issuePath, requests });
  }
  return out;
}

/** Each verify request once, checked (a 422 would otherwise look fast), then every case warmed up briefly. */
async function preflight(server, apiKey, set) {
  for (const key of ['verifyStatus', 'verifyNoStatus']) {
    const req = set.requests[key];
    const r = await call(server, apiKey, req.method, req.path, JSON.parse(req.body));
    if (r.status !== 200 || r.json?.verified !== true) throw new Error(`bench:vc-api: ${set.suite} ${key} answered ${r.status}: ${r.text.slice(0, 400)}`);
  }
  for (const req of Object.values(set.requests)) await driveService(server, req, apiKey, { connections: CONNECTIONS, durationMs: 500 });
}

/** The credential as the VC-API carries it: `credentialStatus` when the entry is there, the proof's suite. */
function describeCredential(vc) {
  if (vc.type === 'EnvelopedVerifiableCredential') return 'EnvelopedVerifiableCredential (application/vc+jwt)';
  return `${vc.proof?.type}${vc.proof?.cryptosuite ? `/${vc.proof.cryptosuite}` : ''}`;
}

async function main() {
  const started = Date.now();
  const loadavgBefore = loadavg();
  const masterKey = crypto.randomBytes(32).toString('hex');
  const db = await createDatabase();
  const port = await freePort();
  const env = serviceEnv({ databaseUrl: db.url, port, masterKey });
  let server;
  let dbz;
  const out = { meta: {}, suites: [] };
  try {
    log(`bench:vc-api: database ${db.name}, port ${port}, ${DURATION_MS / 1000} s runs at ${CONNECTIONS}, ${SINGLE_MS / 1000} s at 1`);
    const apiKey = (await createTenantKeys(ROOT, env, ['bench-vc']))['bench-vc'];
    server = await startServer(ROOT, env);
    const sets = await setupSuites(server, apiKey);
    for (const set of sets) await preflight(server, apiKey, set);
    dbz = await forkRunner('digitalbazaar-runner.mjs', [JSON.stringify(CREDENTIAL)], 'Digital Bazaar');
    out.meta = { ...meta(dbz.ready.versions, env), loadavgBefore };
    for (const s of dbz.ready.suites) for (const op of ['issue', 'verify']) await dbz.run({ op, suite: s, concurrency: CONNECTIONS, durationMs: 500 });

    for (const set of sets) {
      const row = { suite: set.suite, keyType: set.keyType, endpoint: set.issuePath.replace(/\/issuers\/[^/]+\//, '/issuers/<id>/'), credential: describeCredential(JSON.parse(set.requests.verifyStatus.body).verifiableCredential), credgate: {}, digitalbazaar: {} };
      const both = async (req) => ({
        peak: await driveService(server, req, apiKey, { connections: CONNECTIONS, durationMs: DURATION_MS }),
        single: await driveService(server, req, apiKey, { connections: 1, durationMs: SINGLE_MS }),
      });
      const library = async (op) => ({
        peak: await dbz.run({ op, suite: set.suite, concurrency: CONNECTIONS, durationMs: DURATION_MS }),
        single: await dbz.run({ op, suite: set.suite, concurrency: 1, durationMs: SINGLE_MS }),
      });
      const hasLibrary = dbz.ready.suites.includes(set.suite);
      row.credgate.issue = await both(set.requests.issue);
      row.credgate.issueNoStatus = await both(set.requests.issueNoStatus);
      if (hasLibrary) row.digitalbazaar.issue = await library('issue');
      row.credgate.verifyStatus = await both(set.requests.verifyStatus);
      row.credgate.verifyNoStatus = await both(set.requests.verifyNoStatus);
      if (hasLibrary) row.digitalbazaar.verify = await library('verify');
      // The 1-minute load after the suite's runs: the machine is shared, so say what else ran.
      row.loadavgAfter = loadavg();
      out.suites.push(row);
      const c = row.credgate;
      const d = row.digitalbazaar;
      log(
        `${set.suite}: issue ${fmt(c.issue.peak.throughput)}/s with status, ${fmt(c.issueNoStatus.peak.throughput)}/s without (DB ${fmt(d.issue?.peak.throughput)}/s); verify ${fmt(c.verifyStatus.peak.throughput)}/s with status, ${fmt(c.verifyNoStatus.peak.throughput)}/s without (DB ${fmt(d.verify?.peak.throughput)}/s); ` +
          `load ${row.loadavgAfter}; failures ${[c.issue, c.issueNoStatus, c.verifyStatus, c.verifyNoStatus, d.issue, d.verify].filter(Boolean).reduce((a, x) => a + x.peak.failures + x.single.failures, 0)}`,
      );
    }
    out.meta.loadavgAfter = loadavg();
    out.meta.wallSeconds = Math.round((Date.now() - started) / 1000);
    report(out);
  } finally {
    dbz?.stop();
    if (server) {
      const r = await server.stop();
      if (r.code !== 0 && r.code !== null) log(`bench:vc-api: service exited with ${r.code}: ${server.stderr()}`);
    }
    await dropDatabase(db.name).catch((e) => log(`bench:vc-api: could not drop ${db.name}: ${e.message}`));
  }
}

function meta(dbVersions, env) {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  return {
    date: new Date().toISOString(),
    command: `node bench/vc-api.bench.js ${process.argv.slice(2).join(' ')}`.trim(),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cores: os.availableParallelism(),
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    database: `PostgreSQL (${new URL(env.DATABASE_URL).host})`,
    credgate: pkg.version,
    digitalbazaarVc: dbVersions.vc,
    digitalbazaarDataIntegrity: dbVersions.dataIntegrity,
    jsonld: dbVersions.jsonld,
    autocannon: require('autocannon/package.json').version,
    durationSeconds: DURATION_MS / 1000,
    singleSeconds: SINGLE_MS / 1000,
    connections: CONNECTIONS,
  };
}

function report(out) {
  const dir = path.join(ROOT, 'bench', 'results');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `vc-api-${out.meta.date.replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(file, `${JSON.stringify(out, null, 2)}\n`);
  if (args.json === 'true') process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
  else process.stdout.write(`${render(out)}results: ${path.relative(ROOT, file)}\n`);
}

/** One table row: throughput and p50/p99 at 16, p50/p99 at 1, CPU per op and peak RSS. */
function cells(r) {
  if (!r) return '– | – | – | – | –';
  return `${fmt(r.peak.throughput)} | ${fmt(r.peak.p50, 1)} / ${fmt(r.peak.p99, 1)} | ${fmt(r.single.p50, 1)} / ${fmt(r.single.p99, 1)} | ${fmt(r.peak.cpuMsPerOp, 2)} | ${fmt(Math.max(r.peak.peakRssMb, r.single.peakRssMb))}`;
}

/** The Markdown tables of a result (also `--report=<file.json>` to re-render a saved run). */
function render(out) {
  const lines = [];
  const p = (s = '') => lines.push(s);
  p(Object.entries(out.meta).map(([k, v]) => `${k}: ${v}`).join('\n'));
  p();
  p(`| suite | operation | side | /s @${out.meta.connections} | p50 / p99 ms @${out.meta.connections} | p50 / p99 ms @1 | CPU ms/op | peak RSS MB | failures |`);
  p('|---|---|---|---:|---|---|---:|---:|---:|');
  for (const row of out.suites) {
    const c = row.credgate;
    const d = row.digitalbazaar;
    const fails = (r) => (r ? r.peak.failures + r.single.failures : '–');
    p(`| ${row.suite} | issue, with status | Credgate HTTP | ${cells(c.issue)} | ${fails(c.issue)} |`);
    p(`| ${row.suite} | issue, no status | Credgate HTTP | ${cells(c.issueNoStatus)} | ${fails(c.issueNoStatus)} |`);
    p(`| ${row.suite} | issue | DB library | ${cells(d.issue)} | ${fails(d.issue)} |`);
    p(`| ${row.suite} | verify, with status | Credgate HTTP | ${cells(c.verifyStatus)} | ${fails(c.verifyStatus)} |`);
    p(`| ${row.suite} | verify, no status | Credgate HTTP | ${cells(c.verifyNoStatus)} | ${fails(c.verifyNoStatus)} |`);
    p(`| ${row.suite} | verify | DB library | ${cells(d.verify)} | ${fails(d.verify)} |`);
  }
  p();
  if (out.suites.some((r) => r.loadavgAfter)) {
    p(`Load average (1 / 5 / 15 min) before: ${out.meta.loadavgBefore}; after each suite: ${out.suites.map((r) => `${r.suite} ${r.loadavgAfter}`).join('; ')}`);
    p();
  }
  p('Throughput ratios, Credgate over HTTP ÷ Digital Bazaar in-process (above 1: Credgate faster):');
  p();
  p('| suite | issue (with status) | issue (no status) | verify (with status) | verify (no status) | unloaded p50, issue (no status): Credgate / DB ms | unloaded p50, verify (no status): Credgate / DB ms |');
  p('|---|---:|---:|---:|---:|---|---|');
  const x = (a, b) => (Number.isFinite(ratio(a, b)) ? `${ratio(a, b).toFixed(2)}x` : '–');
  for (const row of out.suites) {
    const c = row.credgate;
    const d = row.digitalbazaar;
    p(
      `| ${row.suite} | ${x(c.issue.peak.throughput, d.issue?.peak.throughput)} | ${x(c.issueNoStatus.peak.throughput, d.issue?.peak.throughput)} | ${x(c.verifyStatus.peak.throughput, d.verify?.peak.throughput)} | ${x(c.verifyNoStatus.peak.throughput, d.verify?.peak.throughput)} | ` +
        `${fmt(c.issueNoStatus.single.p50, 1)} / ${fmt(d.issue?.single.p50, 1)} | ${fmt(c.verifyNoStatus.single.p50, 1)} / ${fmt(d.verify?.single.p50, 1)} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}

runOrReport(args, main, render);
