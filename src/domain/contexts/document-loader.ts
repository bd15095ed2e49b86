import { AppError } from '../../errors';
import { CREDGATE_V1_CONTEXT, CREDGATE_V1_CONTEXT_URL } from './credgate-v1';
import { ED25519_2018_V1_CONTEXT } from './ed25519-2018-v1';
import { CREDENTIALS_V1_URL, DID_V1_URL, PUBLISHED_CONTEXTS } from './published-contexts';

/** What a jsonld document loader resolves to (structurally the `jsonld` package's RemoteDocument). */
export interface RemoteDocument {
  contextUrl: string | null;
  documentUrl: string;
  document: unknown;
}

/** A jsonld document loader: URL -> document. */
export type DocumentLoader = (url: string, options?: unknown) => Promise<RemoteDocument>;

// One spelling of each URL: the published ones are declared with their packages.
export { CREDENTIALS_V1_URL, DID_V1_URL };
export const ED25519_2018_V1_URL = 'https://w3id.org/security/suites/ed25519-2018/v1';

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const member of Object.values(value)) deepFreeze(member);
  }
  return value;
}

/**
 * Every context the service knows, keyed by the exact URL a document names it by: the published
 * W3C/CCG contexts read from their npm packages (published-contexts.ts: credentials v1/v2, data integrity
 * v1/v2, ed25519-2020, multikey, DID v1, bitstring status list), the Ed25519Signature2018 suite
 * context and Credgate's own. The documents are frozen at load time so no code path can change, at
 * run time, what a pinned URL means. The canonicalisation workers (src/canon) receive this map.
 */
export const PINNED_CONTEXTS: ReadonlyMap<string, unknown> = new Map<string, unknown>(
  [
    ...PUBLISHED_CONTEXTS,
    [ED25519_2018_V1_URL, ED25519_2018_V1_CONTEXT],
    [CREDGATE_V1_CONTEXT_URL, CREDGATE_V1_CONTEXT],
  ].map(([url, document]) => [url as string, deepFreeze(document)]),
);

/**
 * What each loader made by {@link createDocumentLoader} serves beyond the pinned contexts, so a
 * canonicalisation worker (which cannot receive a function) can rebuild the very same loader.
 */
const LOADER_EXTRAS = new WeakMap<DocumentLoader, readonly [string, unknown][]>();

/**
 * A jsonld document loader that serves only the pinned contexts plus `extra` (URL -> full JSON-LD
 * document, e.g. `{ '@context': {...} }`) and never touches the network.
 *
 * Any other URL throws `AppError('INVALID_INPUT', 'unknown JSON-LD context <url>')`. Lookups are by
 * exact string, so `http:` vs `https:` or a trailing slash is a different, unknown URL. `extra`
 * may not replace a pinned URL: a signature made under one text of a context must not verify under
 * another. Documents are deep-copied on every load because jsonld rewrites relative URLs in the
 * context objects it is given, and are returned without a `tag`, so jsonld caches them only for the
 * duration of one operation and a loader can never be bypassed by another loader's cache entry.
 */
export function createDocumentLoader(extra?: Record<string, unknown>): DocumentLoader {
  const documents = new Map<string, unknown>(PINNED_CONTEXTS);
  const extras: [string, unknown][] = [];
  for (const [url, document] of Object.entries(extra ?? {})) {
    if (PINNED_CONTEXTS.has(url)) {
      throw new AppError('INVALID_INPUT', `JSON-LD context ${url} is pinned and cannot be replaced`);
    }
    documents.set(url, structuredClone(document));
    extras.push([url, structuredClone(document)]);
  }
  const loader: DocumentLoader = async (url: string): Promise<RemoteDocument> => {
    if (!documents.has(url)) throw new AppError('INVALID_INPUT', `unknown JSON-LD context ${url}`);
    return { contextUrl: null, documentUrl: url, document: structuredClone(documents.get(url)) };
  };
  LOADER_EXTRAS.set(loader, Object.freeze(extras));
  return loader;
}

/** The extra contexts of a loader made here; undefined for any other loader function. */
export function extraContextsOf(loader: DocumentLoader): readonly [string, unknown][] | undefined {
  return LOADER_EXTRAS.get(loader);
}
