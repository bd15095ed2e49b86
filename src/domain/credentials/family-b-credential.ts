import { sha256 } from '../hash/sha256';
import { canonicalBytes } from '../canonical';
import { CREDENTIALS_V1_URL, CREDGATE_V1_CONTEXT_URL } from '../contexts';
import { type DisclosedCredentialCheck, type SdCredentialPayload, checkDisclosedCredential, createSdCredentialPayload, sdCommitment, sdDigestList } from '../presentations';
import { signDetachedEs256k, verifyDetachedEs256k } from './es256k-detached';
import { isRfc3339DateTime } from '../templates/date-values';

export const FAMILY_B_PROOF_TYPE = 'EcdsaSecp256k1Signature2019';

export type Json = Record<string, unknown>;

export interface FamilyBCredentialInput {
  readonly id: string;
  readonly templateName: string;
  readonly issuer: string;
  readonly holder: string | null;
  readonly issuanceDate: string;
  readonly expirationDate: string;
  readonly values: Json;
  readonly credentialStatus: Json;
  readonly verificationMethod: string;
  readonly created: string;
  /**
   * The salted digests and disclosures of `values` (createSdCredentialPayload), when made
   * beforehand: the service makes them before the issuer's tick, so the tick, which holds the
   * issuer's status list locked, only signs. Made here when absent.
   */
  readonly sd?: SdCredentialPayload;
}

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The subject object of a credential (Family B carries it as a one-element array). */
export function subjectOf(credential: Json): Json | undefined {
  const s = credential['credentialSubject'];
  const one = Array.isArray(s) ? (s.length === 1 ? s[0] : undefined) : s;
  return isObject(one) ? one : undefined;
}

function proofOptionsOf(proof: Json): Json {
  return { type: proof['type'], created: proof['created'], proofPurpose: proof['proofPurpose'], verificationMethod: proof['verificationMethod'] };
}

/**
 * What the issuer signs: an SD-JWT-style commitment to salted digests of each subject value
 * (never the values), plus every other member in full — id, type, issuer, holder, dates, @context,
 * credentialStatus and the proof options. The same bytes are recomputed from a full credential
 * or from a presented one that discloses only some attributes.
 */
export function commitmentOf(credential: Json): Uint8Array {
  const proof = isObject(credential['proof']) ? credential['proof'] : {};
  const holder = subjectOf(credential)?.['id'];
  return sdCommitment({
    credentialId: String(credential['id']),
    issuer: String(credential['issuer']),
    holder: typeof holder === 'string' ? holder : null,
    issuanceDate: String(credential['issuanceDate']),
    expirationDate: String(credential['expirationDate']),
    type: Array.isArray(credential['type']) ? (credential['type'] as string[]) : [],
    digests: Array.isArray(proof['digests']) ? (proof['digests'] as string[]) : [],
    bound: { '@context': credential['@context'], credentialStatus: credential['credentialStatus'], proof: proofOptionsOf(proof) },
  });
}

/** Issues (signs) a credential with the issuer's secp256k1 key. */
export function signFamilyBCredential(input: FamilyBCredentialInput, issuerPrivateKey: Uint8Array): Json {
  const { digests, disclosures } = input.sd ?? createSdCredentialPayload(input.values);
  const unsigned: Json = {
    '@context': [CREDENTIALS_V1_URL, CREDGATE_V1_CONTEXT_URL],
    id: input.id,
    type: ['VerifiableCredential', input.templateName],
    issuer: input.issuer,
    issuanceDate: input.issuanceDate,
    expirationDate: input.expirationDate,
    credentialSubject: [{ ...(input.holder ? { id: input.holder } : {}), ...input.values }],
    credentialStatus: input.credentialStatus,
    proof: {
      type: FAMILY_B_PROOF_TYPE,
      created: input.created,
      proofPurpose: 'assertionMethod',
      verificationMethod: input.verificationMethod,
      sdAlg: 'sha-256',
      digests: sdDigestList(digests),
      disclosures,
    },
  };
  const jws = signDetachedEs256k(commitmentOf(unsigned), issuerPrivateKey);
  return { ...unsigned, proof: { ...(unsigned['proof'] as Json), jws } };
}

/** The issuer's signature over the commitment; false, never throws, for any defect. */
export function verifyFamilyBSignature(credential: Json, issuerPublicKey: Uint8Array): boolean {
  const proof = credential['proof'];
  if (!isObject(proof) || proof['type'] !== FAMILY_B_PROOF_TYPE) return false;
  try {
    return verifyDetachedEs256k(proof['jws'], commitmentOf(credential), issuerPublicKey);
  } catch {
    return false;
  }
}

/**
 * Every shown subject value (other than the holder `id`) must have a disclosure whose digest the
 * issuer signed. `all`: a full credential must disclose every signed digest.
 */
export function checkSubject(credential: Json, options: { all: boolean; expectedAttributes?: readonly string[] }): DisclosedCredentialCheck {
  const proof = credential['proof'];
  const subject = subjectOf(credential);
  if (!isObject(proof) || !subject || !isObject(proof['disclosures']) || !Array.isArray(proof['digests'])) {
    return { ok: false, reason: 'credential has no subject, digests or disclosures' };
  }
  const { id: _holder, ...disclosed } = subject;
  const check = checkDisclosedCredential({
    disclosed,
    disclosures: Object.values(proof['disclosures']) as string[],
    digests: proof['digests'] as string[],
    ...(options.expectedAttributes ? { expectedAttributes: options.expectedAttributes } : {}),
  });
  if (check.ok && options.all && Object.keys(disclosed).length !== (proof['digests'] as unknown[]).length) {
    return { ok: false, reason: 'some signed attributes are missing from the credential' };
  }
  return check;
}

