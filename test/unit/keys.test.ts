import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { AppError } from '../../src/errors';
import {
  base58btcDecode,
  base64UrlToBytes,
  bytesToBase64,
  bytesToBase64Url,
  bytesToHex,
  hexToBytes,
  multibaseDecode,
  splitMulticodecPrefix,
} from '../../src/domain/encoding';
import {
  ed25519PublicKeyFromSeed,
  ed25519Sign,
  ed25519Verify,
  generateEd25519Keypair,
  generateSecp256k1Keypair,
  nistCompressedLength,
  nistJwkToPublicKey,
  nistPublicKeyToJwk,
  parseEd25519PrivateKey,
  parseEd25519PublicKey,
  parseNistPublicKey,
  parseSecp256k1PrivateKey,
  parseSecp256k1PublicKey,
  parseX25519PublicKey,
  secp256k1PublicKeyFromPrivate,
  secp256k1SignMessage,
  secp256k1VerifyMessage,
  x25519PublicKeyFromEd25519,
  x25519PublicKeyFromSecret,
  x25519SecretKeyFromEd25519Seed,
  x25519SharedSecret,
  type NistCurve,
} from '../../src/domain/keys';
import { readSharedJson } from '../support/shared';
import { expectAppError } from '../support/app-error';

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const bigToBytes32 = (n: bigint): Uint8Array => hexToBytes(n.toString(16).padStart(64, '0'));

interface Ed25519Vector {
  seed: string;
  verificationKeyPair: { publicKeyBase58?: string; publicKeyJwk?: { x: string } };
  keyAgreementKeyPair: {
    publicKeyBase58?: string;
    privateKeyBase58?: string;
    publicKeyJwk?: { x: string };
    privateKeyJwk?: { d: string };
  };
}
interface Secp256k1Vector {
  seed?: string;
  verificationKeyPair: {
    publicKeyBase58?: string;
    privateKeyBase58?: string;
    publicKeyJwk?: { x: string; y: string };
    privateKeyJwk?: { d: string };
  };
}
interface NistVector {
  verificationMethod: {
    publicKeyJwk?: { kty: 'EC'; crv: string; x: string; y: string };
    publicKeyBase58?: string;
  };
}

const edVectors = Object.entries(readSharedJson<Record<string, Ed25519Vector>>('vectors', 'did-key', 'ed25519-x25519.json'));
const secpVectors = Object.entries(readSharedJson<Record<string, Secp256k1Vector>>('vectors', 'did-key', 'secp256k1.json'));
const nistVectors = Object.entries(readSharedJson<Record<string, NistVector>>('vectors', 'did-key', 'nist-curves.json'));

function edPublic(v: Ed25519Vector): Uint8Array {
  const kp = v.verificationKeyPair;
  return kp.publicKeyBase58 ? base58btcDecode(kp.publicKeyBase58) : base64UrlToBytes(kp.publicKeyJwk?.x ?? '');
}

