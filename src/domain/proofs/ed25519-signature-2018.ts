import { AppError } from '../../errors';
import { canonizeJsonLd, type DocumentLoader } from '../contexts';
import { proofHashes } from './proof-hashes';
import type { Signer } from '../keys/signer.port';
import { parseDetachedEdDsaJws, signDetachedEdDsaJws, signDetachedEdDsaJwsWith, verifyDetachedEdDsaJws, type JwsVerification } from './detached-jws';

/**
 * Ed25519Signature2018 Linked Data proofs (https://w3c-ccg.github.io/lds-ed25519-2018/), computed
 * exactly as digitalbazaar's jsonld-signatures does, so its signatures verify here and ours there:
 *
 *   proof options = the proof without `jws`, with the document's `@context`
 *   verifyData    = sha256(RDFC(proof options)) || sha256(RDFC(document without proof))
 *   jws           = detached EdDSA JWS (b64: false) over verifyData
 *
 * Unlike jsonld-signatures' defaults, canonicalization always runs in JSON-LD safe mode, so a field
 * that would not make it into the RDF dataset is an error, never an unsigned field.
 */

export const ED25519_SIGNATURE_2018 = 'Ed25519Signature2018';

/** Proof members that hold a signature; they are never part of the signed proof options. */
const SIGNATURE_MEMBERS = ['jws', 'proofValue', 'signatureValue'] as const;

export type JsonObject = Record<string, unknown>;

/**
 * The key signs either as a seed the caller holds for the one call, or through the signer port
 * (src/domain/keys/signer.port.ts), whose private key never reaches this code.
 */
export type SignEd25519Signature2018Options = SignEd25519Signature2018Proof &
  (
    | {
        /** 32-byte Ed25519 private key seed. */
        seed: Uint8Array;
      }
    | {
        /** An Ed25519 signer (RFC 8032, 64-byte signatures). */
        signer: Signer;
      }
  );

export interface SignEd25519Signature2018Proof {
  /** Proof options, e.g. `created`, `proofPurpose`, `verificationMethod` (or `creator` + `vcVerificationMethod`). */
  proof: Readonly<JsonObject>;
  documentLoader: DocumentLoader;
  /** JSON-LD base IRI for relative references, when the caller's profile defines one. */
  base?: string;
}

export interface VerifyEd25519Signature2018Options {
  /** 32-byte Ed25519 public key of the proof's verification method (resolving it is the caller's job). */
  publicKey: Uint8Array;
  documentLoader: DocumentLoader;
  /** Must equal the `base` the document was signed with. */
  base?: string;
}

export type Ed25519Signature2018Verification = JwsVerification;

function isJsonObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The 64 bytes the suite signs: `sha256(canonical proof options) || sha256(canonical document)`.
 * `document` must already be without `proof`; `proofOptions` without `jws`. Throws
 * `AppError('INVALID_INPUT')` if either cannot be canonicalized in safe mode.
 */
export async function createVerifyData(
  document: Readonly<JsonObject>,
  proofOptions: Readonly<JsonObject>,
  documentLoader: DocumentLoader,
  base?: string,
): Promise<Uint8Array> {
  // The proof options are canonicalised under the document's @context (theirs, if they carry one, wins).
  const proofConfig = { '@context': document['@context'], ...proofOptions };
  const hashes = await proofHashes({ document, proofConfig, canonicalization: 'rdfc', hash: 'sha256', documentLoader, ...(base !== undefined ? { base } : {}) });
  return hashes.hashData;
}

/**
 * Signs `document` and returns a copy with `proof` set (the given proof options, `type` defaulting to
 * Ed25519Signature2018, plus `jws`). Nothing is defaulted silently beyond `type` — in particular not
 * `created`, so the function stays deterministic. Throws `AppError('INVALID_INPUT')` if the document
 * already has a proof, the proof names another suite or carries a signature member, or a field is
 * not covered by the document's contexts; `AppError('INVALID_PRIVATE_KEY')` for a seed that is not
 * 32 bytes; `AppError('INTERNAL')` when a signer returns anything but a 64-byte signature.
 */
export async function signEd25519Signature2018<T extends JsonObject>(
  document: T,
  options: SignEd25519Signature2018Options,
): Promise<T & { proof: JsonObject }> {
  if (!isJsonObject(document)) throw new AppError('INVALID_INPUT', 'document to sign must be a JSON object');
  if ('proof' in document) throw new AppError('INVALID_INPUT', 'document to sign already has a proof');
  if (!isJsonObject(options.proof)) throw new AppError('INVALID_INPUT', 'proof options must be a JSON object');
  const { type = ED25519_SIGNATURE_2018, ...rest } = options.proof;
  if (type !== ED25519_SIGNATURE_2018) {
    throw new AppError('INVALID_INPUT', `proof type must be ${ED25519_SIGNATURE_2018}`);
  }
  for (const member of SIGNATURE_MEMBERS) {
    if (member in rest) throw new AppError('INVALID_INPUT', `proof options must not contain ${member}`);
  }
  const proofOptions: JsonObject = { type, ...rest };
  const verifyData = await createVerifyData(document, proofOptions, options.documentLoader, options.base);
  const jws = 'signer' in options ? await signDetachedEdDsaJwsWith(verifyData, options.signer) : signDetachedEdDsaJws(verifyData, options.seed);
  return { ...document, proof: { ...proofOptions, jws } };
}

/**
 * Verifies the Ed25519Signature2018 proof of `document` against `publicKey`.
 *
 * Returns `{ verified: false, reason }` — never throws — for a missing, multiple or foreign-type
 * proof, a malformed `jws` or header, a stray `proofValue`/`signatureValue` (it would not be covered)
 * and any signature mismatch. Throws `AppError('INVALID_INPUT')` only when the document cannot be
 * canonicalized at all: an unknown context URL, a term no context defines, a non-absolute IRI where
 * an IRI is required, or similar JSON-LD errors. Checking that `publicKey` really belongs to
 * `verificationMethod`/`creator` and that the proof purpose is acceptable is the caller's job.
 */
export async function verifyEd25519Signature2018(
  document: unknown,
  options: VerifyEd25519Signature2018Options,
): Promise<Ed25519Signature2018Verification> {
  if (!isJsonObject(document)) return { verified: false, reason: 'document is not a JSON object' };
  const { proof, ...unsigned } = document;
  if (proof === undefined) return { verified: false, reason: 'document has no proof' };
  if (Array.isArray(proof)) return { verified: false, reason: 'proof sets (multiple proofs) are not supported' };
  if (!isJsonObject(proof)) return { verified: false, reason: 'proof is not a JSON object' };
  if (proof.type !== ED25519_SIGNATURE_2018) {
    return { verified: false, reason: `proof type is not ${ED25519_SIGNATURE_2018}` };
  }
  const { jws, ...proofOptions } = proof;
  if ('proofValue' in proofOptions || 'signatureValue' in proofOptions) {
    return { verified: false, reason: 'proof has a proofValue/signatureValue, which this suite does not sign' };
  }
  const parsed = parseDetachedEdDsaJws(jws);
  if ('reason' in parsed) return { verified: false, reason: parsed.reason };
  const verifyData = await createVerifyData(unsigned, proofOptions, options.documentLoader, options.base);
  return verifyDetachedEdDsaJws(jws, verifyData, options.publicKey);
}
