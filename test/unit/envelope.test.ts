import { randomBytes } from 'node:crypto';
import { EnvelopeError, kekFromKey, kekIdOf, open, seal } from '../../src/kms/envelope';

describe('AES-256-GCM envelope', () => {
  const kek = kekFromKey(randomBytes(32));
  const secret = randomBytes(32);

  test('round trip, with a fresh data key and nonce each time', () => {
    const a = seal(kek, secret, 'row-1');
    const b = seal(kek, secret, 'row-1');
    expect(a.equals(b)).toBe(false);
    expect(open(kek, a, 'row-1').equals(secret)).toBe(true);
    expect(kekIdOf(a)).toBe(kek.id);
    expect(a.includes(secret)).toBe(false);
  });

  test('another row (associated data) cannot open it', () => {
    expect(() => open(kek, seal(kek, secret, 'row-1'), 'row-2')).toThrow(EnvelopeError);
  });

  test('another master key cannot open it', () => {
    expect(() => open(kekFromKey(randomBytes(32)), seal(kek, secret, 'r'), 'r')).toThrow(/another master key/);
  });

  test('every flipped byte is detected', () => {
    const env = seal(kek, secret, 'r');
    for (let i = 0; i < env.length; i++) {
      const bad = Buffer.from(env);
      bad[i] = bad[i]! ^ 0x01;
      expect(() => open(kek, bad, 'r')).toThrow(EnvelopeError);
    }
  });

  test('truncated or foreign bytes are refused', () => {
    expect(() => open(kek, Buffer.from('nope'), 'r')).toThrow(/not a Credgate envelope/);
    expect(() => open(kek, seal(kek, secret, 'r').subarray(0, 40), 'r')).toThrow(EnvelopeError);
  });

  test('the master key must be 32 bytes', () => {
    expect(() => kekFromKey(randomBytes(16))).toThrow(EnvelopeError);
  });
});
