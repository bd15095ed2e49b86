/** URL of the Credgate JSON-LD context. It is served only from the pinned copy below, never fetched. */
export const CREDGATE_V1_CONTEXT_URL = 'https://credgate.dev/contexts/credgate/v1';

/** Namespace for Credgate terms, and the `@vocab` that gives arbitrary claim names an IRI. */
export const CREDGATE_VOCAB = 'https://credgate.dev/vocab#';

/**
 * Credgate's own context, meant to be listed AFTER `https://www.w3.org/2018/credentials/v1`.
 *
 * Design (why each entry is what it is):
 * - `@vocab` maps every term no context defines (credentialSubject claims such as `name`, `age`,
 *   schema-name types such as `Employee`) to `https://credgate.dev/vocab#<term>`, so RDF safe mode
 *   accepts them and the signature covers them instead of the term being dropped.
 * - `id` / `type` repeat the credentials/v1 definitions verbatim: redefining a protected term is
 *   legal only with an identical definition, and repeating them lets this context stand alone.
 * - `biometrics` is one `@json` literal: the whole value (null, string, object with `face` / `iris` /
 *   `finger`, extra keys, arrays) is hashed as its JCS text, so `biometrics: null`, `face: null` and a
 *   missing `face` key are all distinct and covered. Nested term definitions would let `null`
 *   values vanish during expansion.
 * - `creator` is the security-v1 definition (`dc:creator`, IRI-valued); `vcVerificationMethod` is an
 *   IRI-valued Credgate term. Both are therefore expected to be absolute IRIs (DID URLs).
 * - `version` is a plain literal, so `"1"` and `1` sign differently.
 * - `credentialStatus` is deliberately NOT defined: credentials/v1 defines it (protected, `@type: @id`)
 *   inside the `VerifiableCredential` type-scoped context, which is applied after every context in
 *   the document's `@context`, so no context listed there can turn it into a literal. A
 *   `credentialStatus` that is not an absolute IRI (e.g. `''`) is rejected by safe mode.
 * - Nothing here reuses a name that the credentials/v1 type-scoped contexts (VerifiableCredential,
 *   Ed25519Signature2018, credentialSchema) define, so those protected contexts can be applied on
 *   top without a protected-term redefinition error.
 */
export const CREDGATE_V1_CONTEXT = {
  '@context': {
    '@version': 1.1,
    '@protected': true,
    '@vocab': CREDGATE_VOCAB,
    id: '@id',
    type: '@type',
    Encrypted: `${CREDGATE_VOCAB}Encrypted`,
    JsonSchemaValidator2018: 'https://www.w3.org/2018/credentials#JsonSchemaValidator2018',
    version: { '@id': `${CREDGATE_VOCAB}version` },
    biometrics: { '@id': `${CREDGATE_VOCAB}biometrics`, '@type': '@json' },
    creator: { '@id': 'http://purl.org/dc/terms/creator', '@type': '@id' },
    vcVerificationMethod: { '@id': `${CREDGATE_VOCAB}vcVerificationMethod`, '@type': '@id' },
  },
} as const;

/** Terms of the Credgate context whose values are JSON literals (`@type: @json`), kept verbatim. */
export const CREDGATE_JSON_LITERAL_TERMS: ReadonlySet<string> = new Set(
  Object.entries(CREDGATE_V1_CONTEXT['@context'])
    .filter(([, definition]) => typeof definition === 'object' && '@type' in definition && definition['@type'] === '@json')
    .map(([term]) => term),
);
