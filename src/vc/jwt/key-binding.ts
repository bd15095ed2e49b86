import { compactVerify, type ProtectedHeaderParameters } from 'jose';
import { isAppError } from '../../errors';
import type { DidDocument, VerificationMethod } from '../../domain/dids/did-document.types';
import type { DidResolver, ProofPurpose, VcProblem } from '../ports';
import { isJwsAlgorithm, JWS_ALGORITHM, JWS_ALGORITHMS } from './algorithms';
import { methodKey, UnusableMethodError } from './method-key';

/**
 * Binds a JWS to its signer: the header's algorithm must be one we accept and must be the one the
 * key's type uses (no `none`, no HMAC with a public key as the secret, no curve swap); the `kid`
 * must name a method of the claimed issuer/holder, controlled by it and authorized for the purpose;
 * only then is the signature checked, with jose, under that key and that algorithm alone.
 */

export const PROOF_ERROR = 'PROOF_VERIFICATION_ERROR';

const fail = (title: string, detail?: string): VcProblem => (detail === undefined ? { type: PROOF_ERROR, title } : { type: PROOF_ERROR, title, detail });

export interface KeyBindingInput {
  readonly jws: string;
  readonly header: ProtectedHeaderParameters;
  /** The DID the token claims as its signer (issuer or holder). */
  readonly controller: string;
  readonly purpose: ProofPurpose;
  readonly resolver: DidResolver;
}

export type KeyBinding = { ok: true; verificationMethod: string } | { ok: false; problems: VcProblem[] };

/** The DID of a DID URL (DID syntax allows no '/', '?' or '#' before the path, query or fragment). */
const didOf = (didUrl: string): string => didUrl.split(/[/?#]/, 1)[0] ?? '';

/** Whether `document` lists `methodId` (by reference, relative reference or embedding) under `purpose`. */
function authorizes(document: DidDocument, purpose: ProofPurpose, methodId: string): boolean {
  const entries = document[purpose] ?? [];
  return entries.some((entry) => {
    const id = typeof entry === 'string' ? entry : entry.id;
    return id === methodId || (id.startsWith('#') && `${document.id}${id}` === methodId);
  });
}

/** Resolution failures are a verdict (the key cannot be found) except an unavailable remote, which is retried by the caller. */
function resolutionProblem(e: unknown): VcProblem {
  if (isAppError(e) && e.code === 'SERVICE_UNAVAILABLE') throw e;
  return fail('the signing key could not be resolved', isAppError(e) ? e.message : undefined);
}

async function checkSignature(jws: string, method: VerificationMethod, alg: string): Promise<VcProblem | undefined> {
  let key;
  try {
    key = methodKey(method);
  } catch (e) {
    return fail('the verification method cannot verify JWTs', e instanceof UnusableMethodError ? e.message : undefined);
  }
  const expected = JWS_ALGORITHM[key.keyType];
  if (alg !== expected) return fail(`alg ${alg} does not match the ${key.keyType} key of ${method.id} (expected ${expected})`);
  try {
    await compactVerify(jws, key.key, { algorithms: [expected] });
    return undefined;
  } catch {
    return fail('the JWT signature does not verify');
  }
}

/** The absolute method id a `kid` names: relative `#…` is resolved against the signer's DID. */
function absoluteKid(kid: string, controller: string): string {
  return kid.startsWith('#') ? `${controller}${kid}` : kid;
}

async function bindByKid(input: KeyBindingInput, kid: string, alg: string): Promise<KeyBinding> {
  const methodId = absoluteKid(kid, input.controller);
  if (didOf(methodId) !== input.controller) return { ok: false, problems: [fail('kid is not a key of the signer', `kid ${kid}, signer ${input.controller}`)] };
  let found;
  try {
    found = await input.resolver.dereferenceMethod(methodId);
  } catch (e) {
    return { ok: false, problems: [resolutionProblem(e)] };
  }
  const { method, controllerDocument } = found;
  if (method.controller !== input.controller || controllerDocument.id !== input.controller) {
    return { ok: false, problems: [fail('the signing key is not controlled by the signer', `controller ${method.controller}`)] };
  }
  if (!authorizes(controllerDocument, input.purpose, method.id)) {
    return { ok: false, problems: [fail(`the signing key is not authorized for ${input.purpose}`, method.id)] };
  }
  const problem = await checkSignature(input.jws, method, alg);
  return problem ? { ok: false, problems: [problem] } : { ok: true, verificationMethod: method.id };
}

/**
 * No kid (did-jwt accepts that): every method the signer's document authorizes for the purpose is
 * tried, as did-jwt does; the first whose key type uses `alg` and whose signature verifies wins.
 */
async function bindWithoutKid(input: KeyBindingInput, alg: string): Promise<KeyBinding> {
  let document: DidDocument;
  try {
    document = (await input.resolver.resolve(input.controller)).didDocument;
  } catch (e) {
    return { ok: false, problems: [resolutionProblem(e)] };
  }
  if (document.id !== input.controller) return { ok: false, problems: [fail('the resolved DID document is not the signer\'s')] };
  const methods = (document[input.purpose] ?? []).map((entry) => {
    if (typeof entry !== 'string') return entry;
    const id = entry.startsWith('#') ? `${document.id}${entry}` : entry;
    return document.verificationMethod?.find((m) => m.id === id);
  });
  for (const method of methods) {
    if (!method || method.controller !== input.controller) continue;
    if ((await checkSignature(input.jws, method, alg)) === undefined) return { ok: true, verificationMethod: method.id };
  }
  return { ok: false, problems: [fail(`no ${input.purpose} key of the signer verifies the JWT`)] };
}

export async function bindAndVerify(input: KeyBindingInput): Promise<KeyBinding> {
  const { alg, kid } = input.header;
  if (!isJwsAlgorithm(alg)) {
    return { ok: false, problems: [fail(`JWT alg ${String(alg)} is not accepted; use one of ${JWS_ALGORITHMS.join(', ')}`)] };
  }
  if (!input.controller.startsWith('did:')) return { ok: false, problems: [fail('the JWT signer must be a DID', input.controller)] };
  if (kid === undefined) return bindWithoutKid(input, alg);
  if (typeof kid !== 'string' || kid === '') return { ok: false, problems: [fail('JWT kid must be a DID URL')] };
  return bindByKid(input, kid, alg);
}
