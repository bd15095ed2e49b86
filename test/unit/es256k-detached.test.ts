import { secp256k1 } from '@noble/curves/secp256k1.js';
import { signDetachedEs256k, verifyDetachedEs256k } from '../../src/domain/credentials/es256k-detached';

const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

describe('ES256K detached JWS (RFC 7797 b64:false)', () => {
  const sk = secp256k1.utils.randomSecretKey();
  const pk = secp256k1.getPublicKey(sk);
  const payload = new TextEncoder().encode('{"a":1}');
  const jws = signDetachedEs256k(payload, sk);

  test('round trip; payload, key and header are bound', () => {
    expect(jws).toMatch(/^eyJ[A-Za-z0-9_-]+\.\.[A-Za-z0-9_-]{86}$/);
    expect(verifyDetachedEs256k(jws, payload, pk)).toBe(true);
    expect(verifyDetachedEs256k(jws, new TextEncoder().encode('{"a":2}'), pk)).toBe(false);
    expect(verifyDetachedEs256k(jws, payload, secp256k1.getPublicKey(secp256k1.utils.randomSecretKey()))).toBe(false);
    expect(verifyDetachedEs256k(jws.replace(/^[^.]+/, 'eyJhbGciOiJFUzI1NksifQ'), payload, pk)).toBe(false);
    expect(verifyDetachedEs256k(42, payload, pk)).toBe(false);
  });

  test('a last character that differs only in its unused bits is refused', () => {
    // 64 bytes use 2 bits of the 86th character; the low 4 bits must be zero.
    const last = jws[jws.length - 1]!;
    const spare = B64URL[B64URL.indexOf(last) | 1]!;
    expect(spare).not.toBe(last);
    expect(verifyDetachedEs256k(jws.slice(0, -1) + spare, payload, pk)).toBe(false);
  });
});
