import { createHash } from 'node:crypto';
import { canonicalize } from '../canonical';
import { type DocumentLoader, canonizeJsonLd } from '../contexts';
import { canonicalProofConfig as memoisedCanonicalProofConfig } from './proof-config-memo';

/** What a linked-data proof signs, with the steps that produced it (test vectors compare each). */
export interface ProofHashes {
  readonly canonicalProofConfig: string;
  readonly canonicalDocument: string;
  readonly proofHash: Uint8Array;
  readonly documentHash: Uint8Array;
  /** `hash(proof configuration) || hash(document)`: what is signed. */
  readonly hashData: Uint8Array;
}

export interface ProofHashInput {
  /** The document without the proof being made or checked. */
  readonly document: Readonly<Record<string, unknown>>;
  /**
   * The proof configuration as it is canonicalised: without its signature, and (RDFC) with the
   * @context the suite gives it, which the caller sets because the suites differ on whose wins.
   */
  readonly proofConfig: Readonly<Record<string, unknown>>;
  /** `rdfc`: RDF Dataset Canonicalization through the JSON-LD safe mode and the pinned contexts; `jcs`: RFC 8785. */
  readonly canonicalization: 'rdfc' | 'jcs';
  readonly hash: 'sha256' | 'sha384';
  readonly documentLoader: DocumentLoader;
  /** JSON-LD base for relative IRIs (Family A's encrypted subjects). */
  readonly base?: string;
}

const digest = (algorithm: string, text: string): Uint8Array => new Uint8Array(createHash(algorithm).update(text, 'utf8').digest());

/**
 * The one computation both proof stacks sign and verify over: Ed25519Signature2018 (Family A,
 * src/domain/proofs) and the Data Integrity suites (src/vc/proofs/hash-data.ts) canonicalise the
 * proof configuration and the document with the same canonicaliser and loader, hash each, and
 * concatenate. Throws the canonicaliser's AppErrors (INVALID_INPUT for JSON-LD that would lose
 * data or names an unknown context).
 */
export async function proofHashes(input: ProofHashInput): Promise<ProofHashes> {
  let canonicalProofConfig: string;
  let canonicalDocument: string;
  if (input.canonicalization === 'jcs') {
    canonicalProofConfig = canonicalize(input.proofConfig);
    canonicalDocument = canonicalize(input.document);
  } else {
    // The proof configuration repeats across the credentials of an issuer's second: memoised.
    canonicalProofConfig = await memoisedCanonicalProofConfig(input.proofConfig, input.documentLoader, input.base);
    canonicalDocument = await canonizeJsonLd(input.document, input.documentLoader, input.base);
  }
  const proofHash = digest(input.hash, canonicalProofConfig);
  const documentHash = digest(input.hash, canonicalDocument);
  const hashData = new Uint8Array(proofHash.length + documentHash.length);
  hashData.set(proofHash, 0);
  hashData.set(documentHash, proofHash.length);
  return { canonicalProofConfig, canonicalDocument, proofHash, documentHash, hashData };
}
