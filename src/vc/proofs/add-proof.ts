import { AppError } from '../../errors';
import { multibaseEncode } from '../../domain/encoding/multibase';
import { CREDENTIALS_V2_URL, DATA_INTEGRITY_V1_URL, DATA_INTEGRITY_V2_URL, ED25519_2020_V1_URL } from '../../domain/contexts';
import type { AddProofOptions, JsonObject, ProofSigner } from '../ports';
import { loaderOf, nowOf, type ProofEnvironment } from './context';
import { parseXsdDateTime, xsdDateTimeNow } from './datetime';
import { hashData } from './hash-data';
import { hashAlgorithmFor, suiteForSigning, type DataIntegritySuite } from './suites';

const isObject = (v: unknown): v is JsonObject => v !== null && typeof v === 'object' && !Array.isArray(v);

function invalid(message: string): AppError {
  return new AppError('INVALID_INPUT', message);
}

/**
 * The @context a suite needs in the document, added at the end when missing (as Digital Bazaar's
 * suites do): DataIntegrityProof is defined by credentials/v2 or the data-integrity context,
 * Ed25519Signature2020 by its own suite context. Without it safe-mode canonicalisation would
 * refuse the proof's terms, and other verifiers could not read them.
 */
function withSuiteContext(document: JsonObject, suite: DataIntegritySuite): JsonObject {
  const context = document['@context'];
  if (typeof context !== 'string' && !(Array.isArray(context) && context.length > 0)) {
    throw invalid('the document to sign must have an @context');
  }
  const list: unknown[] = Array.isArray(context) ? context : [context];
  const satisfied =
    suite.type === 'Ed25519Signature2020'
      ? list.includes(ED25519_2020_V1_URL)
      : list.some((c) => c === CREDENTIALS_V2_URL || c === DATA_INTEGRITY_V1_URL || c === DATA_INTEGRITY_V2_URL);
  if (satisfied) return document;
  return { ...document, '@context': [...list, suite.type === 'Ed25519Signature2020' ? ED25519_2020_V1_URL : DATA_INTEGRITY_V2_URL] };
}

function signerFits(suite: DataIntegritySuite, signer: ProofSigner): boolean {
  return (suite.keyFamilies as readonly string[]).includes(signer.keyType);
}

/**
 * Signs `proofConfig` (a complete proof without `proofValue`) over `unsecured` and returns the
 * proof. Exposed for proof chains and the published vectors, whose proofs carry `id` and
 * `previousProof`; `unsecured` is then the document with the previous proofs it names.
 */
export async function createDataIntegrityProof(
  unsecured: JsonObject,
  proofConfig: JsonObject,
  suite: DataIntegritySuite,
  signer: ProofSigner,
  env: ProofEnvironment = {},
): Promise<JsonObject> {
  const config = suite.canonicalization === 'jcs' && unsecured['@context'] !== undefined ? { ...proofConfig, '@context': unsecured['@context'] } : proofConfig;
  // A BBS key (bbs-2023) signs message lists through its own format, never a Data Integrity hash.
  if (signer.keyType === 'Bls12381G2') throw new Error('a Bls12381G2 key signs through the bbs-2023 format only');
  const { hashData: data } = await hashData({ unsecured, proofConfig: config, suite, hash: hashAlgorithmFor(signer.keyType), documentLoader: loaderOf(env) });
  const signature = await signer.sign(data);
  return { ...config, proofValue: multibaseEncode(signature, 'z') };
}

/**
 * Adds a Data Integrity proof (DataIntegrityProof with eddsa-rdfc-2022, eddsa-jcs-2022 or
 * ecdsa-rdfc-2019, or Ed25519Signature2020) to `document`. A document that already has proofs
 * gets a proof set: the new proof signs the document without any of them (vc-data-integrity
 * §2.1.1), and is appended. Throws AppError INVALID_INPUT for a document that is not a JSON-LD
 * object, a signer whose key does not fit the suite, a bad `created`, or JSON-LD that
 * canonicalisation would not cover completely.
 */
export async function addProof(document: JsonObject, signer: ProofSigner, options: AddProofOptions, env: ProofEnvironment = {}): Promise<JsonObject> {
  if (!isObject(document)) throw invalid('the document to sign must be a JSON object');
  const suite = suiteForSigning(options.suite);
  if (!signerFits(suite, signer)) throw invalid(`${options.suite} cannot be signed with a ${signer.keyType} key`);
  if (options.proofPurpose !== 'assertionMethod' && options.proofPurpose !== 'authentication') throw invalid('proofPurpose must be assertionMethod or authentication');
  const created = options.created ?? xsdDateTimeNow(nowOf(env));
  if (parseXsdDateTime(created) === undefined) throw invalid('created must be an XMLSchema dateTime');
  const { proof: existing, ...rest } = document;
  if (existing !== undefined && !isObject(existing) && !(Array.isArray(existing) && existing.every(isObject))) {
    throw invalid('the existing proof must be an object or an array of objects');
  }
  const unsecured = withSuiteContext(rest, suite);
  // Changing @context under existing proofs would break them: their signers must have added it.
  if (existing !== undefined && unsecured !== rest) throw invalid(`the document's @context lacks what ${options.suite} needs, and its existing proofs forbid adding it`);
  const proofConfig: JsonObject = {
    type: suite.type,
    ...(suite.cryptosuite ? { cryptosuite: suite.cryptosuite } : {}),
    created,
    verificationMethod: signer.verificationMethod,
    proofPurpose: options.proofPurpose,
    ...(options.challenge !== undefined ? { challenge: options.challenge } : {}),
    ...(options.domain !== undefined ? { domain: options.domain } : {}),
  };
  const proof = await createDataIntegrityProof(unsecured, proofConfig, suite, signer, env);
  if (existing === undefined) return { ...unsecured, proof };
  return { ...unsecured, proof: [...(Array.isArray(existing) ? existing : [existing]), proof] };
}
