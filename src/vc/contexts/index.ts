// The published contexts are read by the domain's document loader (src/domain/contexts), which the W3C
// stack shares; this module keeps the names src/vc and its tests import.
export {
  BITSTRING_STATUS_LIST_V1_URL,
  CREDENTIALS_V1_URL,
  CREDENTIALS_V2_URL,
  CREDENTIALS_UNDEFINED_TERMS_V2_URL,
  DATA_INTEGRITY_V1_URL,
  DATA_INTEGRITY_V2_URL,
  DID_V1_URL,
  ED25519_2020_V1_URL,
  MULTIKEY_V1_URL,
  PUBLISHED_CONTEXTS,
  PUBLISHED_CONTEXT_SOURCES,
  packageRoot,
  publishedContext,
} from '../../domain/contexts/published-contexts';
export { CREDENTIALS_EXAMPLES_V2_CONTEXT, CREDENTIALS_EXAMPLES_V2_URL } from '../../domain/contexts/examples-v2';
