import { ConfigError, DEFAULT_HTTP_LIMITS, parseConfig } from '../../src/config';
import { DEFAULT_GRAPHQL_LIMITS } from '../../src/graphql/limits/limits';

describe('edge limits in the configuration', () => {
  test('defaults', () => {
    const c = parseConfig({}, '/srv');
    expect(c.jsonMaxDepth).toBe(64);
    expect(c.graphql).toEqual(DEFAULT_GRAPHQL_LIMITS);
    expect(c.http).toEqual(DEFAULT_HTTP_LIMITS);
    expect(Object.isFrozen(c.http) && Object.isFrozen(c.graphql)).toBe(true);
  });

  test('each limit is read from its variable', () => {
    const c = parseConfig(
      {
        CREDGATE_JSON_MAX_DEPTH: '32',
        CREDGATE_GRAPHQL_MAX_DEPTH: '12',
        CREDGATE_GRAPHQL_MAX_ALIASES: '5',
        CREDGATE_GRAPHQL_MAX_COST: '500',
        CREDGATE_GRAPHQL_MAX_TOKENS: '2000',
        CREDGATE_HEADERS_TIMEOUT_MS: '5000',
        CREDGATE_REQUEST_TIMEOUT_MS: '30000',
        CREDGATE_MAX_CONNECTIONS: '100',
        CREDGATE_UPLOAD_BUDGET_BYTES: String(32 * 1024 * 1024),
        CREDGATE_UPLOAD_IDLE_TIMEOUT_MS: '2000',
      },
      '/srv',
    );
    expect(c.jsonMaxDepth).toBe(32);
    expect(c.graphql).toEqual({ maxDepth: 12, maxAliases: 5, maxCost: 500, maxTokens: 2000 });
    expect(c.http).toEqual({ headersTimeoutMs: 5000, requestTimeoutMs: 30000, maxConnections: 100, uploadBudgetBytes: 32 * 1024 * 1024, uploadIdleTimeoutMs: 2000 });
  });

  test.each([
    ['CREDGATE_JSON_MAX_DEPTH', '2'],
    ['CREDGATE_GRAPHQL_MAX_COST', 'lots'],
    ['CREDGATE_GRAPHQL_MAX_DEPTH', '-1'],
    ['CREDGATE_MAX_CONNECTIONS', '0'],
    ['CREDGATE_UPLOAD_BUDGET_BYTES', '10'],
    ['CREDGATE_UPLOAD_IDLE_TIMEOUT_MS', '1.5'],
  ])('%s=%s is refused with a one-line reason naming it', (name, value) => {
    expect(() => parseConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => parseConfig({ [name]: value })).toThrow(new RegExp(`^${name} must be an integer from`));
  });
});
