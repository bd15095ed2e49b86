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