describe('Ed25519', () => {
  it.each(edVectors)('seed of %s derives the published public key', (_, v) => {
    const seed = hexToBytes(v.seed);
    expect(ed25519PublicKeyFromSeed(seed)).toEqual(edPublic(v));
    const kp = generateEd25519Keypair(() => seed);
    expect(kp.privateKey).toEqual(seed);
    expect(kp.publicKey).toEqual(edPublic(v));
  });

  describe('RFC 8037 Appendix A', () => {
    const rfc = readSharedJson<Record<string, unknown>>('vectors', 'rfc8037', 'rfc8037-appendix-A.json');
    const priv = rfc['A.1_privateKeyJwk'] as { d: string; x: string };
    const seed = base64UrlToBytes(priv.d);
    const publicKey = base64UrlToBytes(priv.x);
    const signingInput = utf8(rfc['A.4_signingInput'] as string);
    const signature = base64UrlToBytes(rfc['A.4_signature_b64url'] as string);

    it('A.1: d derives x', () => {
      expect(ed25519PublicKeyFromSeed(seed)).toEqual(publicKey);
    });

    it('A.4: signing reproduces the published signature (Ed25519 is deterministic)', () => {
      expect(ed25519Sign(signingInput, seed)).toEqual(signature);
    });

    it('A.5: the published signature verifies; tampering fails', () => {
      expect(ed25519Verify(signature, signingInput, publicKey)).toBe(true);
      const tampered = Uint8Array.from(signature);
      tampered[10] = (tampered[10] ?? 0) ^ 1;
      expect(ed25519Verify(tampered, signingInput, publicKey)).toBe(false);
      expect(ed25519Verify(signature, utf8('other message'), publicKey)).toBe(false);
    });
  });

  it('vc-di-eddsa Multikey pair: the ed25519-priv seed derives the ed25519-pub key', () => {
    const pair = readSharedJson<{ publicKeyMultibase: string; privateKeyMultibase: string }>(
      'vectors',
      'vc-di-eddsa',
      'keyPair.json',
    );
    const priv = splitMulticodecPrefix(multibaseDecode(pair.privateKeyMultibase));
    const pub = splitMulticodecPrefix(multibaseDecode(pair.publicKeyMultibase));
    expect(priv.code).toBe(0x1300);
    expect(pub.code).toBe(0xed);
    expect(ed25519PublicKeyFromSeed(priv.data)).toEqual(pub.data);
  });

  it('generates distinct key pairs from the CSPRNG that sign and verify', () => {
    const a = generateEd25519Keypair();
    const b = generateEd25519Keypair();
    expect(a.privateKey).toHaveLength(32);
    expect(a.publicKey).toHaveLength(32);
    expect(a.privateKey).not.toEqual(b.privateKey);
    const msg = utf8('credgate');
    expect(ed25519Verify(ed25519Sign(msg, a.privateKey), msg, a.publicKey)).toBe(true);
    expect(ed25519Verify(ed25519Sign(msg, a.privateKey), msg, b.publicKey)).toBe(false);
  });

  it('rejects a random source that returns the wrong length', () => {
    expectAppError(() => generateEd25519Keypair(() => new Uint8Array(31)), 'INVALID_INPUT');
  });

  describe('parseEd25519PublicKey', () => {
    const good = edPublic(edVectors[0]![1]);

    it('accepts bytes and padded base64', () => {
      expect(parseEd25519PublicKey(good)).toEqual(good);
      expect(parseEd25519PublicKey(bytesToBase64(good))).toEqual(good);
    });

    it.each([
      ['31 bytes', new Uint8Array(31)],
      ['33 bytes', new Uint8Array(33)],
      ['not a curve point', Uint8Array.from({ length: 32 }, (_, i) => (i === 0 ? 2 : 0))],
      ['non-canonical y >= p', Uint8Array.from({ length: 32 }, (_, i) => (i === 31 ? 0x7f : 0xff))],
      ['the identity (small order)', Uint8Array.from({ length: 32 }, (_, i) => (i === 0 ? 1 : 0))],
    ])('rejects %s with INVALID_PUBLIC_KEY', (_, bytes) => {
      expectAppError(() => parseEd25519PublicKey(bytes, 'issuerKey'), 'INVALID_PUBLIC_KEY', /issuerKey/);
    });

    it('rejects bad base64 with INVALID_PUBLIC_KEY', () => {
      expectAppError(() => parseEd25519PublicKey('not base64!'), 'INVALID_PUBLIC_KEY');
      expectAppError(() => parseEd25519PublicKey(bytesToBase64Url(good)), 'INVALID_PUBLIC_KEY');
    });
  });

  describe('parseEd25519PrivateKey', () => {
    const seed = hexToBytes(edVectors[1]![1].seed);
    const pub = ed25519PublicKeyFromSeed(seed);

    it('accepts a 32-byte seed', () => {
      expect(parseEd25519PrivateKey(bytesToBase64(seed))).toEqual(seed);
    });

    it('accepts seed||publicKey and returns the seed', () => {
      const full = new Uint8Array(64);
      full.set(seed);
      full.set(pub, 32);
      expect(parseEd25519PrivateKey(bytesToBase64(full))).toEqual(seed);
    });

    it('rejects seed||publicKey whose public half belongs to another seed', () => {
      const other = ed25519PublicKeyFromSeed(hexToBytes(edVectors[2]![1].seed));
      const full = new Uint8Array(64);
      full.set(seed);
      full.set(other, 32);
      const b64 = bytesToBase64(full);
      const err = expectAppError(() => parseEd25519PrivateKey(b64), 'INVALID_PRIVATE_KEY', /does not match/);
      expect(err.message).not.toContain(b64);
    });

    it.each([
      ['16 bytes', bytesToBase64(new Uint8Array(16))],
      ['48 bytes', bytesToBase64(new Uint8Array(48))],
      ['bad base64', '@@@@'],
      ['unpadded', bytesToBase64(seed).replace(/=+$/, '')],
    ])('rejects %s with INVALID_PRIVATE_KEY', (_, input) => {
      const err = expectAppError(() => parseEd25519PrivateKey(input), 'INVALID_PRIVATE_KEY', /privateKey/);
      expect(err.message).not.toContain(input);
    });
  });

  describe('ed25519Verify never throws', () => {
    const { privateKey, publicKey } = generateEd25519Keypair();
    const msg = utf8('x');
    const sig = ed25519Sign(msg, privateKey);

    it.each([
      ['short signature', sig.slice(0, 63), publicKey],
      ['long signature', new Uint8Array(65), publicKey],
      ['short key', sig, publicKey.slice(0, 31)],
      ['non-point key', sig, Uint8Array.from({ length: 32 }, (_, i) => (i === 0 ? 2 : 0))],
      ['zero signature', new Uint8Array(64), publicKey],
      ['non-bytes', undefined as unknown as Uint8Array, publicKey],
    ])('returns false for %s', (_, s, k) => {
      expect(ed25519Verify(s, msg, k)).toBe(false);
    });
  });

  it('ed25519Sign rejects a wrong-length seed', () => {
    expectAppError(() => ed25519Sign(utf8('x'), new Uint8Array(64)), 'INVALID_PRIVATE_KEY');
  });
});

