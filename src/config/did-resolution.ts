import path from 'node:path';
import { ConfigError, intSetting, nonEmpty } from './settings';

/**
 * Fetching documents named by others (did:web documents, other issuers' status lists, a Universal
 * Resolver's answers): limits, the SSRF guard switch, extra trusted CAs and the resolver fallback.
 */
export interface DidResolutionConfig {
  /** CREDGATE_FETCH_TIMEOUT_MS: whole-request time limit of every such fetch. */
  readonly fetchTimeoutMs: number;
  /** CREDGATE_FETCH_CACHE_TTL_SECONDS: how long resolved DID documents and status lists are reused (0: off). */
  readonly cacheTtlSeconds: number;
  /** CREDGATE_FETCH_ALLOW_PRIVATE: allow loopback/private/link-local targets (tests, private deployments). */
  readonly allowPrivate: boolean;
  /** CREDGATE_FETCH_CA_FILE: PEM file of extra trusted CAs (absolute path). */
  readonly caFile?: string;
  /** CREDGATE_UNIVERSAL_RESOLVER_URL: base URL of a Universal Resolver for other DID methods. */
  readonly universalResolverUrl?: string;
}

function parseBool(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = nonEmpty(env, name);
  if (raw === undefined) return false;
  const v = raw.toLowerCase();
  if (['true', '1', 'on', 'yes'].includes(v)) return true;
  if (['false', '0', 'off', 'no'].includes(v)) return false;
  throw new ConfigError(`${name} must be true or false`);
}

export function parseDidResolution(env: NodeJS.ProcessEnv, cwd: string): DidResolutionConfig {
  const uni = nonEmpty(env, 'CREDGATE_UNIVERSAL_RESOLVER_URL');
  let universalResolverUrl: string | undefined;
  if (uni !== undefined) {
    let url: URL;
    try {
      url = new URL(uni);
    } catch {
      throw new ConfigError('CREDGATE_UNIVERSAL_RESOLVER_URL is not a valid URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError('CREDGATE_UNIVERSAL_RESOLVER_URL must be an http(s) URL');
    if (url.search || url.hash || url.username || url.password) throw new ConfigError('CREDGATE_UNIVERSAL_RESOLVER_URL must be a plain base URL (no query, fragment or credentials)');
    universalResolverUrl = url.href.replace(/\/+$/, '');
  }
  const ca = nonEmpty(env, 'CREDGATE_FETCH_CA_FILE');
  return Object.freeze({
    fetchTimeoutMs: intSetting(env, 'CREDGATE_FETCH_TIMEOUT_MS', 5000, 100, 120_000),
    cacheTtlSeconds: intSetting(env, 'CREDGATE_FETCH_CACHE_TTL_SECONDS', 300, 0, 86_400),
    allowPrivate: parseBool(env, 'CREDGATE_FETCH_ALLOW_PRIVATE'),
    ...(ca !== undefined ? { caFile: path.resolve(cwd, ca) } : {}),
    ...(universalResolverUrl !== undefined ? { universalResolverUrl } : {}),
  });
}
