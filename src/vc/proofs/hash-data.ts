import { createHash } from 'node:crypto';
import { canonicalize } from '../../domain/canonical';
import { activeJsonLdBudget, assertWithinJsonLdBudget, canonizeJsonLd, type DocumentLoader } from '../../domain/contexts';
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

export interface HashIntermediates {
  readonly canonicalProofConfig: string;
  readonly canonicalDocument: string;
  readonly proofHash: Uint8Array;
  readonly documentHash: Uint8Array;
  /** `hash(proofConfig) || hash(document)`: what is signed. */
  readonly hashData: Uint8Array;
}

const digest = (algorithm: string, text: string): Uint8Array => new Uint8Array(createHash(algorithm).update(text, 'utf8').digest());

/**
 * The data a Data Integrity proof signs (vc-data-integrity §4, vc-di-eddsa §3, vc-di-ecdsa §3):
 * RDFC suites canonicalise the proof configuration under the document's @context with RDFC-1.0
 * (the service's worker pool, JSON-LD budget and safe mode, no network); eddsa-jcs-2022 serialises
 * both with JCS (RFC 8785), its proof configuration carrying @context itself. Throws the
 * canonicaliser's AppErrors (INVALID_INPUT for JSON-LD that would lose data or names an unknown
 * context).
 */
export async function hashData(input: HashInput): Promise<HashIntermediates> {
  let canonicalProofConfig: string;
  let canonicalDocument: string;
  if (input.suite.canonicalization === 'jcs') {
    // JCS is linear, but not free: the structural budget RDFC documents must fit applies here
    // too (review 3: a JCS credential with 6,000 status entries skipped it).
    assertWithinJsonLdBudget(input.unsecured, activeJsonLdBudget(), 'document');
    canonicalProofConfig = canonicalize(input.proofConfig);
    canonicalDocument = canonicalize(input.unsecured);
  } else {
    const config = { ...input.proofConfig, '@context': input.unsecured['@context'] };
    canonicalProofConfig = await canonizeJsonLd(config, input.documentLoader);
    canonicalDocument = await canonizeJsonLd(input.unsecured, input.documentLoader);
  }
  // Both kinds count against the request's one canonicalisation budget (a presentation of many
  // credentials, each list's proof): the next proof of an over-budget request is refused.
  currentBudget()?.chargeCanonical(canonicalProofConfig.length + canonicalDocument.length);
  const proofHash = digest(input.hash, canonicalProofConfig);
  const documentHash = digest(input.hash, canonicalDocument);
  const hashData = new Uint8Array(proofHash.length + documentHash.length);
  hashData.set(proofHash, 0);
  hashData.set(documentHash, proofHash.length);
  return { canonicalProofConfig, canonicalDocument, proofHash, documentHash, hashData };
}
