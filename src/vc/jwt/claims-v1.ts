import type { JsonObject, VcProblem } from '../ports';
import { dateTimeStampOf, isJsonObject, issuerIdOf } from '../model';

/**
 * VC-JWT for VCDM 1.1 (VCDM 1.1 §6.3.1), as did-jwt-vc and Veramo write it: credential members move
 * to registered claims (issuer → iss, id → jti, credentialSubject.id → sub, issuanceDate → nbf,
 * expirationDate → exp) and the rest stays in the `vc` claim. Reading reverses the move; a member
 * present both ways must agree, or one of them was changed after signing.
 */

const seconds = (date: unknown): number | undefined => (typeof date === 'string' && !Number.isNaN(Date.parse(date)) ? Math.floor(Date.parse(date) / 1000) : undefined);

export function credentialToClaims(credential: JsonObject): JsonObject {
  const vc = structuredClone(credential);
  const claims: JsonObject = {};
  const iss = issuerIdOf(vc.issuer);
  if (iss !== undefined) {
    claims.iss = iss;
    if (isJsonObject(vc.issuer)) {
      const { id: _id, ...rest } = vc.issuer;
      if (Object.keys(rest).length > 0) vc.issuer = rest;
      else delete vc.issuer;
    } else delete vc.issuer;
  }
  const subject = vc.credentialSubject;
  if (isJsonObject(subject) && typeof subject.id === 'string') {
    claims.sub = subject.id;
    const { id: _id, ...rest } = subject;
    vc.credentialSubject = rest;
  }
  if (typeof vc.id === 'string') {
    claims.jti = vc.id;
    delete vc.id;
  }
  const nbf = seconds(vc.issuanceDate);
  if (nbf !== undefined) {
    claims.nbf = nbf;
    delete vc.issuanceDate;
  }
  const exp = seconds(vc.expirationDate);
  if (exp !== undefined) {
    claims.exp = exp;
    delete vc.expirationDate;
  }
  return { vc, ...claims };
}

const mismatch = (what: string): VcProblem => ({
  type: 'CLAIM_MISMATCH',
  title: `the JWT ${what} disagree`,
  detail: 'a credential member and its JWT claim must carry the same value',
});

const isSecondsClaim = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** The credential a VC-JWT 1.1 payload carries, or the inconsistencies that make it a tamper. */
export function claimsToCredential(payload: JsonObject): { credential?: JsonObject; problems: VcProblem[] } {
  const vc = payload.vc;
  if (!isJsonObject(vc)) return { problems: [{ type: 'PARSING_ERROR', title: 'the JWT has no vc claim' }] };
  const credential = structuredClone(vc);
  const problems: VcProblem[] = [];
  const { iss, sub, jti, nbf, exp } = payload;

  if (typeof iss !== 'string') problems.push({ type: 'PARSING_ERROR', title: 'the JWT has no iss claim' });
  else {
    const declared = issuerIdOf(credential.issuer);
    if (credential.issuer !== undefined && declared !== undefined && declared !== iss) problems.push(mismatch('iss claim and vc.issuer'));
    else credential.issuer = isJsonObject(credential.issuer) ? { ...credential.issuer, id: iss } : iss;
  }

  if (sub !== undefined) {
    const subject = credential.credentialSubject;
    if (typeof sub !== 'string' || !isJsonObject(subject)) problems.push(mismatch('sub claim and vc.credentialSubject'));
    else if (subject.id !== undefined && subject.id !== sub) problems.push(mismatch('sub claim and vc.credentialSubject.id'));
    else credential.credentialSubject = { ...subject, id: sub };
  }

  if (jti !== undefined) {
    if (typeof jti !== 'string' || (credential.id !== undefined && credential.id !== jti)) problems.push(mismatch('jti claim and vc.id'));
    else credential.id = jti;
  }

  const dates = [
    ['nbf', nbf, 'issuanceDate'],
    ['exp', exp, 'expirationDate'],
  ] as const;
  for (const [claim, value, member] of dates) {
    if (value === undefined) continue;
    if (!isSecondsClaim(value)) {
      problems.push({ type: 'PARSING_ERROR', title: `the JWT ${claim} claim must be a NumericDate` });
      continue;
    }
    const declared = credential[member];
    if (declared !== undefined && seconds(declared) !== Math.floor(value)) problems.push(mismatch(`${claim} claim and vc.${member}`));
    else if (declared === undefined) credential[member] = dateTimeStampOf(new Date(value * 1000));
  }
  return problems.length > 0 ? { problems } : { credential, problems };
}
