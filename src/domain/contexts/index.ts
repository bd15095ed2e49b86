export { CREDENTIALS_V1_CONTEXT } from './credentials-v1';
export { ED25519_2018_V1_CONTEXT } from './ed25519-2018-v1';
export { DID_V1_CONTEXT } from './did-v1';
export { CREDGATE_JSON_LITERAL_TERMS, CREDGATE_V1_CONTEXT, CREDGATE_V1_CONTEXT_URL, CREDGATE_VOCAB } from './credgate-v1';
export {
  CREDENTIALS_V1_URL,
  DID_V1_URL,
  ED25519_2018_V1_URL,
  PINNED_CONTEXTS,
  createDocumentLoader,
  extraContextsOf,
  type DocumentLoader,
  type RemoteDocument,
} from './document-loader';
export {
  CANONIZE_OPTIONS,
  activeJsonLdBudget,
  canonizeJsonLd,
  jsonLdFailure,
  registerCanonicalizationExecutor,
  type CanonicalizationExecutor,
  type CanonicalizationJob,
} from './rdf-canonize';
export { DEFAULT_JSONLD_BUDGET, assertWithinJsonLdBudget, type JsonLdBudget } from './jsonld-budget';
// The published W3C/CCG contexts, read from their npm packages (the W3C stack imports them from here too).
export {
  BITSTRING_STATUS_LIST_V1_URL,
  CREDENTIALS_V2_URL,
  CREDENTIALS_UNDEFINED_TERMS_V2_URL,
  DATA_INTEGRITY_V1_URL,
  DATA_INTEGRITY_V2_URL,
  ED25519_2020_V1_URL,
  MULTIKEY_V1_URL,
  PUBLISHED_CONTEXTS,
  PUBLISHED_CONTEXT_SOURCES,
  packageRoot,
  publishedContext,
} from './published-contexts';
export { CREDENTIALS_EXAMPLES_V2_CONTEXT, CREDENTIALS_EXAMPLES_V2_URL } from './examples-v2';
