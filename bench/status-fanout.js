'use strict';
/**
 * Review 3, attack 1 (status fan-out), measured against the compiled service: one self-issued
 * did:key eddsa-jcs-2022 credential with N BitstringStatusListEntry entries at N distinct URLs,
 * each served (HTTPS, self-signed CA trusted through CREDGATE_FETCH_CA_FILE) as a valid list of
 * 16 MiB decoded, signed by the same did:key. Prints the outbound requests the list server saw,
 * the service's peak RSS (VmHWM) before and after, the answer's status and the slowest /healthz
 * answer seen while the verification ran. Not part of npm test (wall-clock figures).
 *
 *   node bench/status-fanout.js [N ...]        (default: 40 6000; needs `node scripts/build.js`)
 */
const { execFileSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const https = require('node:https');
const os = require('node:os');
const path = require('node:path');
const { createDatabase, dropDatabase, freePort, serviceEnv, startServer } = require('./service-process');

const ROOT = path.resolve(__dirname, '..');
const dist = (p) => require(path.join(ROOT, 'dist', p));

function selfSigned(dir) {
  const key = path.join(dir, 'key.pem');
  const cert = path.join(dir, 'cert.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', key, '-out', cert, '-days', '2', '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1', '-addext', 'basicConstraints=critical,CA:TRUE'], { stdio: 'ignore' });
  return { key: fs.readFileSync(key, 'utf8'), cert: fs.readFileSync(cert, 'utf8'), certFile: cert };
}

const peakRss = (pid) => Number(/VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
const rss = (pid) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

async function main() {
  const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
  const { addProof } = dist('vc/proofs');
  const { createKeySigner, didKeyIdentity, generateSigningKeyPair } = dist('vc/signers/key-signer');
  const { buildStatusListCredential, statusListEntry } = dist('vc/status');
  const { encodeList, Bitstring } = dist('domain/status-list');

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'credgate-fanout-'));
  const tls = selfSigned(dir);
  const pair = generateSigningKeyPair('Ed25519');
  const { did, verificationMethod } = didKeyIdentity('Ed25519', pair.publicKey);
  const signer = createKeySigner(pair, verificationMethod);
  // One 16 MiB list (about 16 KiB of gzip), signed per URL since each list names its own id.
  const encodedList = encodeList(new Bitstring(16 * 1024 * 1024 * 8));
  let hits = 0;
  const lists = new Map();
  const server = https.createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    hits += 1;
    const body = lists.get(req.url);
    if (!body) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/vc', 'content-length': Buffer.byteLength(body) }).end(body);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const origin = `https://127.0.0.1:${server.address().port}`;

  const db = await createDatabase();
  const port = await freePort();
  const adminKey = `admin-${crypto.randomBytes(16).toString('hex')}`;
  const env = { ...serviceEnv({ databaseUrl: db.url, port, masterKey: crypto.randomBytes(32).toString('base64') }), CREDGATE_ADMIN_API_KEY: adminKey, CREDGATE_FETCH_ALLOW_PRIVATE: 'true', CREDGATE_FETCH_CA_FILE: tls.certFile, CREDGATE_BODY_LIMIT_BYTES: String(4 * 1024 * 1024) };
  const svc = await startServer(ROOT, env);
  try {
    for (const n of sizes.length > 0 ? sizes : [40, 6000]) {
      const run = crypto.randomBytes(4).toString('hex');
      const urls = [];
      for (let i = 0; i < n; i += 1) {
        const p = `/${run}/list/${i}`;
        const url = origin + p;
        urls.push(url);
        if (i < 200) {
          const unsigned = { ...buildStatusListCredential({ id: url, issuer: did, statusPurpose: 'revocation', bits: new Uint8Array(16 * 1024), version: '2.0', validFrom: '2024-01-01T00:00:00Z' }) };
          unsigned.credentialSubject = { ...unsigned.credentialSubject, encodedList };
          lists.set(p, JSON.stringify(await addProof(unsigned, signer, { suite: 'eddsa-jcs-2022', proofPurpose: 'assertionMethod' })));
        }
      }
      // The attacker's signer has no structural budget; ours has, so it is lifted for this call.
      const { DEFAULT_JSONLD_BUDGET, registerCanonicalizationExecutor } = dist('domain/contexts');
      const unregister = registerCanonicalizationExecutor({ budget: { ...DEFAULT_JSONLD_BUDGET, maxObjects: 1e7, maxValues: 1e8, maxChars: 1e9 }, canonize: () => Promise.reject(new Error('unused')) });
      const credential = await addProof(
        {
          '@context': ['https://www.w3.org/ns/credentials/v2'],
          type: ['VerifiableCredential'],
          issuer: did,
          credentialSubject: { id: 'did:example:holder' },
          credentialStatus: urls.map((u, i) => statusListEntry({ listCredentialUrl: u, index: 8 * 1024 * 1024 * 8 + i, statusPurpose: 'revocation' })),
        },
        signer,
        { suite: 'eddsa-jcs-2022', proofPurpose: 'assertionMethod' },
      ).finally(unregister);
      const body = JSON.stringify({ verifiableCredential: credential });
      hits = 0;
      const rssBefore = rss(svc.pid);
      const started = performance.now();
      let done = false;
      let slowestHealthz = 0;
      const probe = (async () => {
        while (!done) {
          const t = performance.now();
          await fetch(`${svc.baseUrl}/healthz`).then((r) => r.arrayBuffer());
          slowestHealthz = Math.max(slowestHealthz, performance.now() - t);
          await new Promise((r) => setTimeout(r, 50));
        }
      })();
      const res = await fetch(`${svc.baseUrl}/vc-api/credentials/verify`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': adminKey }, body });
      const answer = await res.json();
      const elapsed = performance.now() - started;
      done = true;
      await probe;
      const firstError = answer.errors?.[0] ?? answer;
      console.log(
        JSON.stringify({
          entries: n,
          requestBytes: Buffer.byteLength(body),
          status: res.status,
          firstError: { type: firstError.type, title: firstError.title, detail: String(firstError.detail ?? '').slice(0, 160) },
          outboundRequests: hits,
          elapsedMs: Math.round(elapsed),
          rssMiB: { before: Math.round(rssBefore), after: Math.round(rss(svc.pid)), peak: Math.round(peakRss(svc.pid)) },
          slowestHealthzMs: Math.round(slowestHealthz),
        }),
      );
    }
  } finally {
    await svc.stop();
    await dropDatabase(db.name);
    server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
