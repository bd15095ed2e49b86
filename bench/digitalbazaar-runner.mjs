/**
 * The Digital Bazaar side of `npm run bench:vc-api`, in a child process of its own (forked by
 * vc-api.bench.js; the packages are ESM-only) so its CPU time and peak RSS are read from /proc
 * like the service's. The library alone: `@digitalbazaar/vc` issue and verifyCredential in this
 * process, with the offline document loader and did:key resolver of the interop tests
 * (test/interop/digitalbazaar-suites.mjs) — no HTTP, no database, no key custody, no status list.
 *
 * Started with the credential (JSON in argv[2]); signs one per suite with a fresh did:key issuer,
 * checks each verifies, then answers 'run' messages { op: 'issue' | 'verify', suite, concurrency,
 * durationMs } with the per-call latencies, the shape bench/drive.js turns into figures.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as vc from '@digitalbazaar/vc';
import { documentLoader, keyPairFor, signingSuite, verifyingSuites } from '../test/interop/digitalbazaar-suites.mjs';

const require = createRequire(import.meta.url);
const { closedLoop } = require('./load-loops.js');

/** The suites Digital Bazaar has a counterpart for (it has no VC-JOSE-COSE / vc+jwt). */
const SUITES = [
  { suite: 'eddsa-rdfc-2022', keyType: 'Ed25519' },
  { suite: 'eddsa-jcs-2022', keyType: 'Ed25519' },
  { suite: 'ecdsa-rdfc-2019', keyType: 'P-256' },
  { suite: 'Ed25519Signature2020', keyType: 'Ed25519' },
];

async function setup(credential) {
  const loader = documentLoader();
  const ops = {};
  for (const { suite, keyType } of SUITES) {
    const { did, keyPair } = await keyPairFor(keyType);
    const signer = keyPair.signer();
    // A fresh suite object per call, as a server would build one per request (the suite keeps per-call state).
    const issue = () => vc.issue({ credential: { ...credential, id: `urn:uuid:${crypto.randomUUID()}`, issuer: did }, suite: signingSuite(suite, signer), documentLoader: loader });
    const signed = await issue();
    const verify = async () => {
      const r = await vc.verifyCredential({ credential: signed, suite: verifyingSuites(), documentLoader: loader });
      if (!r.verified) throw new Error(`Digital Bazaar did not verify its own ${suite} credential: ${String(r.error?.message ?? r.error)}`);
    };
    // Each must work once before it is measured: a failing call would otherwise look fast.
    await verify();
    ops[suite] = { issue, verify };
  }
  return ops;
}

/** Read from node_modules: not every package exports its package.json. */
function versionOf(pkg) {
  return JSON.parse(readFileSync(new URL(`../node_modules/${pkg}/package.json`, import.meta.url), 'utf8')).version;
}

async function main() {
  const ops = await setup(JSON.parse(process.argv[2]));
  process.on('message', async (msg) => {
    if (msg.cmd === 'exit') process.exit(0);
    if (msg.cmd !== 'run') return;
    try {
      const op = ops[msg.suite]?.[msg.op];
      if (!op) throw new Error(`no Digital Bazaar ${msg.op} for ${msg.suite}`);
      process.send({ ok: true, result: await closedLoop(op, msg.concurrency, msg.durationMs) });
    } catch (e) {
      process.send({ ok: false, error: e instanceof Error ? e.message : String(e) });
    }
  });
  process.send({ ready: true, suites: SUITES.map((s) => s.suite), versions: { vc: versionOf('@digitalbazaar/vc'), jsonld: versionOf('jsonld'), dataIntegrity: versionOf('@digitalbazaar/data-integrity') } });
}

main().catch((e) => {
  process.send?.({ ready: false, error: e instanceof Error ? e.stack : String(e) });
  process.exit(1);
});
