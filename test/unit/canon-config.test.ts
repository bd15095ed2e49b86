import { ConfigError, parseConfig } from '../../src/config';

describe('canonicalisation configuration', () => {
  test('defaults: two workers, a 2 s deadline, a queue of 256 and the default JSON-LD budget', () => {
    expect(parseConfig({}, '/srv/app').canon).toEqual({ workers: 2, deadlineMs: 2000, queueLimit: 256, maxObjects: 256, maxValues: 1024 });
  });

  test('each variable is read and checked', () => {
    const env = { CREDGATE_CANON_WORKERS: '3', CREDGATE_CANON_DEADLINE_MS: '500', CREDGATE_CANON_QUEUE_LIMIT: '10', CREDGATE_JSONLD_MAX_OBJECTS: '64', CREDGATE_JSONLD_MAX_VALUES: '1000' };
    expect(parseConfig(env).canon).toEqual({ workers: 3, deadlineMs: 500, queueLimit: 10, maxObjects: 64, maxValues: 1000 });
    for (const [name, value] of [['CREDGATE_CANON_WORKERS', '0'], ['CREDGATE_CANON_DEADLINE_MS', '2s'], ['CREDGATE_CANON_QUEUE_LIMIT', '-1'], ['CREDGATE_JSONLD_MAX_OBJECTS', '1']] as const) {
      expect(() => parseConfig({ [name]: value })).toThrow(ConfigError);
      expect(() => parseConfig({ [name]: value })).toThrow(new RegExp(`^${name} must be an integer`));
    }
  });
});