describe('secp256k1', () => {
  const seeded = secpVectors.filter(([, v]) => v.seed !== undefined);

  it('has seeded vectors', () => {
    expect(seeded.length).toBeGreaterThanOrEqual(5);
  });

  it.each(seeded)('seed of %s is the private key and derives the published public key', (_, v) => {
    const sk = parseSecp256k1PrivateKey(v.seed ?? '');
    expect(sk).toEqual(base58btcDecode(v.verificationKeyPair.privateKeyBase58 ?? ''));
    const expected = base58btcDecode(v.verificationKeyPair.publicKeyBase58 ?? '');
    expect(secp256k1PublicKeyFromPrivate(sk)).toEqual(expected);
    expect(generateSecp256k1Keypair(() => Uint8Array.from(sk))).toEqual({ privateKey: sk, publicKey: expected });
  });

  it('retries when an injected random source yields an out-of-range scalar', () => {
    const valid = hexToBytes(seeded[0]![1].seed ?? '');
    const draws = [new Uint8Array(32), bigToBytes32(SECP256K1_N), valid];
    const kp = generateSecp256k1Keypair(() => draws.shift() ?? new Uint8Array(32));
    expect(kp.privateKey).toEqual(valid);
    expect(draws).toHaveLength(0);
  });

  it('generates compressed key pairs from the CSPRNG', () => {
    const kp = generateSecp256k1Keypair();
    expect(kp.privateKey).toHaveLength(32);
    expect(kp.publicKey).toHaveLength(33);
    expect([2, 3]).toContain(kp.publicKey[0]);
  });

  describe('parseSecp256k1PublicKey', () => {
    const sk = hexToBytes(seeded[0]![1].seed ?? '');
    const compressed = secp256k1.getPublicKey(sk, true);
    const uncompressed = secp256k1.getPublicKey(sk, false);

    it('accepts compressed and uncompressed hex and returns compressed bytes', () => {
      expect(parseSecp256k1PublicKey(bytesToHex(compressed))).toEqual(compressed);
      expect(parseSecp256k1PublicKey(bytesToHex(uncompressed).toUpperCase())).toEqual(compressed);
      expect(parseSecp256k1PublicKey(uncompressed)).toEqual(compressed);
    });

    const offCurve = Uint8Array.from(uncompressed);
    offCurve[64] = (offCurve[64] ?? 0) ^ 1;
    const badPrefix = Uint8Array.from(compressed);
    badPrefix[0] = 0x05;
    // x = 5 has no y on secp256k1 (5^3 + 7 = 132 is not a quadratic residue mod p).
    const noY = hexToBytes(`02${'0'.repeat(63)}5`);

    it.each([
      ['odd-length hex', bytesToHex(compressed).slice(1)],
      ['0x-prefixed hex', `0x${bytesToHex(compressed)}`],
      ['32 bytes', bytesToHex(compressed.slice(1))],
      ['64 bytes (raw x||y)', bytesToHex(uncompressed.slice(1))],
      ['uncompressed point off the curve', bytesToHex(offCurve)],
      ['unknown prefix byte', bytesToHex(badPrefix)],
      ['x without a curve point', bytesToHex(noY)],
      ['the all-zero key', '00'.repeat(33)],
    ])('rejects %s with INVALID_PUBLIC_KEY', (_, hex) => {
      expectAppError(() => parseSecp256k1PublicKey(hex, 'publicKeyHex'), 'INVALID_PUBLIC_KEY', /publicKeyHex/);
    });
  });

  describe('parseSecp256k1PrivateKey', () => {
    it.each([
      ['zero', '00'.repeat(32)],
      ['n', SECP256K1_N.toString(16)],
      ['n + 1', (SECP256K1_N + 1n).toString(16)],
      ['all ones', 'ff'.repeat(32)],
      ['31 bytes', '01'.repeat(31)],
      ['33 bytes', '01'.repeat(33)],
      ['non-hex', 'zz'.repeat(32)],
    ])('rejects %s with INVALID_PRIVATE_KEY', (_, hex) => {
      const err = expectAppError(() => parseSecp256k1PrivateKey(hex), 'INVALID_PRIVATE_KEY', /privateKey/);
      expect(err.message).not.toContain(hex);
    });

    it('accepts 1 and n - 1', () => {
      expect(parseSecp256k1PrivateKey(bigToBytes32(1n))).toEqual(bigToBytes32(1n));
      expect(parseSecp256k1PrivateKey(bytesToHex(bigToBytes32(SECP256K1_N - 1n)))).toEqual(bigToBytes32(SECP256K1_N - 1n));
    });
  });

  describe('ECDSA over SHA-256', () => {
    // Widely published RFC 6979 secp256k1 vector (bitcointalk topic 285142; bitcoinjs-lib fixtures):
    // d = 1, m = "Satoshi Nakamoto"; s is the low-S form, its high-S twin is n - s.
    const satoshiR = '934b1ea10a4b3c1757e2b0c017d0b6143ce3c9a7e6a4a49860d7a6ab210ee3d8';
    const satoshiLowS = '2442ce9d2b916064108014783e923ec36b49743e2ffa1c4496f01a512aafd9e5';
    const satoshiHighS = 'dbbd3162d46e9f9bef7feb87c16dc13b4f6568a87f4e83f728e2443ba586675c';
    const one = bigToBytes32(1n);
    const satoshi = utf8('Satoshi Nakamoto');

    it('is deterministic RFC 6979 with low-S (published vector)', () => {
      expect(bytesToHex(secp256k1SignMessage(satoshi, one))).toBe(satoshiR + satoshiLowS);
      expect(BigInt(`0x${satoshiLowS}`) + BigInt(`0x${satoshiHighS}`)).toBe(SECP256K1_N);
    });

    it('verifies the low-S signature and rejects its high-S twin', () => {
      const pub = secp256k1PublicKeyFromPrivate(one);
      expect(secp256k1VerifyMessage(hexToBytes(satoshiR + satoshiLowS), satoshi, pub)).toBe(true);
      expect(secp256k1VerifyMessage(hexToBytes(satoshiR + satoshiHighS), satoshi, pub)).toBe(false);
    });

    it.each(seeded)('signs and verifies with %s; always low-S', (_, v) => {
      const sk = hexToBytes(v.seed ?? '');
      const pub = secp256k1PublicKeyFromPrivate(sk);
      const msg = utf8(`message for ${v.seed ?? ''}`);
      const sig = secp256k1SignMessage(msg, sk);
      expect(sig).toHaveLength(64);
      expect(secp256k1SignMessage(msg, sk)).toEqual(sig);
      expect(BigInt(`0x${bytesToHex(sig.slice(32))}`) <= SECP256K1_N / 2n).toBe(true);
      expect(secp256k1VerifyMessage(sig, msg, pub)).toBe(true);
      expect(secp256k1VerifyMessage(sig, msg, secp256k1.getPublicKey(sk, false))).toBe(true);
      expect(secp256k1VerifyMessage(sig, utf8('tampered'), pub)).toBe(false);
    });

    it.each([
      ['a short signature', (s: Uint8Array) => s.slice(0, 63)],
      ['a DER-length signature', () => new Uint8Array(70)],
      ['r = 0', (s: Uint8Array) => Uint8Array.from([...new Uint8Array(32), ...s.slice(32)])],
      ['s = 0', (s: Uint8Array) => Uint8Array.from([...s.slice(0, 32), ...new Uint8Array(32)])],
      ['r = n', (s: Uint8Array) => Uint8Array.from([...bigToBytes32(SECP256K1_N), ...s.slice(32)])],
      ['non-bytes', () => 'sig' as unknown as Uint8Array],
    ])('returns false (never throws) for %s', (_, mutate) => {
      const sk = hexToBytes(seeded[0]![1].seed ?? '');
      const msg = utf8('m');
      const sig = mutate(secp256k1SignMessage(msg, sk));
      expect(secp256k1VerifyMessage(sig, msg, secp256k1PublicKeyFromPrivate(sk))).toBe(false);
    });

    it('returns false for a garbage public key', () => {
      const sk = hexToBytes(seeded[0]![1].seed ?? '');
      const sig = secp256k1SignMessage(utf8('m'), sk);
      expect(secp256k1VerifyMessage(sig, utf8('m'), new Uint8Array(33))).toBe(false);
      expect(secp256k1VerifyMessage(sig, utf8('m'), new Uint8Array(3))).toBe(false);
    });

    it('refuses to sign with an invalid key', () => {
      expectAppError(() => secp256k1SignMessage(utf8('m'), new Uint8Array(32)), 'INVALID_PRIVATE_KEY');
    });
  });
});

