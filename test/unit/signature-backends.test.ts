import { createPrivateKey, createPublicKey, randomBytes, sign as nodeSign, verify as nodeVerify } from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import {
  ed25519PublicKeyFromSeed,
  ed25519Sign,
  ed25519Verify,
  secp256k1SignMessage,
  secp256k1VerifyMessage,
  verifyEs256kJws,
  secp256k1PublicKeyToJwk,
} from '../../src/domain/keys';
import { clearEd25519KeyCache } from '../../src/domain/keys/ed25519';
import { libsecp256k1Verify, secp256k1HasHighS } from '../../src/domain/keys/libsecp256k1';
import { LruCache } from '../../src/domain/keys/key-object-cache';
import { bytesToBase64Url } from '../../src/domain/encoding';

/**
 * Cross-checks the hot paths (Ed25519 on node:crypto, secp256k1 on libsecp256k1) against
 * @noble/curves (the implementation they replaced) on random keys and messages: sign with one,
 * verify with the other, both directions, and the edge cases where OpenSSL or libsecp256k1 on
 * their own would accept more than noble did.
 */

const ROUNDS_ED25519 = 48;
const ROUNDS_SECP256K1 = 24;
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const P25519 = 2n ** 255n - 19n;

const bytes = (n: number): Uint8Array => new Uint8Array(randomBytes(n));
const message = (): Uint8Array => bytes(Math.floor(Math.random() * 600));
const big32 = (n: bigint): Uint8Array => Uint8Array.from(Buffer.from(n.toString(16).padStart(64, '0'), 'hex'));
const bigOf = (b: Uint8Array): bigint => BigInt(`0x${Buffer.from(b).toString('hex')}`);
const le32 = (n: bigint): Uint8Array => {
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) {
    out[i] = Number(n & 0xffn);
    n >>= 8n;
  }
  return out;
};
const flipBit = (b: Uint8Array, index: number): Uint8Array => {
  const copy = Uint8Array.from(b);
  copy[index % copy.length]! ^= 1 << index % 8;
  return copy;
};
const nobleEdVerify = (sig: Uint8Array, msg: Uint8Array, pub: Uint8Array): boolean => {
  try {
    return ed25519.verify(sig, msg, pub, { zip215: false });
  } catch {
    return false;
  }
};
const nobleK1Verify = (sig: Uint8Array, msg: Uint8Array, pub: Uint8Array, lowS: boolean): boolean => {
  try {
    return secp256k1.verify(sig, sha256(msg), pub, { prehash: false, lowS, format: 'compact' });
  } catch {
    return false;
  }
};

/** A node:crypto (OpenSSL, random k) ES256K signature, as IEEE P1363 r||s; may be high-S. */
function nodeEs256kSign(msg: Uint8Array, sk: Uint8Array): Uint8Array {
  const full = secp256k1.getPublicKey(sk, false);
  const key = createPrivateKey({
    key: {
      kty: 'EC',
      crv: 'secp256k1',
      x: bytesToBase64Url(full.slice(1, 33)),
      y: bytesToBase64Url(full.slice(33)),
      d: bytesToBase64Url(sk),
    },
    format: 'jwk',
  });
  return new Uint8Array(nodeSign('sha256', msg, { key, dsaEncoding: 'ieee-p1363' }));
}

/** The other member of the {s, n - s} pair. */
function twin(sig: Uint8Array): Uint8Array {
  const out = Uint8Array.from(sig);
  out.set(big32(N - bigOf(sig.slice(32))), 32);
  return out;
}

beforeEach(() => clearEd25519KeyCache());

