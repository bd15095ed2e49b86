import { DID_V1_URL, publishedContext } from './published-contexts';

/**
 * Pinned JSON-LD context `https://www.w3.org/ns/did/v1`, read from the published package
 * `did-context` (contexts/did-v1.jsonld), which a hand transcription of the same file used to copy.
 */
export const DID_V1_CONTEXT = publishedContext(DID_V1_URL) as { '@context': Record<string, unknown> };
