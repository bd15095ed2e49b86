import type { ProtectedHeaderParameters } from 'jose';
import type { JsonObject, ProofVerification, ProofVerifyOptions, VcProblem } from '../ports';
import { credentialVersion, isJsonObject, issuerIdOf } from '../model';
import { VP_JWT_TYP } from './issue';
import { bindAndVerify } from './key-binding';
import { failed, malformed, openJwt } from './open-jwt';
import { checkTimeClaims } from './time-claims';

export type JwtPresentationVerification = ProofVerification & { presentation?: JsonObject };

interface Form {
  readonly suite: string;
  readonly holder: string;
  readonly presentation: JsonObject;
  readonly problems: VcProblem[];
}

function readJoseForm(header: ProtectedHeaderParameters, payload: JsonObject): Form | VcProblem[] {
  if (header.cty !== undefined && header.cty !== 'vp') return [malformed('a vp+jwt header cty, when present, must be vp')];
  if (credentialVersion(payload) !== '2.0' || payload.vp !== undefined) return [malformed('a vp+jwt payload must be a VCDM 2.0 presentation')];
  const holder = issuerIdOf(payload.holder);
  if (holder === undefined) return [malformed('the presentation has no holder to bind its signature to')];
  const problems = payload.iss !== undefined && payload.iss !== holder ? [{ type: 'CLAIM_MISMATCH', title: 'the JWT iss claim and the presentation holder disagree' }] : [];
  return { suite: 'vp+jwt', holder, presentation: payload, problems };
}

/** VC-JWT 1.1 presentation: iss is the holder, jti the id, the rest in the `vp` claim (did-jwt-vc). */
function readVpJwtForm(payload: JsonObject): Form | VcProblem[] {
  const vp = payload.vp;
  if (!isJsonObject(vp)) return [malformed('a VP-JWT payload must carry a vp claim')];
  if (credentialVersion(vp) !== '1.1') return [malformed('a typ JWT presentation must be VCDM 1.1; VCDM 2.0 presentations are secured as vp+jwt')];
  if (typeof payload.iss !== 'string') return [malformed('a VP-JWT payload must carry an iss claim')];
  const presentation = structuredClone(vp);
  const problems: VcProblem[] = [];
  const declared = issuerIdOf(presentation.holder);
  if (presentation.holder !== undefined && declared !== payload.iss) problems.push({ type: 'CLAIM_MISMATCH', title: 'the JWT iss claim and vp.holder disagree' });
  else presentation.holder = isJsonObject(presentation.holder) ? { ...presentation.holder, id: payload.iss } : payload.iss;
  if (payload.jti !== undefined) {
    if (presentation.id !== undefined && presentation.id !== payload.jti) problems.push({ type: 'CLAIM_MISMATCH', title: 'the JWT jti claim and vp.id disagree' });
    else presentation.id = payload.jti;
  }
  return { suite: 'JwtProof2020', holder: payload.iss, presentation, problems };
}

/**
 * The challenge and domain a verifier asked for, bound by the JWT `nonce` and `aud` claims (the
 * VC-JWT convention Veramo follows). A challenge or domain the verifier expects must be present.
 */
function checkBinding(payload: JsonObject, options: ProofVerifyOptions): VcProblem[] {
  const problems: VcProblem[] = [];
  if (options.challenge !== undefined && payload.nonce !== options.challenge) {
    problems.push({ type: 'INVALID_CHALLENGE', title: 'the presentation is not bound to the expected challenge (nonce)' });
  }
  if (options.domain !== undefined) {
    const expected: readonly string[] = typeof options.domain === 'string' ? [options.domain] : options.domain;
    const aud = typeof payload.aud === 'string' ? [payload.aud] : Array.isArray(payload.aud) ? payload.aud : [];
    if (!expected.some((d) => aud.includes(d))) problems.push({ type: 'INVALID_DOMAIN', title: 'the presentation is not bound to the expected domain (aud)' });
  }
  return problems;
}

/**
 * Verifies a JWT presentation: VCDM 1.1 VP-JWT (`vp` claim) or VCDM 2.0 vp+jwt, compact or in an
 * EnvelopedVerifiablePresentation; signed by a key of the holder authorized for the expected purpose
 * (authentication), bound to the challenge/domain. The embedded credentials are not verified here:
 * each is the caller's to verify (isJwtCredential tells which verifier takes it).
 */
export async function verifyJwtPresentation(input: string | JsonObject, options: ProofVerifyOptions): Promise<JwtPresentationVerification> {
  const opened = openJwt(input, 'presentation');
  if (Array.isArray(opened)) return failed(opened);
  const { jwt, enveloped, header, payload, typ } = opened;
  let form: Form | VcProblem[];
  if (typ === VP_JWT_TYP) form = readJoseForm(header, payload);
  else if ((typ === 'jwt' || typ === undefined) && !enveloped) form = readVpJwtForm(payload);
  else form = [malformed(`JWT typ ${String(header.typ)} is not a presentation type (${VP_JWT_TYP} or JWT)`)];
  if (Array.isArray(form)) return failed(form);

  if (options.expectedController !== undefined && form.holder !== options.expectedController) {
    return failed([{ type: 'PROOF_VERIFICATION_ERROR', title: 'the presentation is not made by the expected holder' }], form.suite);
  }
  const binding = await bindAndVerify({ jws: jwt, header, controller: form.holder, purpose: options.expectedProofPurpose, resolver: options.resolver });
  if (!binding.ok) return failed(binding.problems, form.suite);
  const errors = [...form.problems, ...checkBinding(payload, options), ...checkTimeClaims(payload, new Date())];
  const result = { suite: form.suite, verificationMethod: binding.verificationMethod };
  if (form.problems.length > 0) return { verified: false, ...result, errors };
  return { verified: errors.length === 0, ...result, errors, presentation: form.presentation };
}
