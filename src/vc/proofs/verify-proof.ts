import { isDeepStrictEqual } from 'node:util';
import { AppError, isAppError } from '../../errors';
import { verifyFamilyBSignature, checkSubject } from '../../domain/credentials/family-b-credential';
import type { DidDocument, VerificationMethod } from '../../domain/dids/did-document.types';
import { multibaseDecode } from '../../domain/encoding/multibase';
import { verifyEd25519Signature2018 } from '../../domain/proofs';
import type { DereferencedMethod, JsonObject, ProofVerification, ProofVerifyOptions, VcProblem } from '../ports';
import { loaderOf, nowOf, type ProofEnvironment } from './context';
import { parseXsdDateTime } from './datetime';
import { hashData } from './hash-data';
import { methodKey, verifyRawSignature, type KeyFamily, type MethodKey, type MethodType } from './method-keys';
import { PROOF_PROBLEM as P, problem } from './problems';
import { familyBProblems, isFamilyAProof, isSeedStatusListProof, prepareFamilyA, verifySeedStatusList } from './seed-profiles';
import { LEGACY_SUITES, dataIntegritySuiteOf, hashAlgorithmFor, type DataIntegritySuite } from './suites';
import { MAX_CLOCK_SKEW_MS } from '../clock-skew';

export { MAX_CLOCK_SKEW_MS };

/** Each proof costs two canonicalisations and a resolution; more than this is refused unread. */
export const MAX_PROOFS = 8;

/** Resolver failures that mean "this credential names a method that is not there" (the others are infrastructure). */
const NOT_FOUND_CODES = new Set(['INVALID_DID', 'DID_NOT_FOUND', 'UNSUPPORTED_DID_METHOD', 'NOT_FOUND', 'INVALID_INPUT']);

const isObject = (v: unknown): v is JsonObject => v !== null && typeof v === 'object' && !Array.isArray(v);
const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]);

type Outcome = { suite?: string; verificationMethod?: string; controller?: string; problems: VcProblem[] };

/** What dereferencing a proof's method found out, beyond its key: the controller it names. */
interface Found {
  controller?: string;
}

interface Binding {
  readonly keyFamilies: readonly KeyFamily[];
  readonly methodTypes: readonly MethodType[];
}

/** Is `method` listed (by reference, relative reference or embedded) under `purpose` in its controller's document? */
function authorizedFor(doc: DidDocument, method: VerificationMethod, purpose: string): boolean {
  const entries = (doc as unknown as Record<string, unknown>)[purpose];
  if (!Array.isArray(entries)) return false;
  return entries.some((entry: unknown) => {
    const id = typeof entry === 'string' ? entry : isObject(entry) ? entry.id : undefined;
    if (typeof id !== 'string') return false;
    return id === method.id || (id.startsWith('#') && `${doc.id}${id}` === method.id);
  });
}

function checkDates(proof: JsonObject, now: Date, out: VcProblem[]): void {
  if (proof.created !== undefined) {
    const created = parseXsdDateTime(proof.created);
    if (created === undefined) out.push(problem(P.INVALID_PROOF_DATETIME, 'created'));
    else if (created > now.getTime() + MAX_CLOCK_SKEW_MS) out.push(problem(P.PROOF_CREATED_IN_FUTURE));
  }
  if (proof.expires !== undefined) {
    const expires = parseXsdDateTime(proof.expires);
    if (expires === undefined) out.push(problem(P.INVALID_PROOF_DATETIME, 'expires'));
    else if (expires < now.getTime() - MAX_CLOCK_SKEW_MS) out.push(problem(P.PROOF_EXPIRED));
  }
}

function checkChallengeAndDomain(proof: JsonObject, options: ProofVerifyOptions, out: VcProblem[]): void {
  if (options.challenge !== undefined && proof.challenge !== options.challenge) out.push(problem(P.CHALLENGE_MISMATCH));
  if (options.domain !== undefined) {
    const expected = asList(options.domain);
    const given = asList(proof.domain);
    if (!given.some((d) => expected.includes(d))) out.push(problem(P.DOMAIN_MISMATCH));
  }
}

