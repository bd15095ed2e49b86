import { ENCRYPTED_TYPE, FAMILY_A_JSONLD_BASE, isCiphertextText, subjectOfCredential } from '../../domain/credentials/family-a-credential';
import { framingProblem } from '../../domain/credentials/family-a-pinning';
import { canonicalBytes } from '../../domain/canonical';
import { verifyDetachedEs256k } from '../../domain/credentials/es256k-detached';
import { familyBShapeProblem } from '../../domain/credentials/family-b-credential';
import type { JsonObject, VcProblem } from '../ports';
import { PROOF_PROBLEM as P, problem } from './problems';

/**
 * The seed's two proof profiles, read as W3C proofs (docs/API.md "Supported proof suites"). Both
 * sign less than the whole JSON of the credential, so each is accepted only in the exact shape the
 * service issues, where everything shown is covered; any other shape is refused, never verified
 * on the part that happens to be signed.
 */

/**
 * Family A: Ed25519Signature2018 that names its key in `vcVerificationMethod` (a Credgate term,
 * signed with the proof options) beside `creator`, instead of `verificationMethod`.
 */
export function isFamilyAProof(proof: JsonObject): boolean {
  return proof.type === 'Ed25519Signature2018' && proof.verificationMethod === undefined && proof.vcVerificationMethod !== undefined;
}

export interface FamilyAPrepared {
  readonly problems: VcProblem[];
  /** The part the proof covers (with its proof), when the shape allows a signature check. */
  readonly covered?: JsonObject;
  /** The JSON-LD base the profile signs under (encrypted subjects carry base64 text as `id`). */
  readonly base: string;
}

/**
 * What a Family A credential's signature covers, or why it cannot be checked as one. The RDF
 * signature does not cover the JSON-LD framing (an appended context can rename claims into the
 * signed RDF), so the context list and the proof's members must be exactly the issued ones;
 * `credentialStatus` is outside the proof and must be the seed's `""` (no status); the proof's
 * `creator` must be the DID of the key it names.
 */
export function prepareFamilyA(document: JsonObject, proof: JsonObject, proofCount: number): FamilyAPrepared {
  const base = FAMILY_A_JSONLD_BASE;
  if (proofCount !== 1) return { base, problems: [problem(P.MALFORMED_PROOF, 'a Family A credential carries exactly one proof')] };
  const framing = framingProblem({ ...document, proof });
  if (framing) return { base, problems: [problem(P.UNSIGNED_CONTENT, framing)] };
  const vm = proof.vcVerificationMethod;
  if (typeof vm !== 'string' || proof.creator !== vm.split('#')[0]) {
    return { base, problems: [problem(P.MALFORMED_PROOF, 'creator must be the DID of vcVerificationMethod')] };
  }
  const { credentialStatus, ...rest } = document;
  if (credentialStatus !== undefined && credentialStatus !== '') {
    return { base, problems: [problem(P.UNSIGNED_CONTENT, 'credentialStatus is outside a Family A proof and must be ""')] };
  }
  // Under the base, `Abc` and `https://credgate.dev/ciphertext/Abc` are one IRI: only the issued spelling is accepted.
  const types = Array.isArray(document.type) ? document.type : [];
  if (types.includes(ENCRYPTED_TYPE) && !Object.values(subjectOfCredential(document) ?? { x: null }).every(isCiphertextText)) {
    return { base, problems: [problem(P.PROOF_VERIFICATION_ERROR, 'an encrypted subject value is not a ciphertext')] };
  }
  return { base, problems: [], covered: { ...rest, proof } };
}

/** The members the seed's selective-disclosure profile signs its values through. */
const SD_MEMBERS = ['sdAlg', 'digests', 'disclosures'] as const;

/**
 * Family B: EcdsaSecp256k1Signature2019 in the seed's selective-disclosure profile, whose
 * signature covers salted digests of the subject values and the other members by name. A member
 * it does not name would ride along unsigned, so the credential must have exactly the issued
 * members. The CCG's RDF-canonicalised EcdsaSecp256k1Signature2019 (no digests) is not this profile.
 */
export function familyBProblems(single: JsonObject, proof: JsonObject): VcProblem[] {
  if (!SD_MEMBERS.every((m) => proof[m] !== undefined)) {
    return [problem(P.UNSUPPORTED_PROOF_SUITE, 'EcdsaSecp256k1Signature2019 is verified only in the Credgate selective-disclosure profile (sdAlg, digests, disclosures)')];
  }
  const shape = familyBShapeProblem(single);
  if (!shape) return [];
  return [problem(/not covered by the issuer's proof$/.test(shape) ? P.UNSIGNED_CONTENT : P.MALFORMED_PROOF, shape)];
}

/**
 * The seed's public status list credentials (GET /credentials/status/{id}): EcdsaSecp256k1Signature2019
 * whose detached ES256K JWS covers the RFC 8785 (JCS) form of the whole document with the proof
 * minus `jws`, so nothing shown is unsigned. Recognised only on a BitstringStatusListCredential
 * without selective-disclosure members: the same type name on anything else is the CCG suite.
 */
export function isSeedStatusListProof(document: JsonObject, proof: JsonObject): boolean {
  const types = Array.isArray(document.type) ? document.type : [];
  return proof.type === 'EcdsaSecp256k1Signature2019' && types.includes('BitstringStatusListCredential') && SD_MEMBERS.every((m) => proof[m] === undefined);
}

/** False, never throws, unless the JWS over the JCS of `{...document, proof: proof without jws}` verifies. */
export function verifySeedStatusList(single: JsonObject, proof: JsonObject, publicKey: Uint8Array): boolean {
  const { jws, ...options } = proof;
  try {
    return verifyDetachedEs256k(jws, canonicalBytes({ ...single, proof: options }), publicKey);
  } catch {
    return false;
  }
}
