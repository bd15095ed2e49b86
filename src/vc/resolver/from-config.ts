import { readFileSync } from 'node:fs';
import { AppError } from '../../errors';
import type { DidResolutionConfig } from '../../config/did-resolution';
import type { FetchPolicy } from '../net/guarded-fetch';
import type { DidResolverOptions, ServiceDidLookup } from './types';

/** The fetch policy of the configuration (CA file read once, here). */
export function fetchPolicyFromConfig(config: DidResolutionConfig, maxBytes: number): FetchPolicy {
  let ca: string | undefined;
  if (config.caFile !== undefined) {
    try {
      ca = readFileSync(config.caFile, 'utf8');
    } catch {
      throw new AppError('INTERNAL', 'CREDGATE_FETCH_CA_FILE could not be read');
    }
  }
  return { timeoutMs: config.fetchTimeoutMs, maxBytes, allowPrivate: config.allowPrivate, ...(ca !== undefined ? { ca } : {}) };
}

/** DidResolverOptions for the composition root: configuration plus the service's own DID lookup. */
export function resolverOptionsFromConfig(config: DidResolutionConfig, serviceDids?: ServiceDidLookup): DidResolverOptions {
  return {
    fetch: fetchPolicyFromConfig(config, 256 * 1024),
    cache: { ttlSeconds: config.cacheTtlSeconds },
    ...(config.universalResolverUrl !== undefined ? { universalResolverUrl: config.universalResolverUrl } : {}),
    ...(serviceDids ? { serviceDids } : {}),
  };
}
