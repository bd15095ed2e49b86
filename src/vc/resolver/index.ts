/** DID resolution for src/vc: did:key, did:web, the service's own method, a Universal Resolver fallback. */
export { createDidResolver } from './did-resolver';
export { didWebUrl, didWebResolver, DID_DOCUMENT_MEDIA_TYPES } from './did-web-resolver';
export { didKeyResolver } from './did-key-resolver';
export { serviceDidLookup, type ServiceDidRecords } from './service-resolver';
export { resolverOptionsFromConfig } from './from-config';
export type { DidCacheOptions, DidResolverOptions, MethodResolver, ServiceDidLookup } from './types';
export { DEFAULT_FETCH_POLICY, type FetchPolicy } from '../net/guarded-fetch';
