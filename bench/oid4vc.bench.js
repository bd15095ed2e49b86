#!/usr/bin/env node
/**
 * Wallet benchmark (issue 21): the OID4VCI 1.0 pre-authorized flow and the OID4VP 1.0 flow of the
 * compiled service, driven over loopback HTTP by 16 concurrent wallets, beside the same flows run
 * in-process with the libraries alone (bench/oid4vc-library.js: oid4vc-ts server classes, @sd-jwt,
 * dcql; no HTTP, no database), so the service's overhead per step is visible.
 *
 *   npm run bench:wallets                        # build, then the run (about 2 min on 2 cores)
 *   node bench/oid4vc.bench.js [--flows=400] [--duration=20] [--concurrency=16] [--only=oid4vci,oid4vp] [--json]
 *   node bench/oid4vc.bench.js --report=bench/results/oid4vc-<date>.json
 *
 * OID4VCI: create offer (operator, API key) → token (pre-authorized code + tx_code, DPoP) → nonce
 * → credential (a JWT key proof; an SD-JWT VC back). OID4VP: create request (relying party, DCQL,
 * x509_san_dns, direct_post.jwt) → fetch the x5c-signed request object (request_uri) → the
 * encrypted response (SD-JWT VC + KB-JWT) → read the result. The service sends no Server-Timing,
 * so each step is timed on the client around its HTTP exchange (loopback, so the network adds
 * well under a millisecond); the wallet's own signing and encryption happen between steps and are
 * not counted on either side. Each side runs at --concurrency wallets (bounded by --flows flows AND
 * --duration seconds), then one wallet at a time (at most 100 flows, half the time): at 16 a step's
 * latency is mostly queueing on 2 cores; with one wallet its p50 is the server's time for it.
 *
 * A scratch database on the PostgreSQL server of DATABASE_URL (dropped at the end), `node
 * dist/main.js` on a loopback port with rate limits off and a bench X.509 root: the service's
 * request-signing certificate (SAN dNSName 127.0.0.1) and the credential issuer whose SD-JWT VCs
 * the wallets present chain to it, and it is the verifier's trust anchor.
 */
'use strict';
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { ROOT, args } = require('./args');
const { runOrReport } = require('./entry');
const { createDatabase, dropDatabase, freePort, serviceEnv, startServer } = require('./service-process');
const { createTenantKeys } = require('./setup');
const { cpuMs } = require('./proc');
const { runFlows, summarizeFlows } = require('./flow-stats');
const { ratio } = require('./stats');
const wallet = require('./oid4vc-wallet');
const library = require('./oid4vc-library');

const CONCURRENCY = Number(args.concurrency ?? 16);
const MAX_FLOWS = Number(args.flows ?? 400);
const MAX_MS = Number(args.duration ?? 20) * 1000;
/** The unloaded (one wallet) runs: enough flows for a p99, fewer than the loaded ones. */
const SINGLE_FLOWS = Math.max(1, Math.min(MAX_FLOWS, 100));
const FLOWS = ['oid4vci', 'oid4vp'];
const only = (args.only ?? '').split(',').filter(Boolean);
const unknownOnly = only.filter((o) => !FLOWS.includes(o));
if (unknownOnly.length > 0 && !args.report) {
  console.error(`bench:wallets: unknown --only entries: ${unknownOnly.join(', ')} (flows: ${FLOWS.join(', ')})`);
  process.exit(2);
}
const flows = only.length > 0 ? only : FLOWS;

const TENANT = 'bench-wallets';
const SCHEMA = 'BenchBadge';
const CONFIGURATION = `schema.${SCHEMA}.v1.sd_jwt`;
const CLAIMS = { name: 'Alice', email: 'alice@example.com', birthDate: '1990-05-17' };
const PRE_AUTH = 'urn:ietf:params:oauth:grant-type:pre-authorized_code';
/** The credential issuer whose SD-JWT VCs the OID4VP wallets hold (its SAN URI names it, HAIP x5c trust). */
const CREDENTIAL_ISSUER = library.ISSUER;
const VCT = `${CREDENTIAL_ISSUER}/vct/pid`;
const QUERY = { credentials: [{ id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: [VCT] }, claims: [{ path: ['given_name'] }, { path: ['family_name'] }] }] };
const PID = { given_name: 'Erika', family_name: 'Mustermann', birthdate: '1964-08-12', nationality: 'DE' };

