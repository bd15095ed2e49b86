import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { signDetachedEs256k, verifyDetachedEs256k } from '../../src/domain/credentials/es256k-detached';
import { secp256k1SignMessage, secp256k1VerifyMessage } from '../../src/domain/keys';
import { LIBSECP256K1, WASM_LIBSECP256K1, libsecp256k1Sign, libsecp256k1Verify, loadNativeLibsecp256k1, secp256k1HasHighS } from '../../src/domain/keys/libsecp256k1';

/**
 * Every secp256k1 signature (credential issuance included) comes from libsecp256k1 with RFC 6979
 * nonces (its native build where the prebuilt addon loads, else its WebAssembly build; both tested). What must hold: the bytes are those @noble/curves gives for the same key and message (the
 * published vectors and every deterministic format depend on it), every signature is low S, it
 * verifies in an independent implementation, and it is bound to the message and key.
 */
const ROUNDS = 64;
const text = (s: string) => new TextEncoder().encode(s);
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('ES256K signing through libsecp256k1', () => {
  test('the same bytes as noble (RFC 6979, low S), verifying there and here; not for another message or key', () => {
    const sk = secp256k1.utils.randomSecretKey();
    const pub = secp256k1.getPublicKey(sk, true);
    const other = secp256k1.getPublicKey(secp256k1.utils.randomSecretKey(), true);
    for (let i = 0; i < ROUNDS; i++) {
      const msg = text(`credential ${i}`);
      const sig = secp256k1SignMessage(msg, sk);
      expect(sig).toHaveLength(64);
      expect(hex(sig)).toBe(hex(secp256k1.sign(sha256(msg), sk, { prehash: false, lowS: true, format: 'compact' })));
      expect(secp256k1HasHighS(sig)).toBe(false);
      expect(secp256k1.verify(sig, sha256(msg), pub, { prehash: false, lowS: true })).toBe(true);
      expect(secp256k1VerifyMessage(sig, msg, pub)).toBe(true);
      expect(secp256k1VerifyMessage(sig, text(`credential ${i + 1}`), pub)).toBe(false);
      expect(secp256k1VerifyMessage(sig, msg, other)).toBe(false);
    }
  });

  test('deterministic per (key, message), and one key is never confused with another signed just before', () => {
    const a = secp256k1.utils.randomSecretKey();
    const b = secp256k1.utils.randomSecretKey();
    const msg = text('same input');
    expect(hex(secp256k1SignMessage(msg, a))).toBe(hex(secp256k1SignMessage(msg, a)));
    const byB = secp256k1SignMessage(msg, b);
    expect(hex(byB)).not.toBe(hex(secp256k1SignMessage(msg, a)));
    expect(secp256k1VerifyMessage(byB, msg, secp256k1.getPublicKey(b, true))).toBe(true);
    expect(secp256k1VerifyMessage(byB, msg, secp256k1.getPublicKey(a, true))).toBe(false);
  });

  test('an out-of-range scalar is refused before the library sees it', () => {
    expect(() => secp256k1SignMessage(text('x'), new Uint8Array(32))).toThrow(expect.objectContaining({ code: 'INVALID_PRIVATE_KEY' }));
    expect(() => secp256k1SignMessage(text('x'), new Uint8Array(32).fill(0xff))).toThrow(expect.objectContaining({ code: 'INVALID_PRIVATE_KEY' }));
  });

  test('the private key handed in is left as it was', () => {
    const sk = secp256k1.utils.randomSecretKey();
    const before = hex(sk);
    secp256k1SignMessage(text('x'), sk);
    expect(hex(sk)).toBe(before);
  });

  test('the detached JWS of credentials and status lists verifies in noble with low S', () => {
    const sk = secp256k1.utils.randomSecretKey();
    const pub = secp256k1.getPublicKey(sk, true);
    for (let i = 0; i < 16; i++) {
      const payload = text(`{"commitment":${i}}`);
      const jws = signDetachedEs256k(payload, sk);
      expect(verifyDetachedEs256k(jws, payload, pub)).toBe(true);
      expect(verifyDetachedEs256k(jws, text(`{"commitment":${i + 1}}`), pub)).toBe(false);
      const sig = Buffer.from(jws.split('..')[1]!, 'base64url');
      const input = Buffer.concat([Buffer.from(`${jws.split('..')[0]!}.`, 'ascii'), payload]);
      expect(secp256k1.verify(sig, sha256(input), pub, { prehash: false, lowS: true })).toBe(true);
    }
  });
});

describe.each([
  ['native (the prebuilt addon)', loadNativeLibsecp256k1()],
  ['wasm (tiny-secp256k1)', WASM_LIBSECP256K1],
])('libsecp256k1 build: %s', (_, lib) => {
  test('loads on this platform (linux-x64 glibc has a prebuild), and the service uses the native one', () => {
    expect(lib).not.toBeNull();
    expect(LIBSECP256K1.name).toBe('native');
  });

  test('signs the bytes noble signs and verifies its own and noble signatures, with noble rules for high S, r, s and hybrid keys', () => {
    const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
    for (let i = 0; i < 16; i++) {
      const sk = secp256k1.utils.randomSecretKey();
      const pub = secp256k1.getPublicKey(sk, true);
      const full = secp256k1.getPublicKey(sk, false);
      const msg = text(`message ${i} ${Math.random()}`);
      const sig = libsecp256k1Sign(msg, sk, lib!);
      expect(hex(sig)).toBe(hex(secp256k1.sign(sha256(msg), sk, { prehash: false, lowS: true, format: 'compact' })));
      for (const key of [pub, full]) expect(libsecp256k1Verify(sig, msg, key, true, lib!)).toBe(true);
      expect(libsecp256k1Verify(sig, text('other'), pub, true, lib!)).toBe(false);
      const high = Uint8Array.from(sig);
      high.set(Buffer.from((N - BigInt(`0x${hex(sig.subarray(32))}`)).toString(16).padStart(64, '0'), 'hex'), 32);
      expect(libsecp256k1Verify(high, msg, pub, true, lib!)).toBe(false);
      expect(libsecp256k1Verify(high, msg, pub, false, lib!)).toBe(true);
      const hybrid = Uint8Array.from(full);
      hybrid[0] = 0x06 | (full[64]! & 1);
      expect(libsecp256k1Verify(sig, msg, hybrid, false, lib!)).toBe(false);
      const overflow = Uint8Array.from(sig);
      overflow.set(Buffer.from(N.toString(16), 'hex'), 32);
      expect(libsecp256k1Verify(overflow, msg, pub, false, lib!)).toBe(false);
      const zero = Uint8Array.from(sig);
      zero.fill(0, 0, 32);
      expect(libsecp256k1Verify(zero, msg, pub, false, lib!)).toBe(false);
    }
  });
});
