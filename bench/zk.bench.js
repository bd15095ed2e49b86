#!/usr/bin/env node
/**
 * Zero-knowledge range proofs (issue 18, Z2): BBS signatures with Bulletproofs++ range proofs
 * (src/zk, @docknetwork/crypto-wasm-ts) beside the signed attestation they can replace.
 *
 *   npm run bench:zk                              # builds, then prints a table
 *   node bench/zk.bench.js [--n=5] [--json]       # over an existing dist/
 *
 * Rows, each the median of --n runs (one thread, the compiled code the service runs):
 *   attestation sign / verify   the default ZKP token (secp256k1 over the evaluated outcome)
 *   BBS sign                    the issuer's signature over 5 messages (credential id, validity, 3 attributes)
 *   range prove / verify (1)    age >= 18 as one Bulletproofs++ range (+ the BBS proof of knowledge)
 *   range prove / verify (2)    age >= 18 and the signature's validity day: what createZkpToken makes
 * then the throughput of prove+verify of the 2-range token through the worker pool with 2 workers
 * (ZkEngine, as the service runs it), and the proof and token sizes.
 */
'use strict';
const os = require('node:os');
const path = require('node:path');
const { ROOT, args } = require('./args');

const N = Number(args.n ?? 5);
const dist = (...p) => require(path.join(ROOT, 'dist', ...p));
const { zkCoreOf } = dist('sdk', 'zk-core-source');
const { ZkEngine } = dist('zk', 'zk-engine');
const { OFFSET, ageRange, validityRange, utcDayOf } = dist('zk', 'encoding');
const { createZkpToken, verifyZkpToken } = dist('domain', 'zkp-tokens');

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
async function time(fn) {
  const runs = [];
  for (let i = 0; i < N; i++) {
    const t = process.hrtime.bigint();
    await fn();
    runs.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return median(runs);
}

(async () => {
  const z = require('@docknetwork/crypto-wasm-ts');
  let t = process.hrtime.bigint();
  await z.initializeWasm();
  const wasmInitMs = Number(process.hrtime.bigint() - t) / 1e6;
  const core = zkCoreOf(z);
  const te = new TextEncoder();
  const now = new Date();
  const seed = new Uint8Array(32).fill(7);
  const publicKey = core.publicKey({ secretSeed: seed });
  const birthDay = utcDayOf(now) - 25 * 366;
  const messages = [{ b: te.encode('credential-id') }, { n: OFFSET + utcDayOf(now) }, { n: OFFSET + birthDay }, { n: OFFSET + 7 }, { b: te.encode('"Grace"') }];
  const signature = core.sign({ secretSeed: seed, messages });
  const one = [ageRange(2, 18, now)];
  const two = [ageRange(2, 18, now), validityRange(1, now)];
  const context = te.encode('{"statement":"bench"}');
  const nonce = te.encode('nonce');
  const rows = [];
  const row = (name, ms, extra = {}) => rows.push({ name, msPerOp: Number(ms.toFixed(1)), ...extra });

  const secp = '1'.repeat(64);
  const attIn = { credentialId: 'c', issuer: 'did:x:1', holder: null, attribute: 'birthDate', condition: { age: 18 }, birthDate: '1990-01-01', now };
  let att;
  row('attestation sign', await time(() => (att = createZkpToken(attIn, secp))), {});
  row('attestation verify', await time(() => verifyZkpToken({ zkpToken: att.zkpToken, zkpData: att.zkpData, publicKey: att.publicKey })), { tokenBytes: att.zkpToken.length / 2 });
  row('BBS sign (5 messages)', await time(() => core.sign({ secretSeed: seed, messages })));
  let p1;
  row('range prove (1 range)', await time(() => (p1 = core.prove({ signature, publicKey, messages, ranges: one, context, nonce }))), { proofBytes: p1.length });
  row('range verify (1 range)', await time(() => { if (!core.verify({ proof: p1, publicKey, messageCount: 5, ranges: one, context, nonce })) throw new Error('no'); }));
  let p2;
  row('range prove (2 ranges, createZkpToken)', await time(() => (p2 = core.prove({ signature, publicKey, messages, ranges: two, context, nonce }))), { proofBytes: p2.length, tokenBytesApprox: Math.ceil((p2.length * 4) / 3) + 330 });
  row('range verify (2 ranges, verifyZkpToken)', await time(() => { if (!core.verify({ proof: p2, publicKey, messageCount: 5, ranges: two, context, nonce })) throw new Error('no'); }));

  // Throughput through the worker pool (2 workers, as configured by default), prove + verify per job.
  const engine = new ZkEngine({ workers: 2, deadlineMs: 120_000, capacity: 64, retryAfterSeconds: 1 });
  await engine.publicKey('warm', seed);
  await engine.publicKey('warm2', seed);
  const jobs = Math.max(4, N);
  t = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: jobs }, async (_, i) => {
      const proof = await engine.prove(`t${i % 2}`, { signature, publicKey, messages, ranges: two, context, nonce });
      if (!(await engine.verify(`t${i % 2}`, { proof, publicKey, messageCount: 5, ranges: two, context, nonce }))) throw new Error('no');
    }),
  );
  const seconds = Number(process.hrtime.bigint() - t) / 1e9;
  await engine.close();
  const result = {
    machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, load1: os.loadavg()[0], node: process.version },
    wasmInitMs: Number(wasmInitMs.toFixed(0)),
    rows,
    pool: { workers: 2, jobs, proveAndVerifyPerSecond: Number((jobs / seconds).toFixed(2)) },
  };
  if (args.json) console.log(JSON.stringify(result, null, 2));
  else {
    console.log(`machine: ${result.machine.cpus} cpus (${result.machine.model}), load ${result.machine.load1.toFixed(1)}, node ${result.machine.node}; WASM init ${result.wasmInitMs} ms`);
    console.table(rows);
    console.log(`pool: ${jobs} prove+verify jobs on 2 workers: ${result.pool.proveAndVerifyPerSecond}/s`);
  }
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
