#!/usr/bin/env node
/**
 * bbs-2023 (src/formats/bbs-2023): issue (base proof), derive (selective disclosure) and verify
 * (derived proof), as the service runs them — jobs for the BBS worker pool, so each figure
 * includes the hop to the worker and back.
 *
 *   npm run bench:bbs                                   # builds, then prints a table
 *   node bench/bbs-2023.bench.js [--n=20] [--json]      # over an existing dist/
 *
 * Latency: one worker, one job at a time, --n jobs per operation after 3 warm-up jobs; median and
 * p95 of the per-job times. Throughput: two workers (this machine's cores), 2 × --n derive+verify
 * pairs in flight at once. Sizes: the base proofValue, the derived proofValue and the derived
 * credential as JSON, in bytes, for a credential with 6 claims disclosing 1.
 */
'use strict';
const os = require('node:os');
const path = require('node:path');
const { ROOT, args } = require('./args');

const N = Number(args.n ?? 20);
const { Bbs2023Engine } = require(path.join(ROOT, 'dist', 'formats', 'bbs-2023', 'engine'));
const { g2DidKey } = require(path.join(ROOT, 'dist', 'formats', 'bbs-2023', 'did-key'));

const credential = (issuer, i) => ({
  '@context': ['https://www.w3.org/ns/credentials/v2', 'https://www.w3.org/ns/credentials/undefined-terms/v2'],
  id: `urn:uuid:00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  type: ['VerifiableCredential', 'IdentityCredential'],
  issuer,
  validFrom: '2026-01-01T00:00:00Z',
  credentialSubject: { givenName: 'Ada', familyName: 'Lovelace', birthDate: '1815-12-10', nationality: 'GB', level: 5, over18: true },
});

const ms = (start) => Number(process.hrtime.bigint() - start) / 1e6;
const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];

async function timed(n, fn) {
  for (let i = 0; i < 3; i++) await fn(-1 - i);
  const times = [];
  for (let i = 0; i < n; i++) {
    const start = process.hrtime.bigint();
    await fn(i);
    times.push(ms(start));
  }
  return { median: quantile(times, 0.5), p95: quantile(times, 0.95) };
}

async function main() {
  const one = new Bbs2023Engine({ size: 1, deadlineMs: 60_000, queuePerTenant: 1000, retryAfterSeconds: 1 });
  const key = await one.generateKeyPair();
  const { did } = g2DidKey(key.publicKey);
  const base = await one.sign(credential(did, 0), key, ['/issuer', '/validFrom']);
  const derived = await one.derive(base, ['/credentialSubject/over18']);
  if (!(await one.verify(derived)).verified) throw new Error('the derived credential does not verify');

  const issue = await timed(N, (i) => one.sign(credential(did, i + 10), key, ['/issuer', '/validFrom']));
  const derive = await timed(N, () => one.derive(base, ['/credentialSubject/over18']));
  const verify = await timed(N, () => one.verify(derived));
  await one.close();

  const two = new Bbs2023Engine({ size: 2, deadlineMs: 60_000, queuePerTenant: 1000, retryAfterSeconds: 1 });
  await Promise.all([two.verify(derived), two.verify(derived)]);
  const start = process.hrtime.bigint();
  await Promise.all(Array.from({ length: 2 * N }, async () => {
    const d = await two.derive(base, ['/credentialSubject/over18']);
    if (!(await two.verify(d)).verified) throw new Error('not verified');
  }));
  const pairsPerSecond = (2 * N) / (ms(start) / 1000);
  await two.close();

  const proofBytes = (vc) => Buffer.from(vc.proof.proofValue.slice(1), 'base64url').length;
  const result = {
    date: new Date().toISOString(),
    node: process.version,
    cores: os.availableParallelism(),
    n: N,
    issueMs: issue,
    deriveMs: derive,
    verifyMs: verify,
    throughput2Workers: { deriveVerifyPairsPerSecond: pairsPerSecond },
    sizes: { baseProofBytes: proofBytes(base), derivedProofBytes: proofBytes(derived), derivedCredentialJsonBytes: Buffer.byteLength(JSON.stringify(derived)) },
  };
  if (args.json) {
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return;
  }
  const f = (x) => x.toFixed(1);
  console.log(`bbs-2023, Node ${result.node}, ${result.cores} cores, n=${N}`);
  console.log(`issue  (base proof)     median ${f(issue.median)} ms  p95 ${f(issue.p95)} ms`);
  console.log(`derive (1 of 6 claims)  median ${f(derive.median)} ms  p95 ${f(derive.p95)} ms`);
  console.log(`verify (derived proof)  median ${f(verify.median)} ms  p95 ${f(verify.p95)} ms`);
  console.log(`derive+verify on 2 workers: ${f(pairsPerSecond)} pairs/s`);
  console.log(`sizes: base proof ${result.sizes.baseProofBytes} B, derived proof ${result.sizes.derivedProofBytes} B, derived credential ${result.sizes.derivedCredentialJsonBytes} B (JSON)`);
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
