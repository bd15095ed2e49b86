import { randomBytes } from 'node:crypto';
import { ConfigError, parseConfig } from '../../src/config';
import { open, seal } from '../../src/kms/envelope';
import { keyringFor } from '../../src/kms/key-derivation';

describe('CREDGATE_MASTER_KEY_PREVIOUS', () => {
  const current = randomBytes(32);
  const previous = randomBytes(32);

  test('read as hex or base64 beside CREDGATE_MASTER_KEY; unset means none', () => {
    const base = { DATABASE_URL: 'postgres://u@127.0.0.1/db', CREDGATE_MASTER_KEY: current.toString('hex') };
    expect(parseConfig(base).masterKeyPrevious).toBeUndefined();
    expect(parseConfig({ ...base, CREDGATE_MASTER_KEY_PREVIOUS: previous.toString('hex') }).masterKeyPrevious).toEqual(previous);
    expect(parseConfig({ ...base, CREDGATE_MASTER_KEY_PREVIOUS: previous.toString('base64') }).masterKeyPrevious).toEqual(previous);
  });

  test('refused when malformed (naming the variable) or without a current key', () => {
    expect(() => parseConfig({ DATABASE_URL: 'postgres://u@127.0.0.1/db', CREDGATE_MASTER_KEY: current.toString('hex'), CREDGATE_MASTER_KEY_PREVIOUS: 'abc' })).toThrow(
      new ConfigError('CREDGATE_MASTER_KEY_PREVIOUS must be 32 bytes as 64 hex digits or 44 base64 characters'),
    );
    expect(() => parseConfig({ CREDGATE_MASTER_KEY_PREVIOUS: previous.toString('hex') })).toThrow(/CREDGATE_MASTER_KEY_PREVIOUS needs CREDGATE_MASTER_KEY/);
  });

  test('the keyring seals under the current key only and opens what either key sealed', () => {
    const during = keyringFor(current, false, [previous]);
    const old = seal(keyringFor(previous, false), Buffer.from('sk'), 'row');
    expect(open(during, old, 'row').toString()).toBe('sk');
    const fresh = seal(during, Buffer.from('sk2'), 'row');
    expect(open(keyringFor(current, false), fresh, 'row').toString()).toBe('sk2');
    expect(() => open(keyringFor(previous, false), fresh, 'row')).toThrow(/another master key/);
  });
});
