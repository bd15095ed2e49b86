import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { signDetachedEs256k, verifyDetachedEs256k } from '../../src/domain/credentials/es256k-detached';
import { secp256k1SignMessage, secp256k1SignMessageRandomized, secp256k1VerifyMessage } from '../../src/domain/keys';
import { clearNativePrivateKeys, secp256k1HasHighS } from '../../src/domain/keys/native';

/**
 * Credential issuance signs ES256K with node:crypto (random k) instead of noble (RFC 6979). What
 * must hold: every signature is low S (noble, Bitcoin-lineage verifiers and ours refuse high S), it
 * verifies in an independent implementation, and it is bound to the message and key. With a random
 * k about half of OpenSSL's raw signatures are high S, so 64 rounds exercise the normalisation.
 */
const ROUNDS = 64;
const text = (s: string) => new TextEncoder().encode(s);

describe('ES256K signing through node:crypto', () => {
  afterEach(() => clearNativePrivateKeys());

  test('low S always, verifies in noble (lowS: true) and here; not accepted for another message or key', () => {
    const sk = secp256k1.utils.randomSecretKey();
    const pub = secp256k1.getPublicKey(sk, true);
    const other = secp256k1.getPublicKey(secp256k1.utils.randomSecretKey(), true);
    for (let i = 0; i < ROUNDS; i++) {
      const msg = text(`credential ${i}`);
      const sig = secp256k1SignMessageRandomized(msg, sk);
      expect(sig).toHaveLength(64);
      expect(secp256k1HasHighS(sig)).toBe(false);
      expect(secp256k1.verify(sig, sha256(msg), pub, { prehash: false, lowS: true })).toBe(true);
      expect(secp256k1VerifyMessage(sig, msg, pub)).toBe(true);
      expect(secp256k1VerifyMessage(sig, text(`credential ${i + 1}`), pub)).toBe(false);
      expect(secp256k1VerifyMessage(sig, msg, other)).toBe(false);
    }
  });

  test('randomized (unlike the RFC 6979 path, which stays deterministic), and a second key is not confused with the first one cached', () => {
    const a = secp256k1.utils.randomSecretKey();
    const b = secp256k1.utils.randomSecretKey();
    const msg = text('same input');
    expect(Buffer.from(secp256k1SignMessageRandomized(msg, a)).equals(Buffer.from(secp256k1SignMessageRandomized(msg, a)))).toBe(false);
    expect(secp256k1SignMessage(msg, a)).toEqual(secp256k1SignMessage(msg, a));
    const byB = secp256k1SignMessageRandomized(msg, b);
    expect(secp256k1VerifyMessage(byB, msg, secp256k1.getPublicKey(b, true))).toBe(true);
    expect(secp256k1VerifyMessage(byB, msg, secp256k1.getPublicKey(a, true))).toBe(false);
  });

  test('an out-of-range scalar is refused before OpenSSL sees it', () => {
    expect(() => secp256k1SignMessageRandomized(text('x'), new Uint8Array(32))).toThrow(expect.objectContaining({ code: 'INVALID_PRIVATE_KEY' }));
    expect(() => secp256k1SignMessageRandomized(text('x'), new Uint8Array(32).fill(0xff))).toThrow(expect.objectContaining({ code: 'INVALID_PRIVATE_KEY' }));
  });

  test('the detached JWS of credentials and status lists verifies in noble with low S', () => {
    const sk = secp256k1.utils.randomSecretKey();
    const pub = secp256k1.getPublicKey(sk, true);
    const payload = text('{"commitment":1}');
    for (let i = 0; i < 16; i++) {
      const jws = signDetachedEs256k(payload, sk);
      expect(verifyDetachedEs256k(jws, payload, pub)).toBe(true);
      const sig = Buffer.from(jws.split('..')[1]!, 'base64url');
      const input = Buffer.concat([Buffer.from(`${jws.split('..')[0]!}.`, 'ascii'), payload]);
      expect(secp256k1.verify(sig, sha256(input), pub, { prehash: false, lowS: true })).toBe(true);
    }
  });
});