describe('X25519', () => {
  it.each(edVectors)('%s: keyAgreement key pair is derived from the Ed25519 key', (_, v) => {
    const seed = hexToBytes(v.seed);
    const ka = v.keyAgreementKeyPair;
    const expectedPub = ka.publicKeyBase58 ? base58btcDecode(ka.publicKeyBase58) : base64UrlToBytes(ka.publicKeyJwk?.x ?? '');
    const expectedSecret = ka.privateKeyBase58
      ? base58btcDecode(ka.privateKeyBase58)
      : base64UrlToBytes(ka.privateKeyJwk?.d ?? '');
    const secret = x25519SecretKeyFromEd25519Seed(seed);
    expect(secret).toEqual(expectedSecret);
    expect(x25519PublicKeyFromEd25519(edPublic(v))).toEqual(expectedPub);
    expect(x25519PublicKeyFromSecret(secret)).toEqual(expectedPub);
  });

  it('agrees on a shared secret between two derived key pairs', () => {
    const [a, b] = [edVectors[0]![1], edVectors[1]![1]];
    const skA = x25519SecretKeyFromEd25519Seed(hexToBytes(a.seed));
    const skB = x25519SecretKeyFromEd25519Seed(hexToBytes(b.seed));
    const ab = x25519SharedSecret(skA, x25519PublicKeyFromEd25519(edPublic(b)));
    const ba = x25519SharedSecret(skB, x25519PublicKeyFromEd25519(edPublic(a)));
    expect(ab).toHaveLength(32);
    expect(ab).toEqual(ba);
  });

  it('refuses low-order peer keys (all-zero shared secret)', () => {
    const sk = x25519SecretKeyFromEd25519Seed(hexToBytes(edVectors[0]![1].seed));
    expectAppError(() => x25519SharedSecret(sk, new Uint8Array(32)), 'INVALID_PUBLIC_KEY', /low-order/);
    const one = new Uint8Array(32);
    one[0] = 1;
    expectAppError(() => x25519SharedSecret(sk, one), 'INVALID_PUBLIC_KEY', /low-order/);
  });

  it('validates lengths', () => {
    expectAppError(() => parseX25519PublicKey(new Uint8Array(31)), 'INVALID_PUBLIC_KEY');
    expectAppError(() => x25519SharedSecret(new Uint8Array(31), new Uint8Array(32)), 'INVALID_PRIVATE_KEY');
    expectAppError(() => x25519SecretKeyFromEd25519Seed(new Uint8Array(64)), 'INVALID_PRIVATE_KEY');
    expectAppError(() => x25519PublicKeyFromSecret(new Uint8Array(1)), 'INVALID_PRIVATE_KEY');
    expectAppError(() => x25519PublicKeyFromEd25519(new Uint8Array(32)), 'INVALID_PUBLIC_KEY');
  });

  it('matches noble on a fresh Ed25519 key', () => {
    const { publicKey } = generateEd25519Keypair();
    expect(x25519PublicKeyFromEd25519(publicKey)).toEqual(ed25519.utils.toMontgomery(publicKey));
  });
});

