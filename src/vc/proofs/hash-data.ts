import { activeJsonLdBudget, assertWithinJsonLdBudget, type DocumentLoader } from '../../domain/contexts';
import { type ProofHashes, proofHashes } from '../../domain/proofs/proof-hashes';
import { currentBudget } from '../net/request-budget';
import type { JsonObject } from '../ports';
import type { DataIntegritySuite } from './suites';

export interface HashInput {
  /** The document without the proof being made or checked (for a chain: with its previous proofs). */
  readonly unsecured: JsonObject;
  /** The proof without `proofValue`. */
  readonly proofConfig: JsonObject;
  readonly suite: DataIntegritySuite;
  readonly hash: 'sha256' | 'sha384';
  readonly documentLoader: DocumentLoader;
}

/** `hash(proofConfig) || hash(document)` and the steps to it. */
export type HashIntermediates = ProofHashes;

/**
 * The data a Data Integrity proof signs (vc-data-integrity §4, vc-di-eddsa §3, vc-di-ecdsa §3):
 * RDFC suites canonicalise the proof configuration under the document's @context with RDFC-1.0
 * (the service's worker pool, JSON-LD budget and safe mode, no network); eddsa-jcs-2022 serialises
 * both with JCS (RFC 8785), its proof configuration carrying @context itself. Throws the
 * canonicaliser's AppErrors (INVALID_INPUT for JSON-LD that would lose data or names an unknown
 * context).
 */
export async function hashData(input: HashInput): Promise<HashIntermediates> {
  const jcs = input.suite.canonicalization === 'jcs';
  // JCS is linear, but not free: the structural budget RDFC documents must fit applies here
  // too (review 3: a JCS credential with 6,000 status entries skipped it).
  if (jcs) assertWithinJsonLdBudget(input.unsecured, activeJsonLdBudget(), 'document');
  // RDFC: the proof configuration takes the document's @context (whatever it carries itself).
  const proofConfig = jcs ? input.proofConfig : { ...input.proofConfig, '@context': input.unsecured['@context'] };
  const hashes = await proofHashes({ document: input.unsecured, proofConfig, canonicalization: jcs ? 'jcs' : 'rdfc', hash: input.hash, documentLoader: input.documentLoader });
  // Both kinds count against the request's one canonicalisation budget (a presentation of many
  // credentials, each list's proof): the next proof of an over-budget request is refused.
  currentBudget()?.chargeCanonical(hashes.canonicalProofConfig.length + hashes.canonicalDocument.length);
  return hashes;
}