describe('Ed25519: node:crypto against noble', () => {
  it('derives the same public key, signs byte-identically and each verifies the other, on random keys and messages', () => {
    for (let i = 0; i < ROUNDS_ED25519; i++) {
      const seed = bytes(32);
      const pub = ed25519.getPublicKey(seed);
      expect(Buffer.from(ed25519PublicKeyFromSeed(seed)).toString('hex')).toBe(Buffer.from(pub).toString('hex'));
      const msg = message();
      const native = ed25519Sign(msg, seed);
      const noble = ed25519.sign(msg, seed);
      expect(Buffer.from(native).toString('hex')).toBe(Buffer.from(noble).toString('hex'));
      expect(ed25519Verify(noble, msg, pub)).toBe(true);
      expect(nobleEdVerify(native, msg, pub)).toBe(true);
      // A flipped bit anywhere (signature, message, key) fails in both implementations alike.
      const badSig = flipBit(native, i * 7);
      expect(ed25519Verify(badSig, msg, pub)).toBe(nobleEdVerify(badSig, msg, pub));
      expect(ed25519Verify(badSig, msg, pub)).toBe(false);
      const badMsg = msg.length > 0 ? flipBit(msg, i * 13) : Uint8Array.of(0);
      expect(ed25519Verify(native, badMsg, pub)).toBe(false);
      expect(nobleEdVerify(native, badMsg, pub)).toBe(false);
      const badPub = flipBit(pub, i * 11);
      expect(ed25519Verify(native, msg, badPub)).toBe(nobleEdVerify(native, msg, badPub));
    }
  });

  it('rejects a non-canonical S (S + L), like noble', () => {
    const seed = bytes(32);
    const pub = ed25519.getPublicKey(seed);
    const msg = message();
    const sig = ed25519Sign(msg, seed);
    const L = 2n ** 252n + 27742317777372353535851937790883648493n;
    let s = 0n;
    for (let i = 31; i >= 0; i--) s = (s << 8n) | BigInt(sig[32 + i]!);
    const malleated = Uint8Array.from(sig);
    malleated.set(le32(s + L), 32);
    expect(nobleEdVerify(malleated, msg, pub)).toBe(false);
    expect(ed25519Verify(malleated, msg, pub)).toBe(false);
  });

  // R = identity, S = 0 satisfies the verification equation for every message when A is the
  // identity. OpenSSL accepts it for both spellings of the identity (canonical y = 1 and the
  // non-canonical y = p + 1); noble's strict mode refuses both, and so must the native path.
  it.each([
    ['the identity (small order)', le32(1n)],
    ['a non-canonical encoding (y = p + 1)', le32(P25519 + 1n)],
  ])('refuses %s as a public key although bare OpenSSL accepts it', (_, pub) => {
    const forged = new Uint8Array(64);
    forged.set(le32(1n), 0);
    const msg = message();
    const raw = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: bytesToBase64Url(pub) }, format: 'jwk' });
    expect(nodeVerify(null, msg, raw, forged)).toBe(true);
    expect(nobleEdVerify(forged, msg, pub)).toBe(false);
    expect(ed25519Verify(forged, msg, pub)).toBe(false);
  });

  it('serves repeated verifications from the KeyObject cache with the same answers', () => {
    const seed = bytes(32);
    const pub = ed25519.getPublicKey(seed);
    const msg = message();
    const sig = ed25519Sign(msg, seed);
    for (let i = 0; i < 3; i++) {
      expect(ed25519Verify(sig, msg, pub)).toBe(true);
      expect(ed25519Verify(sig, flipBit(msg.length ? msg : Uint8Array.of(1), 3), pub)).toBe(false);
    }
  });
});