describe('NIST P-256 / P-384 public keys', () => {
  const jwkVectors = nistVectors.filter(
    ([, v]) => v.verificationMethod.publicKeyJwk?.crv === 'P-256' || v.verificationMethod.publicKeyJwk?.crv === 'P-384',
  );

  it('has P-256 and P-384 JWK vectors', () => {
    expect(jwkVectors.map(([, v]) => v.verificationMethod.publicKeyJwk?.crv).sort()).toEqual([
      'P-256',
      'P-256',
      'P-384',
      'P-384',
    ]);
  });

  it.each(jwkVectors)('%s: the compressed key in the DID matches the published JWK', (did, v) => {
    const jwk = v.verificationMethod.publicKeyJwk!;
    const curve = jwk.crv as NistCurve;
    const { data } = splitMulticodecPrefix(base58btcDecode(did.slice('did:key:z'.length)));
    expect(data).toHaveLength(nistCompressedLength(curve));
    expect(parseNistPublicKey(curve, data, 'publicKey', true)).toEqual(data);
    expect(nistPublicKeyToJwk(curve, data)).toEqual(jwk);
    expect(nistJwkToPublicKey(curve, jwk)).toEqual(data);
  });

  it('accepts the P256Key2021 base58 key and uncompressed input', () => {
    const entry = nistVectors.find(([, v]) => v.verificationMethod.publicKeyBase58 !== undefined);
    const key = base58btcDecode(entry![1].verificationMethod.publicKeyBase58 ?? '');
    const jwk = nistPublicKeyToJwk('P-256', key);
    const uncompressed = Uint8Array.from([4, ...base64UrlToBytes(jwk.x), ...base64UrlToBytes(jwk.y)]);
    expect(parseNistPublicKey('P-256', uncompressed)).toEqual(key);
    expectAppError(() => parseNistPublicKey('P-256', uncompressed, 'publicKey', true), 'INVALID_PUBLIC_KEY', /compressed/);
  });

  it.each([
    ['P-256', 'wrong length', new Uint8Array(34)],
    ['P-384', 'P-256 length', new Uint8Array(33)],
    ['P-256', 'prefix 0x05', Uint8Array.from([5, ...new Uint8Array(32).fill(1)])],
    ['P-256', 'x >= p', Uint8Array.from([2, ...new Uint8Array(32).fill(0xff)])],
  ] as [NistCurve, string, Uint8Array][])('%s rejects %s with INVALID_PUBLIC_KEY', (curve, _, bytes) => {
    expectAppError(() => parseNistPublicKey(curve, bytes), 'INVALID_PUBLIC_KEY');
  });

  it('rejects JWKs on the wrong curve or with bad coordinates', () => {
    const [, v] = jwkVectors[0]!;
    const jwk = v.verificationMethod.publicKeyJwk!;
    expectAppError(() => nistJwkToPublicKey('P-384', jwk), 'INVALID_PUBLIC_KEY');
    expectAppError(() => nistJwkToPublicKey('P-256', { ...jwk, y: jwk.x }), 'INVALID_PUBLIC_KEY');
    expectAppError(() => nistJwkToPublicKey('P-256', { ...jwk, x: 'AA' }), 'INVALID_PUBLIC_KEY');
    expectAppError(() => nistJwkToPublicKey('P-256', null), 'INVALID_PUBLIC_KEY');
  });

  it('rejects an unknown curve name', () => {
    expectAppError(() => parseNistPublicKey('P-521' as NistCurve, new Uint8Array(67)), 'INVALID_INPUT');
  });
});
