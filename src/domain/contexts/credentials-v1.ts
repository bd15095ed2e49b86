import { CREDENTIALS_V1_URL, publishedContext } from './published-contexts';

/** The shape callers rely on; the document itself is the package's. */
export interface CredentialsV1ContextDocument {
  '@context': { VerifiableCredential: { '@context': Record<string, unknown> } } & Record<string, unknown>;
}

/**
 * Pinned JSON-LD context `https://www.w3.org/2018/credentials/v1`, read from the published package
 * `@digitalbazaar/credentials-context` (contexts/v1.jsonld). It replaced a hand copy of the same
 * document (transmute's vendored copy, still compared against in test/unit/contexts.test.ts), and
 * test/unit/vc/published-contexts.test.ts shows seed credentials canonicalise exactly as before.
 */
export const CREDENTIALS_V1_CONTEXT = publishedContext(CREDENTIALS_V1_URL) as CredentialsV1ContextDocument;
