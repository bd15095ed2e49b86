#!/usr/bin/env node
/**
 * Read scale-out benchmark (issue 19): Family B verification served by the primary alone against
 * the primary plus a PostgreSQL streaming replica (CREDGATE_READ_DATABASE_URL), and the replica
 * lag the service tolerated while doing it.
 *
 *   npm run bench:replica                 # build, then the run (~2 min)
 *   node bench/replica.bench.js [--duration=4] [--rounds=2] [--json] [--report=<results.json>]
 *
 * Starts its own primary and replica (bench/pg-cluster.js: initdb, pg_basebackup -R, default
 * durability) and two compiled services on them: one without a replica, one with it. Per round,
 * interleaved: verify (REST, GraphQL) at 16 connections on each; the same while 8 connections
 * issue on the same service (the replica then lags behind a stream of commits); and verify on the
 * replica service while the replica's replay is paused (it lags past CREDGATE_READ_MAX_LAG_MS, so
 * the service reads from the primary). Measured per run: verifications/s, p99, CPU ms per
 * verification of the service and of each PostgreSQL server (postmaster and its processes, from
 * /proc), the share of reads the replica served and the largest lag /readyz reported.
 * Results: a table on stdout (or JSON with --json) and bench/results/replica-<date>.json.
 */
'use strict';
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { Client } = require('pg');
const { ROOT, args } = require('./args');
const { runOrReport } = require('./entry');
const { freePort, serviceEnv, startServer } = require('./service-process');
const { createTenantKeys, setupMain } = require('./setup');
const { driveService } = require('./drive');
const { startCluster } = require('./pg-cluster');
const { median } = require('./stats');

const DURATION_MS = Number(args.duration ?? 4) * 1000;
const ROUNDS = Number(args.rounds ?? 2);
const CONNECTIONS = 16;
const WRITERS = 8;
const MAX_LAG_MS = 1000;

const log = (...a) => process.stderr.write(`${a.join(' ')}\n`);
const fmt = (n, d = 0) => (Number.isFinite(n) ? n.toFixed(d) : '–');

async function readiness(server) {
  return (await fetch(`${server.baseUrl}/readyz`)).json();
}

/** Polls /readyz while `work` runs: the largest lag it reported and the states it saw. */
async function watchLag(server, work) {
  let maxLagMs = 0;
  const states = new Set();
  let done = false;
  const poll = (async () => {
    while (!done) {
      const r = (await readiness(server)).readReplica;
      if (r) {
        states.add(r.state);
        if (Number.isFinite(r.lagMs)) maxLagMs = Math.max(maxLagMs, r.lagMs);
      }
      await new Promise((res) => setTimeout(res, 50));
    }
  })();
  try {
    return { result: await work(), maxLagMs, states: [...states] };
  } finally {
    done = true;
    await poll;
  }
}

/** One verify run on `server`, with the cost on each PostgreSQL server and where the reads went. */
async function verifyRun(cluster, server, req, apiKey, { graphql, writers, issueReq }) {
  const reads0 = (await readiness(server)).readReplica?.reads;
  const pg0 = { primary: cluster.cpuMs('primary'), replica: cluster.cpuMs('replica') };
  const writing = writers ? driveService(server, issueReq, apiKey, { connections: writers, durationMs: DURATION_MS }) : Promise.resolve(null);
  const { result, maxLagMs, states } = await watchLag(server, () => driveService(server, req, apiKey, { connections: CONNECTIONS, durationMs: DURATION_MS, graphql }));
  const issued = await writing;
  const reads1 = (await readiness(server)).readReplica?.reads;
  const perOp = (ms) => (result.count > 0 ? ms / (result.count + (issued?.count ?? 0)) : NaN);
  const replicaShare = reads0 && reads1 ? (reads1.replica - reads0.replica) / Math.max(1, reads1.replica - reads0.replica + reads1.primary - reads0.primary) : NaN;
  return {
    throughput: result.throughput,
    p99: result.p99,
    failures: result.failures,
    serviceCpuMsPerOp: result.cpuMsPerOp,
    primaryPgCpuMsPerOp: perOp(cluster.cpuMs('primary') - pg0.primary),
    replicaPgCpuMsPerOp: perOp(cluster.cpuMs('replica') - pg0.replica),
    replicaShare,
    maxLagMs: reads0 ? maxLagMs : NaN,
    states,
    issuedPerSecond: issued ? issued.throughput : NaN,
  };
}

