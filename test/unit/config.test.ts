import { ConfigError, parseConfig } from '../../src/config';

const KEY_HEX = 'ab'.repeat(32);

describe('parseConfig', () => {
  test('defaults give an embedded database in ./.credgate and port 4000 on loopback', () => {
    const c = parseConfig({}, '/srv/app');
    expect(c).toMatchObject({
      port: 4000,
      host: '127.0.0.1',
      database: { kind: 'pglite', dataDir: '/srv/app/.credgate/pgdata' },
      dataDir: '/srv/app/.credgate',
      masterKey: undefined,
      didMethod: 'credgate',
      network: 'local',
      logLevel: 'info',
      publicUrl: 'http://127.0.0.1:4000',
      faces: { threshold: 0.6, maxImageBytes: 8 * 1024 * 1024, workers: undefined },
    });
    expect(Object.isFrozen(c)).toBe(true);
  });

  test('DATABASE_URL selects PostgreSQL and then requires a master key', () => {
    const env = { DATABASE_URL: 'postgresql://u@db:5432/x' };
    expect(() => parseConfig(env)).toThrow(/CREDGATE_MASTER_KEY is required/);
    const c = parseConfig({ ...env, CREDGATE_MASTER_KEY: KEY_HEX });
    expect(c.database).toEqual({ kind: 'postgres', url: 'postgresql://u@db:5432/x' });
    expect(c.masterKey).toEqual(Buffer.from(KEY_HEX, 'hex'));
  });

  test('master key accepted as 64 hex digits or 44 base64 characters', () => {
    const b64 = Buffer.alloc(32, 7).toString('base64');
    expect(parseConfig({ CREDGATE_MASTER_KEY: b64 }).masterKey).toEqual(Buffer.alloc(32, 7));
  });

  test.each([
    [{ PORT: 'abc' }, /PORT/],
    [{ PORT: '70000' }, /PORT/],
    [{ DATABASE_URL: 'mysql://x/y', CREDGATE_MASTER_KEY: KEY_HEX }, /DATABASE_URL/],
    [{ DATABASE_URL: 'not a url' }, /DATABASE_URL/],
    [{ CREDGATE_MASTER_KEY: 'short' }, /CREDGATE_MASTER_KEY/],
    [{ CREDGATE_ADMIN_API_KEY: 'tooshort' }, /CREDGATE_ADMIN_API_KEY/],
    [{ CREDGATE_DID_METHOD: 'Bad-Method' }, /CREDGATE_DID_METHOD/],
    [{ CREDGATE_DID_METHOD: 'key' }, /CREDGATE_DID_METHOD/],
    [{ CREDGATE_NETWORK: 'a b' }, /CREDGATE_NETWORK/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
    [{ CREDGATE_PUBLIC_URL: '::' }, /CREDGATE_PUBLIC_URL/],
    [{ CREDGATE_BODY_LIMIT_BYTES: '10' }, /CREDGATE_BODY_LIMIT_BYTES/],
    [{ CREDGATE_FACE_THRESHOLD: '2.5' }, /CREDGATE_FACE_THRESHOLD/],
    [{ CREDGATE_FACE_THRESHOLD: 'abc' }, /CREDGATE_FACE_THRESHOLD/],
    [{ CREDGATE_FACE_MAX_IMAGE_BYTES: '12' }, /CREDGATE_FACE_MAX_IMAGE_BYTES/],
    [{ CREDGATE_FACE_WORKERS: '0' }, /CREDGATE_FACE_WORKERS/],
  ])('%j is refused with a one-line reason', (env, reason) => {
    let err: unknown;
    try {
      parseConfig(env as NodeJS.ProcessEnv);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const message = (err as Error).message;
    expect(message).toMatch(reason);
    expect(message).not.toContain('\n');
  });

  test('custom method, network, host and port are honoured', () => {
    const c = parseConfig({ CREDGATE_DID_METHOD: 'svcid', CREDGATE_NETWORK: 'testnet', HOST: '0.0.0.0', PORT: '8080', LOG_LEVEL: 'warn' });
    expect(c).toMatchObject({ didMethod: 'svcid', network: 'testnet', host: '0.0.0.0', port: 8080, logLevel: 'warn' });
  });
});