const loadavg = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');
const log = (...a) => process.stderr.write(`${a.join(' ')}\n`);
const fmt = (n, d = 0) => (Number.isFinite(n) ? n.toFixed(d) : '–');

/** The bench's X.509 material (dist/x509): one root, the service's request signer, the credential issuer, the library verifier. */
async function certificates(dir) {
  const x509 = require(path.join(ROOT, 'dist', 'x509'));
  const notBefore = new Date(Date.now() - 86_400_000);
  const notAfter = new Date(Date.now() + 30 * 86_400_000);
  const root = await x509.createRootCa({ subject: { commonName: 'Credgate Bench Root' }, notBefore, notAfter });
  const leaf = async (dnsNames, uris) => {
    const keys = await x509.generateP256KeyPair();
    const der = await x509.issueLeafCertificate({ issuer: root, subject: { commonName: dnsNames[0] }, publicKey: keys.publicKey, dnsNames, uris, notBefore, notAfter });
    const pkcs8 = new Uint8Array(await crypto.webcrypto.subtle.exportKey('pkcs8', keys.privateKey));
    return { der, privateKeyPem: x509.toPem(pkcs8, 'PRIVATE KEY'), x5c: [x509.derToX5c(der)] };
  };
  const service = await leaf(['127.0.0.1'], []);
  const issuer = await leaf([new URL(CREDENTIAL_ISSUER).hostname], [CREDENTIAL_ISSUER]);
  const verifier = await leaf([library.VERIFIER_HOST], []);
  const files = { cert: path.join(dir, 'cert.pem'), key: path.join(dir, 'key.pem'), anchors: path.join(dir, 'anchors.pem') };
  fs.writeFileSync(files.cert, x509.toPem(service.der) + x509.toPem(root.certificate));
  fs.writeFileSync(files.key, service.privateKeyPem);
  fs.writeFileSync(files.anchors, x509.toPem(root.certificate));
  return { files, issuer, verifier };
}

async function call(url, { method = 'GET', headers = {}, form, json } = {}) {
  const body = form ? new URLSearchParams(form).toString() : json !== undefined ? JSON.stringify(json) : undefined;
  const h = { ...headers, ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : json !== undefined ? { 'content-type': 'application/json' } : {}) };
  const res = await fetch(url, { method, headers: h, body });
  const text = await res.text();
  let parsed;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, text, json: parsed, headers: res.headers };
}

function expectStatus(r, status, label) {
  if (r.status !== status) throw new Error(`${label} answered ${r.status}: ${r.text.slice(0, 300)}`);
  return r;
}

/** One HTTP step, timed on the client from the request to the last byte of the answer. */
async function step(record, name, fn) {
  const t0 = performance.now();
  const out = await fn();
  record(name, performance.now() - t0);
  return out;
}

/** The OID4VCI pre-authorized flow of one wallet against the service. */
function oid4vciHttp(server, apiKey, meta) {
  const admin = { 'x-api-key': apiKey };
  return async (_w, record) => {
    const created = await step(record, 'offer', async () =>
      expectStatus(await call(`${server.baseUrl}/oid4vci/offers`, { method: 'POST', headers: admin, json: { credentialConfigurationIds: [CONFIGURATION], claims: CLAIMS, txCodeLength: 6 } }), 201, 'create offer').json,
    );
    const code = created.credentialOffer.grants[PRE_AUTH]['pre-authorized_code'];
    const dpopKey = wallet.newKey();
    let dpopNonce;
    const accessToken = await step(record, 'token', async () => {
      // A service configured with CREDGATE_OID4VCI_DPOP_NONCE asks once for a server nonce (RFC 9449 §8): part of this step.
      for (let attempt = 0; attempt < 2; attempt++) {
        const proof = wallet.dpopProof(dpopKey, { htm: 'POST', htu: meta.as.token_endpoint, nonce: dpopNonce });
        const r = await call(meta.as.token_endpoint, { method: 'POST', headers: { DPoP: proof }, form: { grant_type: PRE_AUTH, 'pre-authorized_code': code, tx_code: created.txCode } });
        dpopNonce = r.headers.get('dpop-nonce') ?? dpopNonce;
        if (r.status === 400 && r.json?.error === 'use_dpop_nonce' && attempt === 0) continue;
        return expectStatus(r, 200, 'token').json.access_token;
      }
      throw new Error('token: no answer');
    });
    const cNonce = await step(record, 'nonce', async () => expectStatus(await call(meta.issuer.nonce_endpoint, { method: 'POST' }), 200, 'nonce').json.c_nonce);
    const holder = wallet.newKey();
    const proof = wallet.keyProof(holder, { aud: meta.issuer.credential_issuer, nonce: cNonce });
    const dpop = wallet.dpopProof(dpopKey, { htm: 'POST', htu: meta.issuer.credential_endpoint, accessToken, nonce: dpopNonce });
    const response = await step(record, 'credential', async () =>
      expectStatus(
        await call(meta.issuer.credential_endpoint, { method: 'POST', headers: { Authorization: `DPoP ${accessToken}`, DPoP: dpop }, json: { credential_configuration_id: CONFIGURATION, proofs: { jwt: [proof] } } }),
        200,
        'credential',
      ).json,
    );
    if (typeof response.credentials?.[0]?.credential !== 'string') throw new Error('credential: no SD-JWT VC in the answer');
  };
}

