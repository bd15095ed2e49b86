import { ConfigError, parseConfig } from '../../src/config';

describe('rate-limit, fairness and database-timeout configuration', () => {
  test('defaults', () => {
    const c = parseConfig({}, '/srv/app');
    expect(c.rateLimits).toEqual({ windowSeconds: 60, perApiKey: 300, perCredential: 30, perIp: 600, oauthFailuresPerIp: 20 });
    expect(c.dbTimeouts).toEqual({ poolSize: 10, lockTimeoutMs: 5000, statementTimeoutMs: 30000, connectTimeoutMs: 2000 });
    // Two connections stay free of writes, so a read never waits behind a write burst.
    expect(c.fairness).toEqual({ writeConcurrency: 8, tenantWriteConcurrency: 3, tenantWriteQueue: 256, faceTenantShare: undefined });
  });

  test('every variable is read; 0 disables a rate limit', () => {
    const c = parseConfig({
      CREDGATE_RATE_LIMIT_WINDOW_SECONDS: '10',
      CREDGATE_RATE_LIMIT_PER_API_KEY: '0',
      CREDGATE_RATE_LIMIT_PER_CREDENTIAL: '5',
      CREDGATE_RATE_LIMIT_PER_IP: '7',
      CREDGATE_DB_POOL_SIZE: '20',
      CREDGATE_DB_LOCK_TIMEOUT_MS: '250',
      CREDGATE_DB_STATEMENT_TIMEOUT_MS: '9000',
      CREDGATE_DB_CONNECT_TIMEOUT_MS: '1500',
      CREDGATE_TENANT_WRITE_CONCURRENCY: '4',
      CREDGATE_TENANT_WRITE_QUEUE: '0',
      CREDGATE_FACE_TENANT_SHARE: '6',
    });
    expect(c.rateLimits).toEqual({ windowSeconds: 10, perApiKey: 0, perCredential: 5, perIp: 7, oauthFailuresPerIp: 20 });
    expect(c.dbTimeouts).toEqual({ poolSize: 20, lockTimeoutMs: 250, statementTimeoutMs: 9000, connectTimeoutMs: 1500 });
    expect(c.fairness).toEqual({ writeConcurrency: 18, tenantWriteConcurrency: 4, tenantWriteQueue: 0, faceTenantShare: 6 });
  });

  test.each([
    [{ CREDGATE_RATE_LIMIT_WINDOW_SECONDS: '0' }, /CREDGATE_RATE_LIMIT_WINDOW_SECONDS/],
    [{ CREDGATE_RATE_LIMIT_PER_API_KEY: '-1' }, /CREDGATE_RATE_LIMIT_PER_API_KEY/],
    [{ CREDGATE_RATE_LIMIT_PER_CREDENTIAL: 'many' }, /CREDGATE_RATE_LIMIT_PER_CREDENTIAL/],
    [{ CREDGATE_RATE_LIMIT_PER_IP: '1.5' }, /CREDGATE_RATE_LIMIT_PER_IP/],
    [{ CREDGATE_DB_POOL_SIZE: '1' }, /CREDGATE_DB_POOL_SIZE/],
    [{ CREDGATE_DB_LOCK_TIMEOUT_MS: '0' }, /CREDGATE_DB_LOCK_TIMEOUT_MS/],
    [{ CREDGATE_DB_STATEMENT_TIMEOUT_MS: 'x' }, /CREDGATE_DB_STATEMENT_TIMEOUT_MS/],
    [{ CREDGATE_DB_CONNECT_TIMEOUT_MS: '50' }, /CREDGATE_DB_CONNECT_TIMEOUT_MS/],
    [{ CREDGATE_WRITE_CONCURRENCY: '0' }, /CREDGATE_WRITE_CONCURRENCY/],
    [{ CREDGATE_WRITE_CONCURRENCY: '2', CREDGATE_TENANT_WRITE_CONCURRENCY: '3' }, /must not exceed/],
    [{ CREDGATE_FACE_TENANT_SHARE: '0' }, /CREDGATE_FACE_TENANT_SHARE/],
  ])('%j is refused with a one-line reason', (env, reason) => {
    expect(() => parseConfig(env)).toThrow(ConfigError);
    expect(() => parseConfig(env)).toThrow(reason);
  });
});
