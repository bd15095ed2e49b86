import { sha256 } from '@noble/hashes/sha2.js';
import { canonicalBytes } from '../canonical';
import { CREDENTIALS_V1_URL, CREDGATE_V1_CONTEXT_URL } from '../contexts';
import { type DisclosedCredentialCheck, checkDisclosedCredential, createSdCredentialPayload, sdCommitment, sdDigestList } from '../presentations';
import { signDetachedEs256k, verifyDetachedEs256k } from './es256k-detached';

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
  const { digests, disclosures } = createSdCredentialPayload(input.values);
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
