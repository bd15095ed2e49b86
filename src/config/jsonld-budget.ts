/**
 * Structural limits a JSON-LD document must meet before anyone canonicalises it.
 *
 * Why: RDF canonicalisation is super-linear in the number of blank nodes (identical ones are the
 * worst case: 16,000 empty objects, 48 KB of JSON or 200 bytes of deflate, cost 13 s of CPU). The
 * limits are counted in one linear pass over the parsed JSON, so refusing costs microseconds, and
 * they sit far above any credential this service issues (a Family A credential has about ten
 * objects and, with the maximum of 128 attributes, a few hundred values).
 */
export interface JsonLdBudget {
  /** JSON objects (each a potential node or blank node), `@context` included. */
  readonly maxObjects: number;
  /** Every JSON value: objects, arrays, strings, numbers, booleans and nulls. */
  readonly maxValues: number;
  /** Nesting depth of objects and arrays. */
  readonly maxDepth: number;
  /** Upper bound on the UTF-16 length of the document's JSON text (strings are counted as they are walked). */
  readonly maxChars: number;
}

export const DEFAULT_JSONLD_BUDGET: JsonLdBudget = Object.freeze({
  maxObjects: 256,
  maxValues: 1024,
  maxDepth: 32,
  maxChars: 1024 * 1024,
});
