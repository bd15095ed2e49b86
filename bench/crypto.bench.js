#!/usr/bin/env node
/**
 * Signature micro-benchmark: @noble/curves against node:crypto for the hot paths of
 * src/domain/keys (Ed25519 sign/verify/public key, secp256k1 ES256K sign/verify).
 *
 *   npm run bench:crypto                       # builds, then prints a table
 *   node bench/crypto.bench.js [--ms=400] [--rounds=5] [--json]   # over an existing dist/
 *
 * "credgate" rows call the compiled functions in dist/domain/keys (what the service runs);
 * "noble" rows call @noble/curves the way the code did before; "node (…)" rows call node:crypto
 * directly, to show what the paths that stayed on noble would cost natively. Each figure is the
 * median over --rounds rounds of the mean time per operation in a round of about --ms
 * milliseconds, on one thread, with a fresh random key per round and a 256-byte message.
 */
'use strict';
const crypto = require('node:crypto');
const os = require('node:os');
const path = require('node:path');

const { ROOT, args } = require('./args');
const ROUND_MS = Number(args.ms ?? 400);
const ROUNDS = Number(args.rounds ?? 5);

const keys = require(path.join(ROOT, 'dist', 'domain', 'keys'));
const { clearEd25519KeyCache } = require(path.join(ROOT, 'dist', 'domain', 'keys', 'ed25519'));
const k1 = require(path.join(ROOT, 'dist', 'domain', 'keys', 'libsecp256k1'));
const { ed25519 } = require('@noble/curves/ed25519.js');
const { secp256k1 } = require('@noble/curves/secp256k1.js');
const { sha256 } = require('@noble/hashes/sha2.js');

const b64url = (u) => Buffer.from(u).toString('base64url');

/** Mean µs per call of `op` over about ROUND_MS, after a short warm-up; median over ROUNDS. */
function measure(setup) {
  const results = [];
  for (let round = 0; round < ROUNDS; round++) {
    const op = setup();
    for (let i = 0; i < 20; i++) op();
    let n = 0;
    const start = process.hrtime.bigint();
    const deadline = start + BigInt(ROUND_MS) * 1_000_000n;
    let now = start;
    while (now < deadline) {
      for (let i = 0; i < 10; i++) op();
      n += 10;
      now = process.hrtime.bigint();
    }
    results.push(Number(now - start) / 1000 / n);
  }
  results.sort((a, b) => a - b);
  return results[Math.floor(results.length / 2)];
}

function ed25519Fixture() {
  const seed = crypto.randomBytes(32);
  const publicKey = ed25519.getPublicKey(seed);
  const message = crypto.randomBytes(256);
  return { seed, publicKey, message, signature: ed25519.sign(message, seed) };
}

function secp256k1Fixture() {
  const sk = secp256k1.utils.randomSecretKey();
  const full = secp256k1.getPublicKey(sk, false);
  const publicKey = secp256k1.getPublicKey(sk, true);
  const message = crypto.randomBytes(256);
  const jwk = { kty: 'EC', crv: 'secp256k1', x: b64url(full.slice(1, 33)), y: b64url(full.slice(33)), d: b64url(sk) };
  return { sk, publicKey, message, jwk, signature: keys.secp256k1SignMessage(message, sk) };
}

