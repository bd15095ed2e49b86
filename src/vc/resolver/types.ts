import type { DidDocument } from '../../domain/dids/did-document.types';
import type { FetchPolicy } from '../net/guarded-fetch';

/** One DID method's resolver. Throws AppErrors as DidResolver does (ports.ts). */
export interface MethodResolver {
  /** The DID method it answers for, e.g. 'web'. */
  readonly method: string;
  /** Reported as ResolutionResult.method ('key' | 'web' | 'service' | …). */
  readonly name: string;
  /** Remote answers are cached and coalesced by the composite resolver; local ones are not. */
  readonly remote: boolean;
  resolve(did: string): Promise<DidDocument>;
}

/** How the service's own DIDs are resolved: from its records (DidsService.resolveDocument). */
export interface ServiceDidLookup {
  /** The service's DID method name (CREDGATE_DID_METHOD). */
  readonly method: string;
  resolve(did: string): Promise<DidDocument>;
}

export interface DidCacheOptions {
  /** How long a resolved document is served from the cache. 0 turns caching off. */
  readonly ttlSeconds: number;
  /** How long a "not found" answer is remembered; default min(30, ttlSeconds). */
  readonly negativeTtlSeconds?: number;
  /** Most documents kept; default 1000. */
  readonly maxEntries?: number;
  /** Clock in milliseconds (tests). */
  readonly now?: () => number;
}

export interface DidResolverOptions {
  /** The service's own method, resolved from its records; omitted: that method is unsupported. */
  readonly serviceDids?: ServiceDidLookup;
  /** did:web over HTTPS (default on). */
  readonly didWeb?: boolean;
  /** Fetch limits and the SSRF guard for did:web (and, with the exceptions documented there, the Universal Resolver). */
  readonly fetch?: Partial<FetchPolicy>;
  /** Base URL of a Universal Resolver asked for methods no local resolver handles. */
  readonly universalResolverUrl?: string;
  readonly cache?: DidCacheOptions;
  /** More method resolvers; they take precedence over the built-in ones for their method. */
  readonly resolvers?: readonly MethodResolver[];
}