/** The OID4VP flow of one wallet against the service; `held(w)` is wallet w's credential and key. */
function oid4vpHttp(server, apiKey, held) {
  const rp = { 'x-api-key': apiKey };
  return async (w, record) => {
    const req = await step(record, 'create', async () => expectStatus(await call(`${server.baseUrl}/oid4vp/requests`, { method: 'POST', headers: rp, json: { dcqlQuery: QUERY } }), 201, 'create request').json);
    const requestObject = await step(record, 'request-object', async () => expectStatus(await call(req.requestUri), 200, 'request object').text);
    const request = wallet.readRequestObject(requestObject);
    const { compact, holderKey } = held(w);
    const presentation = await wallet.presentSdJwt(compact, QUERY.credentials[0], holderKey, { aud: request.client_id, nonce: request.nonce });
    const jwe = await wallet.encryptResponse({ vp_token: { pid: [presentation] }, state: request.state }, request);
    await step(record, 'response', async () => expectStatus(await call(request.response_uri, { method: 'POST', form: { response: jwe } }), 200, 'response'));
    const out = await step(record, 'result', async () => expectStatus(await call(`${server.baseUrl}/oid4vp/requests/${req.id}/result`, { headers: rp }), 200, 'result').json);
    if (out.status !== 'verified') throw new Error(`result: ${out.status} ${JSON.stringify(out.result?.problems ?? out.result?.credentials?.[0]?.checks ?? null).slice(0, 300)}`);
  };
}

/** One wallet's SD-JWT VC (all claims disclosable, bound to its key) per concurrent wallet. */
async function holdings(issuer) {
  const { issueSdJwtVc } = require(path.join(ROOT, 'dist', 'formats', 'sd-jwt-vc'));
  const signer = wallet.pemSigner(issuer.privateKeyPem, issuer.x5c);
  const out = [];
  for (let i = 0; i < CONCURRENCY; i++) {
    const holderKey = wallet.newKey();
    const now = Math.floor(Date.now() / 1000);
    out.push({ holderKey, compact: await issueSdJwtVc({ signer, iss: CREDENTIAL_ISSUER, vct: VCT, claims: PID, holderJwk: holderKey.jwk, iat: now - 60, exp: now + 86_400 }) });
  }
  return { held: (w) => out[w % out.length], signer };
}

/**
 * Runs one side's flow: a short warm-up, the bounded run at CONCURRENCY wallets (throughput, and
 * latency with queueing), then one wallet at a time (SINGLE_FLOWS, half the time bound): unloaded,
 * a step's p50 is the time the server spends on it. CPU is read from /proc of `pid` (the server,
 * or this process for the library side, where it includes the wallet's own work).
 */
async function measure(label, flow, pid) {
  const warm = await runFlows({ concurrency: CONCURRENCY, maxFlows: CONCURRENCY * 2, maxMs: 5000, flow });
  if (warm.failures.length > 0) throw new Error(`${label}: warm-up failed: ${warm.failures[0]}`);
  const cpu0 = cpuMs(pid);
  const run = await runFlows({ concurrency: CONCURRENCY, maxFlows: MAX_FLOWS, maxMs: MAX_MS, flow });
  const cpu = cpuMs(pid) - cpu0;
  const s = summarizeFlows(run);
  const single = summarizeFlows(await runFlows({ concurrency: 1, maxFlows: SINGLE_FLOWS, maxMs: MAX_MS / 2, flow }));
  return { ...s, cpuMsPerFlow: s.completed > 0 ? cpu / s.completed : NaN, elapsedMs: run.elapsedMs, single, loadavgAfter: loadavg() };
}

