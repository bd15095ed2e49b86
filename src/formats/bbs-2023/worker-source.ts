/**
 * The bbs-2023 worker. BBS signing, proof derivation and (pairing-based) verification cost 50-200 ms
 * of CPU each, and RDF canonicalisation comes with every one of them: they run here, off the event
 * loop. Like the canonicalisation worker (src/canon/canon-worker.ts) its JavaScript is a string
 * started with `new Worker(SOURCE, { eval: true })`, so it runs unchanged from dist/ and under jest
 * (jest's module registry is not involved: Node itself loads Digital Bazaar's ESM-only packages,
 * by the absolute entry paths the main thread resolved). It never touches the network: its
 * document loader serves the pinned contexts and did:key documents of BLS12-381 G2 keys only.
 *
 * The Data Integrity envelope around the cryptosuite (proof options, proof set, purpose) is the few
 * lines @digitalbazaar/data-integrity would run; that package is a development dependency here,
 * while the cryptosuite (the part W3C bbs-2023 specifies) is a runtime one.
 *
 * Protocol (structured clone), one job at a time:
 *   worker -> main  { type: 'ready' } | { type: 'init-error', message }
 *   main -> worker  { id, job: BbsJob }
 *   worker -> main  { type: 'result', id, value } | { type: 'error', id, kind, message }
 */

/** What the worker can be asked to do. */
export type BbsJob =
  | { op: 'generate'; seed?: Uint8Array }
  | { op: 'sign'; document: unknown; secretKey: Uint8Array; publicKey: Uint8Array; verificationMethod: string; mandatoryPointers: string[] }
  | { op: 'derive'; document: unknown; selectivePointers: string[]; presentationHeader: Uint8Array }
  | { op: 'verify'; document: unknown; expectedPresentationHeader?: Uint8Array };

export interface BbsWorkerData {
  cryptosuiteEntry: string;
  multikeyEntry: string;
  /**
   * @digitalbazaar/bbs-signatures' ciphersuites module (lib/bbs/ciphersuites.js), the one the
   * Multikey package loads, for the generator cache below; absent or unloadable: no cache.
   */
  ciphersuitesEntry?: string;
  /** The ESM bls12-381 module of the @noble/curves copy that ciphersuites module imports (for pairingBatch); absent: library pairings. */
  curvesEntry?: string;
  /** Pinned contexts: exact URL -> JSON-LD document. */
  contexts: [string, unknown][];
}

/**
 * `input` errors are the caller's document or pointers (4xx); `proof` errors mean the proof did not
 * verify (an answer, not an error); anything else is a fault.
 */
export type BbsFailureKind = 'input' | 'proof' | 'fault';

export type BbsWorkerMessage =
  | { type: 'ready' }
  | { type: 'init-error'; message: string }
  | { type: 'result'; id: number; value: unknown }
  | { type: 'error'; id: number; kind: BbsFailureKind; message: string };