const cases = [
  // Ed25519 -----------------------------------------------------------------------------------
  ['Ed25519 sign', 'noble', () => { const f = ed25519Fixture(); return () => ed25519.sign(f.message, f.seed); }],
  ['Ed25519 sign', 'credgate (node, key imported per call)', () => { const f = ed25519Fixture(); return () => keys.ed25519Sign(f.message, f.seed); }],
  ['Ed25519 verify', 'noble', () => { const f = ed25519Fixture(); return () => ed25519.verify(f.signature, f.message, f.publicKey, { zip215: false }); }],
  ['Ed25519 verify', 'credgate (node, cached key)', () => { const f = ed25519Fixture(); return () => keys.ed25519Verify(f.signature, f.message, f.publicKey); }],
  ['Ed25519 verify', 'credgate (node, new key each call)', () => {
    const f = ed25519Fixture();
    return () => { clearEd25519KeyCache(); keys.ed25519Verify(f.signature, f.message, f.publicKey); };
  }],
  ['Ed25519 public key of seed', 'noble', () => { const f = ed25519Fixture(); return () => ed25519.getPublicKey(f.seed); }],
  ['Ed25519 public key of seed', 'credgate (node)', () => { const f = ed25519Fixture(); return () => keys.ed25519PublicKeyFromSeed(f.seed); }],
  // secp256k1 ---------------------------------------------------------------------------------
  ['ES256K sign', 'noble (RFC 6979, low-S)', () => {
    const f = secp256k1Fixture();
    return () => secp256k1.sign(sha256(f.message), f.sk, { prehash: false, lowS: true, format: 'compact' });
  }],
  ['ES256K sign', `credgate = libsecp256k1 ${k1.LIBSECP256K1.name} (RFC 6979, low-S; same bytes as noble)`, () => { const f = secp256k1Fixture(); return () => keys.secp256k1SignMessage(f.message, f.sk); }],
  ['ES256K sign', 'libsecp256k1 wasm (the fallback build)', () => { const f = secp256k1Fixture(); return () => k1.libsecp256k1Sign(f.message, f.sk, k1.WASM_LIBSECP256K1); }],
  ['ES256K sign', 'node (random k), key imported per call', () => {
    const f = secp256k1Fixture();
    return () => crypto.sign('sha256', f.message, { key: crypto.createPrivateKey({ key: f.jwk, format: 'jwk' }), dsaEncoding: 'ieee-p1363' });
  }],
  ['ES256K sign', 'node (random k), cached private key', () => {
    const f = secp256k1Fixture();
    const key = crypto.createPrivateKey({ key: f.jwk, format: 'jwk' });
    return () => crypto.sign('sha256', f.message, { key, dsaEncoding: 'ieee-p1363' });
  }],
  ['ES256K verify (low-S)', 'noble', () => {
    const f = secp256k1Fixture();
    return () => secp256k1.verify(f.signature, sha256(f.message), f.publicKey, { prehash: false, lowS: true, format: 'compact' });
  }],
  ['ES256K verify (low-S)', `credgate = libsecp256k1 ${k1.LIBSECP256K1.name}`, () => { const f = secp256k1Fixture(); return () => keys.secp256k1VerifyMessage(f.signature, f.message, f.publicKey); }],
  ['ES256K verify (low-S)', 'libsecp256k1 wasm (the fallback build)', () => { const f = secp256k1Fixture(); return () => k1.libsecp256k1Verify(f.signature, f.message, f.publicKey, true, k1.WASM_LIBSECP256K1); }],
  ['ES256K verify (low-S)', 'node (cached public key)', () => {
    const f = secp256k1Fixture();
    const key = crypto.createPublicKey({ key: { kty: f.jwk.kty, crv: f.jwk.crv, x: f.jwk.x, y: f.jwk.y }, format: 'jwk' });
    return () => crypto.verify('sha256', f.message, { key, dsaEncoding: 'ieee-p1363' }, f.signature);
  }],
];

const rows = cases.map(([operation, implementation, setup]) => ({ operation, implementation, usPerOp: measure(setup) }));
const meta = {
  date: new Date().toISOString(),
  node: process.version,
  openssl: process.versions.openssl,
  platform: `${process.platform}-${process.arch}`,
  cpu: os.cpus()[0]?.model ?? 'unknown',
  cores: os.availableParallelism(),
  loadavg: os.loadavg().map((l) => l.toFixed(2)).join(' '),
  roundMs: ROUND_MS,
  rounds: ROUNDS,
};

if (args.json === 'true') {
  process.stdout.write(`${JSON.stringify({ meta, rows }, null, 2)}\n`);
} else {
  console.log(Object.entries(meta).map(([k, v]) => `${k}: ${v}`).join('\n'));
  console.log('');
  const baseline = new Map(rows.filter((r) => r.implementation.startsWith('noble')).map((r) => [r.operation, r.usPerOp]));
  console.log('| operation | implementation | µs/op | ops/s | vs noble |');
  console.log('|---|---|---:|---:|---:|');
  for (const r of rows) {
    const base = baseline.get(r.operation);
    const ratio = base ? `${(base / r.usPerOp).toFixed(1)}x` : '';
    console.log(`| ${r.operation} | ${r.implementation} | ${r.usPerOp.toFixed(1)} | ${Math.round(1e6 / r.usPerOp)} | ${ratio} |`);
  }
}