async function main() {
  log('bench:replica: starting a primary and a streaming replica');
  const cluster = await startCluster();
  const servers = [];
  try {
    const masterKey = crypto.randomBytes(32).toString('hex');
    const portA = await freePort();
    const portB = await freePort();
    const envA = serviceEnv({ databaseUrl: cluster.primaryUrl, port: portA, masterKey });
    // One deployment behind one public URL: a credential names its status list by that URL.
    const envB = {
      ...serviceEnv({ databaseUrl: cluster.primaryUrl, port: portB, masterKey }),
      CREDGATE_PUBLIC_URL: envA.CREDGATE_PUBLIC_URL,
      CREDGATE_READ_DATABASE_URL: cluster.replicaUrl,
      CREDGATE_READ_MAX_LAG_MS: String(MAX_LAG_MS),
    };
    const { bench: apiKey } = await createTenantKeys(ROOT, envA, ['bench']);
    const primaryOnly = await startServer(ROOT, envA);
    servers.push(primaryOnly);
    const withReplica = await startServer(ROOT, envB);
    servers.push(withReplica);
    const setup = await setupMain(ROOT, primaryOnly.baseUrl, apiKey);
    const verify = setup.requests.fbVerify;
    const issueReq = setup.requests.fbIssue.REST;

    // A verification that answers "not verified" still counts as a 200 (GraphQL) or a failure
    // (REST): check once on each side that the credential verifies, so the runs measure real ones.
    for (const server of [primaryOnly, withReplica]) {
      for (const transport of ['REST', 'GraphQL']) {
        const r = verify[transport];
        const res = await fetch(`${server.baseUrl}${r.path}`, { method: r.method, headers: { 'content-type': 'application/json', 'x-api-key': apiKey, ...r.headers }, body: r.body });
        const text = await res.text();
        if (!res.ok || !text.includes('"verified":true')) throw new Error(`the bench credential does not verify on ${server.baseUrl} (${transport}): ${res.status} ${text.slice(0, 300)}`);
      }
    }
    const cells = {};
    const add = (key, r) => (cells[key] ??= []).push(r);
    for (let round = 1; round <= ROUNDS; round++) {
      for (const transport of ['REST', 'GraphQL']) {
        const graphql = transport === 'GraphQL';
        for (const [name, server] of [['primary', primaryOnly], ['primary+replica', withReplica]]) {
          log(`round ${round}: verify ${transport} on ${name}`);
          add(`${name}/${transport}/idle`, await verifyRun(cluster, server, verify[transport], apiKey, { graphql }));
        }
      }
      for (const [name, server] of [['primary', primaryOnly], ['primary+replica', withReplica]]) {
        log(`round ${round}: verify REST on ${name} while ${WRITERS} connections issue`);
        add(`${name}/REST/writing`, await verifyRun(cluster, server, verify.REST, apiKey, { graphql: false, writers: WRITERS, issueReq }));
      }
      // Replay paused: the replica falls behind the bound and the service reads from the primary.
      log(`round ${round}: verify REST on primary+replica with the replica's replay paused`);
      const replica = new Client({ connectionString: cluster.replicaUrl });
      await replica.connect();
      try {
        await replica.query('SELECT pg_wal_replay_pause()');
        for (let i = 0; i < 200 && (await readiness(withReplica)).readReplica.state !== 'lagging'; i++) {
          await fetch(`${withReplica.baseUrl}/credentials`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': apiKey }, body: issueReq.body });
          await new Promise((r) => setTimeout(r, 50));
        }
        add('primary+replica/REST/paused', await verifyRun(cluster, withReplica, verify.REST, apiKey, { graphql: false }));
      } finally {
        await replica.query('SELECT pg_wal_replay_resume()');
        await replica.end();
      }
      for (let i = 0; i < 200 && (await readiness(withReplica)).readReplica.state !== 'ok'; i++) await new Promise((r) => setTimeout(r, 50));
    }
    const results = {
      date: new Date().toISOString(),
      settings: { durationMs: DURATION_MS, rounds: ROUNDS, connections: CONNECTIONS, writers: WRITERS, maxLagMs: MAX_LAG_MS, waitMs: 50, cpus: require('node:os').availableParallelism() },
      cells: Object.fromEntries(
        Object.entries(cells).map(([k, runs]) => [
          k,
          {
            ...Object.fromEntries(['throughput', 'p99', 'serviceCpuMsPerOp', 'primaryPgCpuMsPerOp', 'replicaPgCpuMsPerOp', 'replicaShare', 'issuedPerSecond'].map((f) => [f, median(runs.map((r) => r[f]))])),
            maxLagMs: Math.max(...runs.map((r) => (Number.isFinite(r.maxLagMs) ? r.maxLagMs : 0))),
            failures: runs.reduce((n, r) => n + r.failures, 0),
            states: [...new Set(runs.flatMap((r) => r.states))],
          },
        ]),
      ),
    };
    fs.mkdirSync(path.join(ROOT, 'bench', 'results'), { recursive: true });
    const file = path.join(ROOT, 'bench', 'results', `replica-${results.date.replace(/[:.]/g, '-')}.json`);
    fs.writeFileSync(file, JSON.stringify(results, null, 2));
    log(`results: ${path.relative(ROOT, file)}`);
    process.stdout.write(args.json === 'true' ? JSON.stringify(results, null, 2) + '\n' : render(results));
  } finally {
    for (const s of servers) await s.stop().catch(() => undefined);
    await cluster.close();
  }
}

/** The Markdown table docs/BENCHMARKS.md holds. */
function render(results) {
  const rows = [
    '| Family B verify | where reads go | verify/s | p99 ms | service CPU ms/op | primary PG CPU ms/op | replica PG CPU ms/op | reads on the replica | largest lag seen | failures |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  const label = { idle: 'no writes', writing: `while ${results.settings.writers} connections issue`, paused: 'replica replay paused' };
  for (const [key, c] of Object.entries(results.cells)) {
    const [name, transport, mode] = key.split('/');
    const lag = name === 'primary' ? '–' : `${fmt(c.maxLagMs)} ms (${c.states.join(', ')})`;
    const share = name === 'primary' ? '–' : `${fmt(c.replicaShare * 100)} %`;
    const extra = mode === 'writing' ? `; ${fmt(c.issuedPerSecond)} issued/s` : '';
    rows.push(`| ${transport}, ${label[mode]}${extra} | ${name} | ${fmt(c.throughput)} | ${fmt(c.p99)} | ${fmt(c.serviceCpuMsPerOp, 2)} | ${fmt(c.primaryPgCpuMsPerOp, 2)} | ${fmt(c.replicaPgCpuMsPerOp, 2)} | ${share} | ${lag} | ${c.failures} |`);
  }
  const s = results.settings;
  rows.push('', `${s.rounds} rounds of ${s.durationMs / 1000} s, medians; ${s.connections} connections; CREDGATE_READ_MAX_LAG_MS=${s.maxLagMs}, CREDGATE_READ_WAIT_MS=${s.waitMs}; ${s.cpus} CPUs shared by both PostgreSQL servers, the services and autocannon (${results.date}).`, '');
  return rows.join('\n');
}

runOrReport(args, main, render);
