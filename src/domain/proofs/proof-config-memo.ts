import { type DocumentLoader, activeJsonLdBudget, assertWithinJsonLdBudget, canonizeJsonLd, extraContextsOf } from '../contexts';

/**
 * Canonical N-Quads of recently canonicalised proof configurations, by their exact input.
 *
 * A proof configuration is the same for every credential an issuer signs within one second
 * (type, creator, `created` to the second, purpose, method, the document's @context), yet RDFC
 * costs as much for it as for the credential: most of the time is jsonld processing the
 * contexts. Under load, all but the first credential of a second reuse the first one's result,
 * and a verifier shown many credentials of one issuance second does too.
 *
 * Exactness: the key is the full JSON text of the input (proof configuration, base and the
 * loader's extra contexts); the pinned contexts are frozen constants, so equal keys canonicalise
 * to equal N-Quads, and a hit returns byte-for-byte what the canonicaliser would. Only loaders
 * made by `createDocumentLoader` take part (any other loader could answer differently from one
 * call to the next); failures are never remembered, so an invalid input fails every time.
 *
 * Cost bounds: inputs above {@link MAX_KEY_CHARS} or outputs above {@link MAX_NQUADS_CHARS}
 * are not kept, and at most {@link MAX_ENTRIES} entries are (least recently used first out), so
 * a client sending proof configurations of its own can churn the memo but not grow it.
 */
const MAX_ENTRIES = 256;
const MAX_KEY_CHARS = 4096;
const MAX_NQUADS_CHARS = 16384;

const memo = new Map<string, string>();

function keyOf(proofConfig: Readonly<Record<string, unknown>>, documentLoader: DocumentLoader, base: string | undefined): string | undefined {
  const extra = extraContextsOf(documentLoader);
  if (extra === undefined) return undefined;
  let key: string;
  try {
    key = JSON.stringify([proofConfig, base ?? null, extra]);
  } catch {
    // Not plain JSON (a cycle, a BigInt): the canonicaliser gives the error.
    return undefined;
  }
  return key.length <= MAX_KEY_CHARS ? key : undefined;
}

/** `canonizeJsonLd(proofConfig, documentLoader, base)`, answered from the memo when the same input was canonicalised recently. */
export async function canonicalProofConfig(proofConfig: Readonly<Record<string, unknown>>, documentLoader: DocumentLoader, base?: string): Promise<string> {
  const key = keyOf(proofConfig, documentLoader, base);
  const known = key === undefined ? undefined : memo.get(key);
  if (key !== undefined && known !== undefined) {
    // The structural budget belongs to the executor in force, which may be stricter than the one
    // the entry was made under: still checked (one pass over a small object).
    assertWithinJsonLdBudget(proofConfig, activeJsonLdBudget(), 'document');
    memo.delete(key);
    memo.set(key, known);
    return known;
  }
  const nquads = await canonizeJsonLd(proofConfig, documentLoader, base);
  if (key !== undefined && nquads.length <= MAX_NQUADS_CHARS) {
    memo.set(key, nquads);
    if (memo.size > MAX_ENTRIES) memo.delete(memo.keys().next().value as string);
  }
  return nquads;
}

/** Entries held (tests). */
export function proofConfigMemoSize(): number {
  return memo.size;
}