describe('secp256k1 ES256K: libsecp256k1 against noble', () => {
  it('signs byte-identically with noble (RFC 6979, low S); noble signatures verify here; node (random k) signatures, low-S normalised, verify in both', () => {
    for (let i = 0; i < ROUNDS_SECP256K1; i++) {
      const sk = secp256k1.utils.randomSecretKey();
      const pub = secp256k1.getPublicKey(sk, true);
      const pubFull = secp256k1.getPublicKey(sk, false);
      const msg = message();

      const nobleSig = secp256k1.sign(sha256(msg), sk, { prehash: false, lowS: true, format: 'compact' });
      // libsecp256k1 and noble both sign with RFC 6979 k and low S: the same bytes.
      expect(Buffer.from(secp256k1SignMessage(msg, sk)).toString('hex')).toBe(Buffer.from(nobleSig).toString('hex'));
      expect(secp256k1HasHighS(nobleSig)).toBe(false);
      expect(secp256k1VerifyMessage(nobleSig, msg, pub)).toBe(true);
      expect(secp256k1VerifyMessage(nobleSig, msg, pubFull)).toBe(true);

      const nodeSig = nodeEs256kSign(msg, sk);
      const low = secp256k1HasHighS(nodeSig) ? twin(nodeSig) : nodeSig;
      const high = twin(low);
      expect(nobleK1Verify(low, msg, pub, true)).toBe(true);
      expect(secp256k1VerifyMessage(low, msg, pub)).toBe(true);
      // High-S: refused where noble used lowS: true, accepted where it used lowS: false (JWS).
      expect(nobleK1Verify(high, msg, pub, true)).toBe(false);
      expect(secp256k1VerifyMessage(high, msg, pub)).toBe(false);
      expect(nobleK1Verify(high, msg, pub, false)).toBe(true);
      expect(libsecp256k1Verify(high, msg, pub, false)).toBe(true);

      const badMsg = msg.length > 0 ? flipBit(msg, i * 5) : Uint8Array.of(0);
      expect(secp256k1VerifyMessage(nobleSig, badMsg, pub)).toBe(false);
      expect(nobleK1Verify(nobleSig, badMsg, pub, true)).toBe(false);
      const badSig = flipBit(nobleSig, i * 17);
      expect(secp256k1VerifyMessage(badSig, msg, pub)).toBe(nobleK1Verify(badSig, msg, pub, true));
      expect(secp256k1VerifyMessage(badSig, msg, pub)).toBe(false);
    }
  });

  it('verifies an ES256K JWS signed by node (random k, possibly high-S) exactly as noble does', () => {
    for (let i = 0; i < 8; i++) {
      const sk = secp256k1.utils.randomSecretKey();
      const jwk = secp256k1PublicKeyToJwk(secp256k1.getPublicKey(sk, true));
      const input = `${bytesToBase64Url(new TextEncoder().encode('{"alg":"ES256K"}'))}.${bytesToBase64Url(message())}`;
      const sig = nodeEs256kSign(new TextEncoder().encode(input), sk);
      for (const s of [sig, twin(sig)]) {
        expect(verifyEs256kJws(`${input}.${bytesToBase64Url(s)}`, jwk).valid).toBe(true);
      }
      expect(verifyEs256kJws(`${input}.${bytesToBase64Url(flipBit(sig, i))}`, jwk).valid).toBe(false);
    }
  });

  it('refuses r or s of 0 or n, like noble', () => {
    const sk = secp256k1.utils.randomSecretKey();
    const pub = secp256k1.getPublicKey(sk, true);
    const msg = message();
    const sig = secp256k1SignMessage(msg, sk);
    const variants = [
      [big32(0n), sig.slice(32)],
      [sig.slice(0, 32), big32(0n)],
      [big32(N), sig.slice(32)],
      [sig.slice(0, 32), big32(N)],
    ];
    for (const [r, s] of variants) {
      const bad = new Uint8Array(64);
      bad.set(r!, 0);
      bad.set(s!, 32);
      for (const lowS of [true, false]) {
        expect(nobleK1Verify(bad, msg, pub, lowS)).toBe(false);
        expect(libsecp256k1Verify(bad, msg, pub, lowS)).toBe(false);
      }
    }
  });

  // SEC1 "hybrid" points (prefix 06/07) are accepted by OpenSSL and libsecp256k1's parser but not
  // by noble; they must not start verifying now.
  it("refuses a hybrid-encoded public key although bare OpenSSL (and libsecp256k1's parser) accept it", () => {
    const sk = secp256k1.utils.randomSecretKey();
    const full = secp256k1.getPublicKey(sk, false);
    const hybrid = Uint8Array.from(full);
    hybrid[0] = 0x06 | (full[64]! & 1);
    const msg = message();
    const sig = secp256k1SignMessage(msg, sk);
    const spki = Buffer.concat([Buffer.from('3056301006072a8648ce3d020106052b8104000a034200', 'hex'), hybrid]);
    const raw = createPublicKey({ key: spki, format: 'der', type: 'spki' });
    expect(nodeVerify('sha256', msg, { key: raw, dsaEncoding: 'ieee-p1363' }, sig)).toBe(true);
    expect(nobleK1Verify(sig, msg, hybrid, true)).toBe(false);
    expect(secp256k1VerifyMessage(sig, msg, hybrid)).toBe(false);
    expect(libsecp256k1Verify(sig, msg, hybrid, false)).toBe(false);
  });

  it('refuses keys that are not on the curve or of a wrong length, without throwing', () => {
    const msg = message();
    const sk = secp256k1.utils.randomSecretKey();
    const sig = secp256k1SignMessage(msg, sk);
    const offCurve = Uint8Array.from(secp256k1.getPublicKey(sk, false));
    offCurve[64] = offCurve[64]! ^ 1;
    for (const pub of [offCurve, bytes(33), bytes(64), new Uint8Array(0)]) {
      expect(secp256k1VerifyMessage(sig, msg, pub)).toBe(nobleK1Verify(sig, msg, pub, true));
      expect(secp256k1VerifyMessage(sig, msg, pub)).toBe(false);
    }
  });
});

describe('LruCache', () => {
  it('keeps at most its capacity and evicts the least recently used entry', () => {
    const cache = new LruCache<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1); // a is now the most recent
    cache.set('c', 3);
    expect(cache.size).toBe(2);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(1);
    expect(cache.get('c')).toBe(3);
  });
});
