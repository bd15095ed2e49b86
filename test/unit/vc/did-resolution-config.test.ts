import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, parseConfig } from '../../../src/config';
import { resolverOptionsFromConfig } from '../../../src/vc/resolver';
import { statusSourceOptionsFromConfig } from '../../../src/vc/status';

const cwd = '/srv/credgate';

test('defaults: 5 s timeout, 5 min cache, private addresses refused, no CA file, no Universal Resolver', () => {
  expect(parseConfig({}, cwd).didResolution).toEqual({ fetchTimeoutMs: 5000, cacheTtlSeconds: 300, allowPrivate: false });
});

test('every variable is read and checked', () => {
  const c = parseConfig(
    { CREDGATE_FETCH_TIMEOUT_MS: '1500', CREDGATE_FETCH_CACHE_TTL_SECONDS: '0', CREDGATE_FETCH_ALLOW_PRIVATE: 'true', CREDGATE_FETCH_CA_FILE: 'certs/ca.pem', CREDGATE_UNIVERSAL_RESOLVER_URL: 'http://uni-resolver:8080/' },
    cwd,
  ).didResolution;
  expect(c).toEqual({ fetchTimeoutMs: 1500, cacheTtlSeconds: 0, allowPrivate: true, caFile: '/srv/credgate/certs/ca.pem', universalResolverUrl: 'http://uni-resolver:8080' });
  for (const env of [
    { CREDGATE_FETCH_TIMEOUT_MS: '10' },
    { CREDGATE_FETCH_CACHE_TTL_SECONDS: '-1' },
    { CREDGATE_FETCH_ALLOW_PRIVATE: 'maybe' },
    { CREDGATE_UNIVERSAL_RESOLVER_URL: 'ftp://x' },
    { CREDGATE_UNIVERSAL_RESOLVER_URL: 'not a url' },
    { CREDGATE_UNIVERSAL_RESOLVER_URL: 'https://u:p@x/' },
  ]) {
    expect(() => parseConfig(env, cwd)).toThrow(ConfigError);
  }
});

test('the composition-root helpers read the CA file once and carry the settings', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'credgate-ca-'));
  try {
    writeFileSync(path.join(dir, 'ca.pem'), 'PEM TEXT');
    const c = parseConfig({ CREDGATE_FETCH_CA_FILE: 'ca.pem', CREDGATE_FETCH_TIMEOUT_MS: '700', CREDGATE_UNIVERSAL_RESOLVER_URL: 'https://uni.example' }, dir).didResolution!;
    const r = resolverOptionsFromConfig(c);
    expect(r).toMatchObject({ fetch: { ca: 'PEM TEXT', timeoutMs: 700, allowPrivate: false }, cache: { ttlSeconds: 300 }, universalResolverUrl: 'https://uni.example' });
    expect(statusSourceOptionsFromConfig(c)).toMatchObject({ fetch: { ca: 'PEM TEXT', timeoutMs: 700, maxBytes: 1024 * 1024 }, cache: { ttlSeconds: 300 } });
    expect(() => resolverOptionsFromConfig({ ...c, caFile: path.join(dir, 'missing.pem') })).toThrow(/CREDGATE_FETCH_CA_FILE/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