/** Dereferences and binds the method: found, the one named, controlled as expected, authorized for the purpose, a key the suite can use. */
async function boundKey(vm: string, binding: Binding, options: ProofVerifyOptions, out: VcProblem[], found: Found): Promise<MethodKey | undefined> {
  let dereferenced: DereferencedMethod;
  try {
    dereferenced = await options.resolver.dereferenceMethod(vm);
  } catch (error) {
    if (isAppError(error) && NOT_FOUND_CODES.has(error.code)) {
      out.push(problem(P.VERIFICATION_METHOD_NOT_FOUND, error.message));
      return undefined;
    }
    throw error;
  }
  const { method, controllerDocument } = dereferenced;
  const impliedDidKey = vm.startsWith('did:key:') && !vm.includes('#') && method.controller === vm;
  if (method.id !== vm && !impliedDidKey) {
    out.push(problem(P.VERIFICATION_METHOD_NOT_FOUND, 'the resolver answered with another method'));
    return undefined;
  }
  if (method.controller !== controllerDocument.id) out.push(problem(P.CONTROLLER_MISMATCH, 'the method is not controlled by the document that lists it'));
  else {
    found.controller = method.controller;
    if (options.expectedController !== undefined && method.controller !== options.expectedController) {
      out.push(problem(P.CONTROLLER_MISMATCH, `expected ${options.expectedController}`));
    }
  }
  if (!authorizedFor(controllerDocument, method, options.expectedProofPurpose)) {
    out.push(problem(P.VERIFICATION_METHOD_NOT_AUTHORIZED, `not listed under ${options.expectedProofPurpose}`));
  }
  const key = methodKey(method);
  if (!key || !(binding.methodTypes as readonly string[]).includes(method.type) || !binding.keyFamilies.includes(key.family)) {
    out.push(problem(P.VERIFICATION_METHOD_KEY_MISMATCH, `${method.type}${key ? ` (${key.family})` : ''}`));
    return undefined;
  }
  return key;
}

/** The document a proof was made over: no proofs, or (chain) exactly the proofs its previousProof names. */
function unsecuredFor(document: JsonObject, all: JsonObject[], proof: JsonObject, out: VcProblem[]): JsonObject | undefined {
  const { proof: _all, ...unsecured } = document;
  if (proof.previousProof === undefined) return unsecured;
  const ids = asList(proof.previousProof);
  const matching = ids.map((id) => all.find((p) => typeof id === 'string' && p.id === id));
  if (ids.length === 0 || matching.some((p) => p === undefined)) {
    out.push(problem(P.PREVIOUS_PROOF_NOT_FOUND));
    return undefined;
  }
  return { ...unsecured, proof: matching };
}

function decodeProofValue(value: unknown): Uint8Array | undefined {
  if (typeof value !== 'string' || !value.startsWith('z')) return undefined;
  try {
    return multibaseDecode(value, 'proofValue');
  } catch {
    return undefined;
  }
}

/** Canonicalisation errors caused by the document itself are an answer; size/time guards and outages are not. */
function canonFailure(error: unknown, out: VcProblem[]): void {
  if (error instanceof AppError && error.code === 'INVALID_INPUT') {
    out.push(problem(P.INVALID_JSONLD, error.message));
    return;
  }
  throw error;
}

async function verifyDataIntegrity(document: JsonObject, all: JsonObject[], proof: JsonObject, suite: DataIntegritySuite, options: ProofVerifyOptions, env: ProofEnvironment, found: Found): Promise<VcProblem[]> {
  const out: VcProblem[] = [];
  const signature = decodeProofValue(proof.proofValue);
  if (!signature) return [problem(P.MALFORMED_PROOF, 'proofValue must be multibase base58btc (z...)')];
  if (suite.canonicalization === 'rdfc' && proof['@context'] !== undefined && !isDeepStrictEqual(proof['@context'], document['@context'])) {
    out.push(problem(P.PROOF_CONTEXT_MISMATCH));
  }
  if (suite.canonicalization === 'jcs' && proof['@context'] !== undefined && !isDeepStrictEqual(proof['@context'], document['@context'])) {
    out.push(problem(P.PROOF_CONTEXT_MISMATCH));
  }
  const key = await boundKey(proof.verificationMethod as string, suite, options, out, found);
  const unsecured = unsecuredFor(document, all, proof, out);
  if (!key || !unsecured) return out;
  const { proofValue: _value, ...proofConfig } = proof;
  try {
    const { hashData: data } = await hashData({ unsecured, proofConfig, suite, hash: hashAlgorithmFor(key.family), documentLoader: loaderOf(env) });
    if (!verifyRawSignature(key, data, signature)) out.push(problem(P.PROOF_VERIFICATION_ERROR));
  } catch (error) {
    canonFailure(error, out);
  }
  return out;
}

async function verifyLegacy(document: JsonObject, all: JsonObject[], proof: JsonObject, vm: string, type: keyof typeof LEGACY_SUITES, options: ProofVerifyOptions, env: ProofEnvironment, found: Found): Promise<VcProblem[]> {
  const { proof: _all, ...unsecured } = document;
  const single = { ...unsecured, proof };
  if (type === 'Ed25519Signature2018') {
    // The seed's Family A profile signs a part of the document, under a JSON-LD base (seed-profiles.ts).
    const familyA = isFamilyAProof(proof) ? prepareFamilyA(document, proof, all.length) : undefined;
    if (familyA && !familyA.covered) return familyA.problems;
    const out: VcProblem[] = [];
    const key = await boundKey(vm, LEGACY_SUITES[type], options, out, found);
    if (!key) return out;
    try {
      const result = await verifyEd25519Signature2018(familyA?.covered ?? single, { publicKey: key.publicKey, documentLoader: loaderOf(env), ...(familyA ? { base: familyA.base } : {}) });
      if (!result.verified) out.push(problem(P.PROOF_VERIFICATION_ERROR, result.reason));
    } catch (error) {
      canonFailure(error, out);
    }
    return out;
  }
  if (isSeedStatusListProof(single, proof)) {
    const out: VcProblem[] = [];
    const key = await boundKey(vm, LEGACY_SUITES[type], options, out, found);
    if (key && !verifySeedStatusList(single, proof, key.publicKey)) out.push(problem(P.PROOF_VERIFICATION_ERROR));
    return out;
  }
  // The seed's selective-disclosure proof: the signature covers salted digests, and every shown value must match one.
  const out = familyBProblems(single, proof);
  if (out.some((p) => p.type === P.UNSUPPORTED_PROOF_SUITE)) return out;
  const key = await boundKey(vm, LEGACY_SUITES[type], options, out, found);
  if (!key) return out;
  if (!verifyFamilyBSignature(single, key.publicKey)) out.push(problem(P.PROOF_VERIFICATION_ERROR));
  else {
    const subject = checkSubject(single, { all: false });
    if (!subject.ok) out.push(problem(P.PROOF_VERIFICATION_ERROR, subject.reason));
  }
  return out;
}

