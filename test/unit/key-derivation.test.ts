import { hkdfSync, randomBytes } from 'node:crypto';
import { EnvelopeError, kekFromKey, kekIdOf, open, seal } from '../../src/kms/envelope';
import { CUSTODY_KEK_INFO, KEY_CHECK_INFO, deriveCustodyKek, deriveSubkey, keyCheckValue, keyringFor, legacyKek } from '../../src/kms/key-derivation';
import { LEDGER_KEY_INFO, deriveLedgerSeed } from '../../src/ledger';

const master = randomBytes(32);
const hkdf = (info: string): Buffer => Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), info, 32));

describe('master key derivations', () => {
  test('each purpose has its own HKDF-SHA256 label, and the subkeys are what RFC 5869 gives', () => {
    expect(new Set([CUSTODY_KEK_INFO, KEY_CHECK_INFO, LEDGER_KEY_INFO]).size).toBe(3);
    expect(deriveSubkey(master, CUSTODY_KEK_INFO)).toEqual(hkdf('credgate/custody-kek/v1'));
    expect(deriveSubkey(master, KEY_CHECK_INFO)).toEqual(hkdf('credgate/master-key-check/v1'));
    expect(Buffer.from(deriveLedgerSeed(master))).toEqual(hkdf('credgate/ledger-log-key/v1'));
  });

  test('the custody KEK is neither the master key nor the log key, and has an id of its own', () => {
    const kek = deriveCustodyKek(master);
    expect(kek.key).toEqual(hkdf(CUSTODY_KEK_INFO));
    expect(kek.key.equals(master)).toBe(false);
    expect(kek.key.equals(Buffer.from(deriveLedgerSeed(master)))).toBe(false);
    expect(kek.id).toBe(kekFromKey(hkdf(CUSTODY_KEK_INFO)).id);
    expect(kek.id).not.toBe(legacyKek(master).id);
    expect(legacyKek(master).key.equals(master)).toBe(true);
  });

  test('the key-check value is deterministic, differs per key, and is not a subkey', () => {
    expect(keyCheckValue(master)).toEqual(keyCheckValue(Buffer.from(master)));
    expect(keyCheckValue(master).equals(keyCheckValue(randomBytes(32)))).toBe(false);
    for (const info of [CUSTODY_KEK_INFO, KEY_CHECK_INFO, LEDGER_KEY_INFO]) expect(keyCheckValue(master).equals(hkdf(info))).toBe(false);
    expect(keyCheckValue(master)).toHaveLength(32);
  });

  test('master keys of another length are refused', () => {
    for (const bad of [randomBytes(16), randomBytes(33), Buffer.alloc(0)]) {
      expect(() => deriveSubkey(bad, CUSTODY_KEK_INFO)).toThrow(/32 bytes/);
      expect(() => keyCheckValue(bad)).toThrow(/32 bytes/);
      expect(() => legacyKek(bad)).toThrow(/32 bytes/);
    }
  });
});

describe('the custody keyring', () => {
  const secret = randomBytes(32);

  test('seals under the derived KEK only', () => {
    const ring = keyringFor(master, true);
    const env = seal(ring, secret, 'r');
    expect(kekIdOf(env)).toBe(deriveCustodyKek(master).id);
    expect(open(deriveCustodyKek(master), env, 'r')).toEqual(secret);
    expect(() => open(legacyKek(master), env, 'r')).toThrow(EnvelopeError);
  });

  test('opens rows sealed under the raw master key only on a database that may hold them', () => {
    const legacyEnvelope = seal(legacyKek(master), secret, 'r');
    expect(open(keyringFor(master, true), legacyEnvelope, 'r')).toEqual(secret);
    expect(() => open(keyringFor(master, false), legacyEnvelope, 'r')).toThrow(/another master key/);
  });

  test('another master key opens nothing', () => {
    const other = keyringFor(randomBytes(32), true);
    expect(() => open(other, seal(keyringFor(master, true), secret, 'r'), 'r')).toThrow(/another master key/);
    expect(() => open(other, seal(legacyKek(master), secret, 'r'), 'r')).toThrow(/another master key/);
  });
});