export const BBS_WORKER_SOURCE = `
'use strict';
const { parentPort, workerData } = require('node:worker_threads');

let suite;
let Multikey;
const pinned = new Map(workerData.contexts);
const MULTIKEY_V1 = 'https://w3id.org/security/multikey/v1';
const DID_V1 = 'https://www.w3.org/ns/did/v1';
const BBS_SUITE = 'bbs-2023';

class Refusal extends Error {
  constructor(kind, message) { super(message); this.kind = kind; }
}

// did:key of a BLS12-381 G2 Multikey (multicodec 0xeb01, base58btc 'zUC7'): the only keys a
// bbs-2023 proof can name here. Anything else is refused, never fetched.
function didKeyDocument(url) {
  const [did, fragment] = url.split('#');
  const fingerprint = did.slice('did:key:'.length);
  if (!/^zUC7[1-9A-HJ-NP-Za-km-z]+$/.test(fingerprint)) throw new Refusal('input', 'not a BLS12-381 G2 did:key: ' + url);
  if (fragment !== undefined && fragment !== fingerprint) throw new Refusal('input', 'unknown verification method ' + url);
  const methodId = did + '#' + fingerprint;
  const method = { '@context': MULTIKEY_V1, id: methodId, type: 'Multikey', controller: did, publicKeyMultibase: fingerprint };
  if (fragment !== undefined) return method;
  const { '@context': _ignored, ...embedded } = method;
  return { '@context': [DID_V1, MULTIKEY_V1], id: did, verificationMethod: [embedded], assertionMethod: [methodId], authentication: [methodId], capabilityInvocation: [methodId], capabilityDelegation: [methodId] };
}

async function documentLoader(url) {
  if (pinned.has(url)) return { contextUrl: null, documentUrl: url, document: structuredClone(pinned.get(url)) };
  if (url.startsWith('did:key:')) return { contextUrl: null, documentUrl: url, document: didKeyDocument(url) };
  throw new Refusal('input', 'unknown JSON-LD context or document ' + url);
}

function isObject(v) { return v !== null && typeof v === 'object' && !Array.isArray(v); }

// Speed (issue 18). The BBS message generators are fixed points: hash-to-curve of a public seed per
// ciphersuite and message index. @digitalbazaar/bbs-signatures recomputes them on every sign, derive
// and verify (a fifth of all BBS time here, measured with --cpu-prof), and multiplies each by a
// scalar with no precomputation. hash_to_curve_g1 is a pure function and the library reads it from
// the ciphersuite object, so it is memoised there; each memoised point also gets a precomputed
// window (noble's own fixed-base method, as for the base point), so a generator times a scalar costs
// additions only. Bounded; the points are public, and the results are bit-identical.
const MAX_GENERATORS = 2048;
const GENERATOR_WINDOW = 4;
function hex(bytes) { return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex'); }
function memoiseGenerators(entry, curvesEntry) {
  if (!entry) return;
  let suites;
  try {
    suites = require(entry).CIPHERSUITES;
  } catch {
    return;
  }
  let bls;
  try {
    bls = curvesEntry ? require(curvesEntry).bls12_381 : undefined;
  } catch {
    bls = undefined;
  }
  for (const cs of Object.values(suites || {})) {
    // The pairing check of a proof, e(Abar, W) * e(Bbar, -BP2) = 1: the library runs two separate
    // pairings and negates the G2 base point each time, so noble's per-point caches (G2 line
    // coefficients, validity) never hit. One batched Miller loop (shared squarings), the negation
    // moved to the G1 side (e(-P, Q) = e(P, -Q)), and public keys decoded once (below) let BP2 and
    // the issuer key W reuse their precomputations. Only with the very module the library uses.
    if (bls && cs && typeof cs.pairingCompare === 'function' && cs.BP2 instanceof bls.G2.ProjectivePoint) {
      const { Fp12 } = bls.fields;
      cs.pairingCompare = function ({ pair1, pair2, performNegation = true } = {}) {
        const g1 = performNegation ? pair2[0].negate() : pair2[0];
        return Fp12.eql(bls.pairingBatch([{ g1: pair1[0], g2: pair1[1] }, { g1, g2: pair2[1] }], true), Fp12.ONE);
      };
      const decodeE2 = cs.octets_to_point_E2;
      const keys = new Map();
      cs.octets_to_point_E2 = function (octets) {
        const key = hex(octets);
        let point = keys.get(key);
        if (point === undefined) {
          point = decodeE2.call(this, octets);
          if (keys.size < 256) keys.set(key, point);
        }
        return point;
      };
    }
    const original = cs && cs.hash_to_curve_g1;
    if (typeof original !== 'function') continue;
    const memo = new Map();
    cs.hash_to_curve_g1 = function (msg, dst) {
      const key = hex(dst) + ':' + hex(msg);
      let point = memo.get(key);
      if (point === undefined) {
        point = original.call(this, msg, dst);
        if (memo.size < MAX_GENERATORS) {
          if (typeof point.precompute === 'function') point.precompute(GENERATOR_WINDOW);
          memo.set(key, point);
        }
      }
      return point;
    };
  }
}

function splitProof(document) {
  if (!isObject(document)) throw new Refusal('input', 'the credential is not a JSON object');
  const { proof, ...rest } = document;
  const proofs = proof === undefined ? [] : Array.isArray(proof) ? proof : [proof];
  const mine = proofs.filter((p) => isObject(p) && p.type === 'DataIntegrityProof' && p.cryptosuite === BBS_SUITE);
  if (mine.length === 0) throw new Refusal('input', 'the credential carries no bbs-2023 proof');
  if (mine.length > 1) throw new Refusal('input', 'the credential carries more than one bbs-2023 proof');
  return { document: rest, proof: { ...mine[0] } };
}

function bytes(value) { return value instanceof Uint8Array ? value : new Uint8Array(value); }

// With a seed (at least 32 bytes) the key is derived from it (BBS KeyGen), the same key every time.
async function generate(job) {
  const pair = await Multikey.generateBbsKeyPair({ algorithm: Multikey.ALGORITHMS.BBS_BLS12381_SHA256, ...(job.seed ? { seed: bytes(job.seed) } : {}) });
  return { secretKey: pair.secretKey, publicKey: pair.publicKey, publicKeyMultibase: pair.publicKeyMultibase };
}

async function sign(job) {
  if (!isObject(job.document)) throw new Refusal('input', 'the credential is not a JSON object');
  const pair = await Multikey.fromRaw({ algorithm: Multikey.ALGORITHMS.BBS_BLS12381_SHA256, secretKey: bytes(job.secretKey), publicKey: bytes(job.publicKey) });
  pair.id = job.verificationMethod;
  const signer = pair.signer();
  const cryptosuite = suite.createSignCryptosuite({ mandatoryPointers: job.mandatoryPointers });
  const { proof: _old, ...document } = job.document;
  const proof = { type: 'DataIntegrityProof', verificationMethod: job.verificationMethod, cryptosuite: BBS_SUITE, proofPurpose: 'assertionMethod' };
  let verifyData;
  try {
    verifyData = await cryptosuite.createVerifyData({ cryptosuite, document, proof, documentLoader, dataIntegrityProof: { signer } });
  } catch (e) {
    // Unknown terms, a pointer that selects nothing, a context we do not pin: the caller's document.
    throw e instanceof Refusal ? e : new Refusal('input', 'the credential cannot be secured with bbs-2023: ' + (e && e.message));
  }
  proof.proofValue = await cryptosuite.createProofValue({ cryptosuite, verifyData, document, proof, documentLoader, dataIntegrityProof: { signer } });
  delete proof['@context'];
  return { ...document, proof };
}

async function derive(job) {
  const { document, proof } = splitProof(job.document);
  if (typeof proof.proofValue !== 'string' || !proof.proofValue.startsWith('u2V0C')) throw new Refusal('input', 'the bbs-2023 proof is not a base proof (derive from the credential as issued)');
  const cryptosuite = suite.createDiscloseCryptosuite({ selectivePointers: job.selectivePointers, presentationHeader: bytes(job.presentationHeader) });
  const matchProof = async ({ proof: p }) => p.type === 'DataIntegrityProof' && p.cryptosuite === BBS_SUITE;
  try {
    return await cryptosuite.derive({ cryptosuite, document, purpose: { term: proof.proofPurpose }, proofSet: [proof], documentLoader, dataIntegrityProof: { matchProof } });
  } catch (e) {
    throw e instanceof Refusal ? e : new Refusal('input', 'cannot derive: ' + (e && e.message));
  }
}

async function verify(job) {
  const { document, proof } = splitProof(job.document);
  if (proof.proofPurpose !== 'assertionMethod') throw new Refusal('proof', 'the proof purpose is ' + proof.proofPurpose + ', not assertionMethod');
  if (typeof proof.proofValue !== 'string') throw new Refusal('proof', 'the proof has no proofValue');
  // bbs-2023 section 3.3.7: a base proof is the holder's; only a derived proof is verified.
  if (proof.proofValue.startsWith('u2V0C')) throw new Refusal('proof', 'a bbs-2023 base proof is not verifiable by a verifier: the holder derives a disclosure proof first');
  if (!proof.proofValue.startsWith('u2V0D')) throw new Refusal('proof', 'the proofValue is not a bbs-2023 derived proof');
  if (typeof proof.verificationMethod !== 'string') throw new Refusal('proof', 'the proof names no verification method');
  let method;
  try {
    method = (await documentLoader(proof.verificationMethod)).document;
    const controller = (await documentLoader(method.controller)).document;
    if (!controller.assertionMethod.includes(method.id)) throw new Refusal('proof', 'the method is not an assertionMethod of its controller');
  } catch (e) {
    throw new Refusal('proof', e && e.message);
  }
  const cryptosuite = suite.createVerifyCryptosuite(job.expectedPresentationHeader ? { expectedPresentationHeader: bytes(job.expectedPresentationHeader) } : {});
  let ok;
  try {
    const verifyData = await cryptosuite.createVerifyData({ cryptosuite, document, proof, documentLoader, verificationMethod: method });
    if (verifyData === false) throw new Refusal('proof', 'the presentation header is not the expected one');
    const verifier = await cryptosuite.createVerifier({ verificationMethod: method });
    const required = [].concat(cryptosuite.requiredAlgorithm);
    if (!required.includes(verifier.algorithm)) throw new Refusal('proof', 'the key is not a BBS BLS12-381 key');
    ok = await verifier.verify({ data: verifyData });
  } catch (e) {
    throw e instanceof Refusal ? e : new Refusal('proof', e && e.message);
  }
  if (!ok) throw new Refusal('proof', 'the BBS proof does not verify');
  return { verificationMethod: method.id, controller: method.controller };
}

async function handle(job) {
  switch (job.op) {
    case 'generate': return generate(job);
    case 'sign': return sign(job);
    case 'derive': return derive(job);
    case 'verify': return verify(job);
    default: throw new Refusal('input', 'unknown operation');
  }
}

(async () => {
  try {
    suite = require(workerData.cryptosuiteEntry);
    Multikey = require(workerData.multikeyEntry);
    memoiseGenerators(workerData.ciphersuitesEntry, workerData.curvesEntry);
  } catch (e) {
    parentPort.postMessage({ type: 'init-error', message: String(e && e.message) });
    return;
  }
  parentPort.on('message', async ({ id, job }) => {
    try {
      parentPort.postMessage({ type: 'result', id, value: await handle(job) });
    } catch (e) {
      parentPort.postMessage({ type: 'error', id, kind: e instanceof Refusal ? e.kind : 'fault', message: String(e && e.message) });
    }
  });
  parentPort.postMessage({ type: 'ready' });
})();
`;