async function verifyOne(document: JsonObject, all: JsonObject[], proof: JsonObject, options: ProofVerifyOptions, env: ProofEnvironment): Promise<Outcome> {
  const type = proof.type;
  const vm = isFamilyAProof(proof) ? proof.vcVerificationMethod : proof.verificationMethod;
  const suite = dataIntegritySuiteOf(proof);
  const legacy = typeof type === 'string' && Object.hasOwn(LEGACY_SUITES, type) ? (type as keyof typeof LEGACY_SUITES) : undefined;
  const name = suite?.name ?? legacy;
  if (!name) {
    const what = type === 'DataIntegrityProof' ? `cryptosuite ${String(proof.cryptosuite)}` : String(type);
    return { problems: [problem(P.UNSUPPORTED_PROOF_SUITE, what)] };
  }
  if (typeof vm !== 'string' || vm.length === 0) return { suite: name, problems: [problem(P.MALFORMED_PROOF, 'verificationMethod must be a string')] };
  const problems: VcProblem[] = [];
  if (proof.proofPurpose !== options.expectedProofPurpose) {
    problems.push(problem(P.PROOF_PURPOSE_MISMATCH, `expected ${options.expectedProofPurpose}`));
  }
  checkDates(proof, nowOf(env), problems);
  checkChallengeAndDomain(proof, options, problems);
  const found: Found = {};
  const checked = suite ? await verifyDataIntegrity(document, all, proof, suite, options, env, found) : await verifyLegacy(document, all, proof, vm, legacy as keyof typeof LEGACY_SUITES, options, env, found);
  return { suite: name, verificationMethod: vm, ...(found.controller !== undefined ? { controller: found.controller } : {}), problems: [...problems, ...checked] };
}

/**
 * Verifies every proof of `document` (a proof set verifies only if each of its proofs does; proof
 * chains through `previousProof` are followed). Binds each proof to its suite, key type, method,
 * controller document, purpose, dates, challenge and domain (see docs/API.md "Supported proof
 * suites"). A bad credential is an answer with `errors` of stable types (problems.ts); it throws
 * only what the caller must map: resolver outages (SERVICE_UNAVAILABLE) and the JSON-LD size and
 * time guards (DOCUMENT_TOO_LARGE, CANONICALIZATION_BUDGET).
 */
export async function verifyProof(document: JsonObject, options: ProofVerifyOptions, env: ProofEnvironment = {}): Promise<ProofVerification> {
  if (!isObject(document)) return { verified: false, errors: [problem(P.MALFORMED_PROOF, 'the document is not a JSON object')] };
  const raw = document.proof;
  if (raw === undefined || (Array.isArray(raw) && raw.length === 0)) return { verified: false, errors: [problem(P.MISSING_PROOF)] };
  const proofs = asList(raw);
  if (proofs.length > MAX_PROOFS) return { verified: false, errors: [problem(P.MALFORMED_PROOF, `more than ${MAX_PROOFS} proofs`)] };
  if (!proofs.every(isObject)) return { verified: false, errors: [problem(P.MALFORMED_PROOF, 'each proof must be an object')] };
  const all = proofs as JsonObject[];
  const outcomes: Outcome[] = [];
  for (const proof of all) outcomes.push(await verifyOne(document, all, proof, options, env));
  const label = (i: number, p: VcProblem): VcProblem => (all.length === 1 ? p : { ...p, detail: `proof[${i}]${p.detail ? `: ${p.detail}` : ''}` });
  const errors = outcomes.flatMap((o, i) => o.problems.map((p) => label(i, p)));
  const suites = [...new Set(outcomes.map((o) => o.suite).filter((s): s is string => s !== undefined))];
  const first = outcomes[0]?.verificationMethod;
  const controllers = outcomes.map((o) => o.controller);
  return {
    verified: errors.length === 0,
    ...(suites.length > 0 ? { suite: suites.join(', ') } : {}),
    ...(first !== undefined ? { verificationMethod: first } : {}),
    ...(controllers.every((c): c is string => c !== undefined) ? { controllers } : {}),
    errors,
  };
}