/** A copy that shows only `attributes` (and the holder id), with only their disclosures. */
export function discloseOnly(credential: Json, attributes: readonly string[]): Json {
  const subject = subjectOf(credential) ?? {};
  const proof = (credential['proof'] ?? {}) as Json;
  const disclosures = (proof['disclosures'] ?? {}) as Record<string, string>;
  const shownSubject: Json = { ...(subject['id'] !== undefined ? { id: subject['id'] } : {}) };
  const shownDisclosures: Record<string, string> = {};
  for (const a of attributes) {
    if (a in subject && a !== 'id') shownSubject[a] = subject[a];
    if (disclosures[a] !== undefined) shownDisclosures[a] = disclosures[a];
  }
  return { ...credential, credentialSubject: [shownSubject], proof: { ...proof, disclosures: shownDisclosures } };
}

/** SHA-256 over the RFC 8785 form of the whole credential: the value anchored in the ledger. */
export function credentialHash(credential: Json): Uint8Array {
  return sha256(canonicalBytes(credential));
}

/** The exact `@context` of every Family B credential (context pinning: no other or extra context). */
export const FAMILY_B_CREDENTIAL_CONTEXT: readonly string[] = [CREDENTIALS_V1_URL, CREDGATE_V1_CONTEXT_URL];
const CREDENTIAL_MEMBERS = ['@context', 'id', 'type', 'issuer', 'issuanceDate', 'expirationDate', 'credentialSubject', 'credentialStatus', 'proof'];
const PROOF_MEMBERS = ['type', 'created', 'proofPurpose', 'verificationMethod', 'sdAlg', 'digests', 'disclosures', 'jws'];

function exactMembers(o: Json, members: readonly string[]): string | null {
  const extra = Object.keys(o).find((k) => !members.includes(k));
  if (extra !== undefined) return `member "${extra.slice(0, 64)}" is not covered by the issuer's proof`;
  const missing = members.find((k) => !Object.hasOwn(o, k));
  return missing !== undefined ? `member "${missing}" is missing` : null;
}

const isInstant = (v: unknown): v is string => typeof v === 'string' && v.length <= 64 && isRfc3339DateTime(v) && Number.isFinite(Date.parse(v));

/**
 * Structural checks of a Family B credential, full or as presented, before any cryptography:
 * exactly the members this service signs (anything else — `evidence`, `termsOfUse`, a second
 * subject — would ride along unsigned inside a presentation, whose ledger check does not apply),
 * the pinned `@context` list, the proof's members and purpose, and well-formed dates.
 * Returns the first problem, or null.
 */
export function familyBShapeProblem(credential: Json): string | null {
  const members = exactMembers(credential, CREDENTIAL_MEMBERS);
  if (members) return members;
  const ctx = credential['@context'];
  if (!Array.isArray(ctx) || ctx.length !== FAMILY_B_CREDENTIAL_CONTEXT.length || !ctx.every((c, i) => c === FAMILY_B_CREDENTIAL_CONTEXT[i])) {
    return `@context must be exactly ${JSON.stringify(FAMILY_B_CREDENTIAL_CONTEXT)}`;
  }
  const type = credential['type'];
  if (!Array.isArray(type) || type.length !== 2 || type[0] !== 'VerifiableCredential' || typeof type[1] !== 'string') return 'type must be ["VerifiableCredential", <template name>]';
  if (typeof credential['id'] !== 'string' || typeof credential['issuer'] !== 'string') return 'id and issuer must be strings';
  const subjects = credential['credentialSubject'];
  if (!Array.isArray(subjects) || subjects.length !== 1 || !isObject(subjects[0])) return 'credentialSubject must hold exactly one subject';
  const proof = credential['proof'];
  if (!isObject(proof)) return 'proof is missing';
  const proofMembers = exactMembers(proof, PROOF_MEMBERS);
  if (proofMembers) return `proof ${proofMembers}`;
  if (proof['type'] !== FAMILY_B_PROOF_TYPE) return `proof type must be ${FAMILY_B_PROOF_TYPE}`;
  if (proof['proofPurpose'] !== 'assertionMethod') return 'proofPurpose must be assertionMethod';
  if (proof['sdAlg'] !== 'sha-256') return 'sdAlg must be sha-256';
  for (const [name, v] of [['issuanceDate', credential['issuanceDate']], ['expirationDate', credential['expirationDate']], ['proof.created', proof['created']]] as const) {
    if (!isInstant(v)) return `${name} must be an RFC 3339 date-time`;
  }
  if (Date.parse(credential['expirationDate'] as string) <= Date.parse(credential['issuanceDate'] as string)) return 'expirationDate must be after issuanceDate';
  return null;
}

/** Validity at `now`: null, or why not (not yet valid / expired). Dates must have passed familyBShapeProblem. */
export function familyBValidityProblem(credential: Json, now: Date): string | null {
  const t = now.getTime();
  const from = Date.parse(String(credential['issuanceDate']));
  const until = Date.parse(String(credential['expirationDate']));
  if (!Number.isFinite(from) || !Number.isFinite(until)) return 'credential dates are malformed';
  if (t < from) return 'credential is not yet valid';
  if (t > until) return 'credential has expired';
  return null;
}