async function main() {
  const started = Date.now();
  const loadavgBefore = loadavg();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'credgate-bench-oid4vc-'));
  const masterKey = crypto.randomBytes(32).toString('hex');
  const db = await createDatabase();
  const port = await freePort();
  let server;
  const out = { meta: {}, flows: {} };
  try {
    const { files, issuer, verifier } = await certificates(dir);
    const env = { ...serviceEnv({ databaseUrl: db.url, port, masterKey }), CREDGATE_OID4VC_ISSUER_CERT_FILE: files.cert, CREDGATE_OID4VC_ISSUER_KEY_FILE: files.key, CREDGATE_OID4VC_TRUST_ANCHORS_FILE: files.anchors };
    log(`bench:wallets: database ${db.name}, port ${port}, ${CONCURRENCY} wallets, at most ${MAX_FLOWS} flows and ${MAX_MS / 1000} s per side`);
    const apiKey = (await createTenantKeys(ROOT, env, [TENANT]))[TENANT];
    server = await startServer(ROOT, env);
    const schema = await call(`${server.baseUrl}/issuer/createSchema`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey },
      json: {
        schemaName: SCHEMA,
        description: 'Bench badge',
        attributes: { attributes: [{ attributeName: 'name', type: 'alphabet', description: 'Given name', required: true, maxLength: '20' }, { attributeName: 'email', type: 'email', description: 'Work email', required: true }, { attributeName: 'birthDate', type: 'date', description: 'Date of birth', required: true }] },
        expiration: { value: 1, unit: 'years' },
        dependantSchemas: [],
      },
    });
    expectStatus(schema, 201, 'create schema');
    // Metadata is read once, as a wallet caches it; the flows measure the per-credential steps.
    const meta = {
      issuer: expectStatus(await call(`${server.baseUrl}/.well-known/openid-credential-issuer/oid4vc/${TENANT}`), 200, 'issuer metadata').json,
      as: expectStatus(await call(`${server.baseUrl}/.well-known/oauth-authorization-server/oid4vc/${TENANT}`), 200, 'authorization server metadata').json,
    };
    if (!meta.issuer.credential_configurations_supported[CONFIGURATION]) throw new Error(`issuer metadata lacks ${CONFIGURATION}`);
    const { held } = await holdings(issuer);
    out.meta = metaOf(env, loadavgBefore);

    const sides = {
      oid4vci: {
        credgate: oid4vciHttp(server, apiKey, meta),
        library: library.oid4vciLibrary({ issuerSigner: issuer, claims: CLAIMS }),
      },
      oid4vp: {
        credgate: oid4vpHttp(server, apiKey, held),
        library: library.oid4vpLibrary({ requestSigner: verifier, query: QUERY, held, trustedIssuerJwk: wallet.pemSigner(issuer.privateKeyPem, issuer.x5c).publicJwk }),
      },
    };
    for (const name of flows) {
      // Service first, then the library, each bounded; the load average after each says what else ran.
      const credgate = await measure(`${name} Credgate`, sides[name].credgate, server.pid);
      const lib = await measure(`${name} library`, sides[name].library, process.pid);
      out.flows[name] = { credgate, library: lib };
      log(`${name}: Credgate ${fmt(credgate.flowsPerSecond, 1)} flows/s (${credgate.completed} flows, ${credgate.failures + credgate.single.failures} failed), library ${fmt(lib.flowsPerSecond, 1)} flows/s; load ${lib.loadavgAfter}`);
    }
    out.meta.loadavgAfter = loadavg();
    out.meta.wallSeconds = Math.round((Date.now() - started) / 1000);
    report(out);
  } finally {
    if (server) {
      const r = await server.stop();
      if (r.code !== 0 && r.code !== null) log(`bench:wallets: service exited with ${r.code}: ${server.stderr()}`);
    }
    await dropDatabase(db.name).catch((e) => log(`bench:wallets: could not drop ${db.name}: ${e.message}`));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function metaOf(env, loadavgBefore) {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const version = (name) => JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8')).version;
  return {
    date: new Date().toISOString(),
    command: `node bench/oid4vc.bench.js ${process.argv.slice(2).join(' ')}`.trim(),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cores: os.availableParallelism(),
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    database: `PostgreSQL (${new URL(env.DATABASE_URL).host})`,
    credgate: pkg.version,
    oid4vcTs: version('@openid4vc/openid4vci'),
    sdJwt: version('@sd-jwt/sd-jwt-vc'),
    dcql: version('dcql'),
    concurrency: CONCURRENCY,
    maxFlows: MAX_FLOWS,
    maxSeconds: MAX_MS / 1000,
    singleFlows: SINGLE_FLOWS,
    loadavgBefore,
  };
}

function report(out) {
  const dir = path.join(ROOT, 'bench', 'results');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `oid4vc-${out.meta.date.replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(file, `${JSON.stringify(out, null, 2)}\n`);
  if (args.json === 'true') process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
  else process.stdout.write(`${render(out)}results: ${path.relative(ROOT, file)}\n`);
}

/** The Markdown tables of a result (also `--report=<file.json>` to re-render a saved run). */
function render(out) {
  const lines = [];
  const p = (s = '') => lines.push(s);
  p(Object.entries(out.meta).map(([k, v]) => `${k}: ${v}`).join('\n'));
  p();
  const c = out.meta.concurrency;
  p(`| flow | step | Credgate p50 / p99 ms @${c} | library p50 / p99 ms @${c} | Credgate p50 / p99 ms @1 | library p50 / p99 ms @1 | Credgate − library, p50 ms @1 |`);
  p('|---|---|---|---|---|---|---:|');
  const pair = (r, d) => (r ? `${fmt(r.p50, d)} / ${fmt(r.p99, d)}` : '–');
  for (const [name, { credgate, library: lib }] of Object.entries(out.flows)) {
    for (const s of credgate.steps) {
      const l = lib.steps.find((x) => x.step === s.step);
      const s1 = credgate.single?.steps.find((x) => x.step === s.step);
      const l1 = lib.single?.steps.find((x) => x.step === s.step);
      p(`| ${name} | ${s.step} | ${pair(s, 1)} | ${pair(l, 2)} | ${pair(s1, 1)} | ${pair(l1, 2)} | ${fmt((s1?.p50 ?? NaN) - (l1?.p50 ?? NaN), 1)} |`);
    }
    p(`| ${name} | whole flow (with wallet work) | ${pair(credgate.flow, 1)} | ${pair(lib.flow, 1)} | ${pair(credgate.single?.flow, 1)} | ${pair(lib.single?.flow, 1)} | ${fmt((credgate.single?.flow.p50 ?? NaN) - (lib.single?.flow.p50 ?? NaN), 1)} |`);
  }
  p();
  p(`| flow | side | flows/s @${c} | flows/s @1 | flows (@${c} + @1) | failures | CPU ms/flow @${c} (server, or the library's whole process) | load after |`);
  p('|---|---|---:|---:|---:|---:|---:|---|');
  for (const [name, sides] of Object.entries(out.flows)) {
    for (const [side, r] of Object.entries(sides)) p(`| ${name} | ${side === 'credgate' ? 'Credgate HTTP' : 'library in-process'} | ${fmt(r.flowsPerSecond, 1)} | ${fmt(r.single?.flowsPerSecond, 1)} | ${r.completed} + ${r.single?.completed ?? 0} | ${r.failures + (r.single?.failures ?? 0)} | ${fmt(r.cpuMsPerFlow, 2)} | ${r.loadavgAfter} |`);
  }
  p();
  for (const [name, { credgate, library: lib }] of Object.entries(out.flows)) {
    const x = ratio(credgate.flowsPerSecond, lib.flowsPerSecond);
    p(`${name}: Credgate over HTTP ÷ library in-process throughput = ${Number.isFinite(x) ? `${x.toFixed(2)}x` : '–'}`);
  }
  p(`Load average (1 / 5 / 15 min) before: ${out.meta.loadavgBefore}; after: ${out.meta.loadavgAfter}`);
  return `${lines.join('\n')}\n`;
}

runOrReport(args, main, render);
