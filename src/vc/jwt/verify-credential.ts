import type { ProtectedHeaderParameters } from 'jose';
import type { JsonObject, ProofVerification, ProofVerifyOptions, VcProblem } from '../ports';
import { credentialVersion, isJsonObject, issuerIdOf } from '../model';
import { claimsToCredential } from './claims-v1';
import { VC_JWT_TYP } from './issue';
import { bindAndVerify } from './key-binding';
import { failed, malformed, openJwt } from './open-jwt';
import { checkTimeClaims } from './time-claims';

export const VC_JWT_SUITE = 'vc+jwt';
/** The proof type name Veramo and did-jwt-vc give a VCDM 1.1 VC-JWT. */
export const VC_JWT_1_1_SUITE = 'JwtProof2020';

export type JwtCredentialVerification = ProofVerification & { credential?: JsonObject };

interface Form {
  readonly suite: string;
  readonly signer: string;
  readonly credential: JsonObject;
  readonly problems: VcProblem[];
}

/** VC-JOSE-COSE: the payload is the credential; iss, when a producer adds it, must be the issuer. */
function readJoseForm(header: ProtectedHeaderParameters, payload: JsonObject): Form | VcProblem[] {
  if (header.cty !== undefined && header.cty !== 'vc') return [malformed('a vc+jwt header cty, when present, must be vc')];
  if (credentialVersion(payload) !== '2.0' || payload.vc !== undefined) return [malformed('a vc+jwt payload must be a VCDM 2.0 credential')];
  const issuer = issuerIdOf(payload.issuer);
  if (issuer === undefined) return [malformed('the credential has no issuer')];
  const problems = payload.iss !== undefined && payload.iss !== issuer ? [{ type: 'CLAIM_MISMATCH', title: 'the JWT iss claim and the credential issuer disagree' }] : [];
  return { suite: VC_JWT_SUITE, signer: issuer, credential: payload, problems };
}

function readVcJwtForm(payload: JsonObject): Form | VcProblem[] {
  if (!isJsonObject(payload.vc)) return [malformed('a VC-JWT payload must carry a vc claim')];
  if (credentialVersion(payload.vc) !== '1.1') {
    return [malformed('a typ JWT credential must be VCDM 1.1; VCDM 2.0 credentials are secured as vc+jwt')];
  }
  if (typeof payload.iss !== 'string') return [malformed('a VC-JWT payload must carry an iss claim')];
  const { credential, problems } = claimsToCredential(payload);
  return { suite: VC_JWT_1_1_SUITE, signer: payload.iss, credential: credential ?? payload.vc, problems };
}

/**
 * Verifies a JWT credential: a compact JWS (VCDM 2.0 vc+jwt or VCDM 1.1 VC-JWT) or a VCDM 2.0
 * EnvelopedVerifiableCredential. The answer's `credential` is the one the signature covers (for 1.1,
 * rebuilt from the claims) and is present whenever the signature verified, even if the token has
 * expired; use it, never the caller's copy. Validity period, status and shape are the caller's
 * checks (checkValidityPeriod etc.) — a 2.0 credential's validUntil is not a JWT claim.
 */
export async function verifyJwtCredential(input: string | JsonObject, options: ProofVerifyOptions): Promise<JwtCredentialVerification> {
  const opened = openJwt(input, 'credential');
  if (Array.isArray(opened)) return failed(opened);
  const { jwt, enveloped, header, payload, typ } = opened;

  let form: Form | VcProblem[];
  if (typ === VC_JWT_TYP) form = readJoseForm(header, payload);
  else if ((typ === 'jwt' || typ === undefined) && !enveloped) form = readVcJwtForm(payload);
  else form = [malformed(enveloped ? `an enveloped credential's typ must be ${VC_JWT_TYP}` : `JWT typ ${String(header.typ)} is not a credential type (${VC_JWT_TYP} or JWT)`)];
  if (Array.isArray(form)) return failed(form);

  if (options.expectedController !== undefined && form.signer !== options.expectedController) {
    return failed([{ type: 'PROOF_VERIFICATION_ERROR', title: 'the credential is not issued by the expected issuer', detail: form.signer }], form.suite);
  }
  const binding = await bindAndVerify({ jws: jwt, header, controller: form.signer, purpose: options.expectedProofPurpose, resolver: options.resolver });
  if (!binding.ok) return failed(binding.problems, form.suite);

  const errors = [...form.problems, ...checkTimeClaims(payload, new Date())];
  const result = { suite: form.suite, verificationMethod: binding.verificationMethod };
  // A claim mismatch means the rebuilt credential is not what was signed as a whole: withhold it.
  if (form.problems.length > 0) return { verified: false, ...result, errors };
  return { verified: errors.length === 0, ...result, errors, credential: form.credential };
}
