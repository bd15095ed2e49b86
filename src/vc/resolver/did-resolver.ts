import { AppError } from '../../errors';
import type { DidDocument } from '../../domain/dids/did-document.types';
import { didMethodOf, isDidSyntax } from '../../domain/dids/service-did';
import { DEFAULT_FETCH_POLICY, type FetchPolicy } from '../net/guarded-fetch';
import { TtlCache } from '../net/ttl-cache';
import type { DereferencedMethod, DidResolver, ResolutionResult } from '../ports';
import { findVerificationMethod } from './did-document';
import { didKeyResolver } from './did-key-resolver';
import { didWebResolver } from './did-web-resolver';
import { serviceMethodResolver } from './service-resolver';
import type { DidResolverOptions, MethodResolver } from './types';
import { universalResolver } from './universal-resolver';

/** Longer DIDs are refused before any parsing or network work. */
const MAX_DID_LENGTH = 2048;
const DEFAULT_TTL_SECONDS = 300;
const DEFAULT_NEGATIVE_TTL_SECONDS = 30;
const DEFAULT_CACHE_ENTRIES = 1000;

function invalidDid(message: string): AppError {
  return new AppError('INVALID_DID', message, [{ field: 'did', message }]);
}

function checkDid(did: unknown): string {
  if (typeof did !== 'string' || did.length === 0) throw invalidDid('did must be a non-empty string');
  if (did.length > MAX_DID_LENGTH) throw invalidDid(`did must be at most ${MAX_DID_LENGTH} characters`);
  if (!isDidSyntax(did)) throw invalidDid('not a valid DID');
  return did;
}

/**
 * A DID resolver made of method resolvers: did:key (local), did:web (HTTPS), the service's own
 * method (its records), any extra ones given, and a Universal Resolver for the rest when
 * configured. Remote answers are cached (bounded, TTL; "not found" briefly) and concurrent
 * resolutions of one DID share one request.
 */
export function createDidResolver(options: DidResolverOptions = {}): DidResolver {
  const policy: FetchPolicy = { ...DEFAULT_FETCH_POLICY, ...options.fetch };
  const byMethod = new Map<string, MethodResolver>();
  byMethod.set('key', didKeyResolver);
  if (options.didWeb !== false) byMethod.set('web', didWebResolver(policy));
  if (options.serviceDids) byMethod.set(options.serviceDids.method, serviceMethodResolver(options.serviceDids));
  for (const r of options.resolvers ?? []) byMethod.set(r.method, r);
  const universal = options.universalResolverUrl ? universalResolver(options.universalResolverUrl, policy) : undefined;

  const ttlSeconds = options.cache?.ttlSeconds ?? DEFAULT_TTL_SECONDS;
  const negativeSeconds = Math.min(options.cache?.negativeTtlSeconds ?? DEFAULT_NEGATIVE_TTL_SECONDS, ttlSeconds);
  const cache = new TtlCache<DidDocument>({ maxEntries: options.cache?.maxEntries ?? DEFAULT_CACHE_ENTRIES, ...(options.cache?.now ? { now: options.cache.now } : {}) });
  const negativeTtl = (e: unknown): number => (e instanceof AppError && (e.code === 'DID_NOT_FOUND' || e.code === 'INVALID_DID') ? negativeSeconds * 1000 : 0);
  const remote = (did: string, load: (did: string) => Promise<DidDocument>): Promise<DidDocument> =>
    cache.get(did, async () => ({ value: await load(did), ttlMs: ttlSeconds * 1000 }), negativeTtl);

  async function resolve(input: string): Promise<ResolutionResult> {
    const did = checkDid(input);
    const method = didMethodOf(did) ?? '';
    const local = byMethod.get(method);
    if (local) {
      const didDocument = local.remote ? await remote(did, (d) => local.resolve(d)) : await local.resolve(did);
      return { didDocument, method: local.name };
    }
    if (universal) return { didDocument: await remote(did, universal), method: 'universal' };
    throw new AppError('UNSUPPORTED_DID_METHOD', `DID method ${method} is not supported`);
  }

  async function dereferenceMethod(didUrl: string): Promise<DereferencedMethod> {
    if (typeof didUrl !== 'string') throw invalidDid('verification method must be a DID URL');
    const hash = didUrl.indexOf('#');
    const did = hash === -1 ? didUrl : didUrl.slice(0, hash);
    let fragment = hash === -1 ? '' : didUrl.slice(hash + 1);
    if (hash !== -1 && (fragment.length === 0 || /[\s#]/.test(fragment))) throw invalidDid('the DID URL fragment is empty or malformed');
    checkDid(did);
    if (fragment.length === 0) {
      // Only a did:key names its one method implicitly.
      if (didMethodOf(did) !== 'key') throw invalidDid('a verification method reference needs a #fragment');
      fragment = did.slice('did:key:'.length);
    }
    const id = `${did}#${fragment}`;
    const { didDocument } = await resolve(did);
    const method = findVerificationMethod(didDocument, id);
    if (!method) throw new AppError('DID_NOT_FOUND', `verification method ${id} is not in the DID document of ${did}`);
    if (method.controller === didDocument.id) return { method, controllerDocument: didDocument };
    // A method controlled by another DID: its authority comes from that controller's document.
    const controller = await resolve(method.controller);
    return { method, controllerDocument: controller.didDocument };
  }

  return { resolve, dereferenceMethod };
}
