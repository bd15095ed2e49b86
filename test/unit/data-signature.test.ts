import { createPrivateKey, createPublicKey, sign as nodeSign, verify as nodeVerify, type KeyObject } from 'node:crypto';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { AppError } from '../../src/errors';
import { bytesToBase64Url, bytesToHex, hexToBytes } from '../../src/domain/encoding';
import { generateSecp256k1Keypair } from '../../src/domain/keys';
import { dataToSignBytes, signData, verifyData } from '../../src/domain/signatures';
import { expectAppError } from '../support/app-error';

const N = secp256k1.Point.CURVE().n;
const SK = `${'00'.repeat(31)}2a`;
const keypair = generateSecp256k1Keypair(() => hexToBytes(SK));
const skHex = bytesToHex(keypair.privateKey);
const pkHex = bytesToHex(keypair.publicKey);
const pkUncompressedHex = bytesToHex(secp256k1.getPublicKey(keypair.privateKey, false));
const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

/** The same key as a node:crypto (OpenSSL) KeyObject, an implementation independent of noble. */
function nodeKeys(): { priv: KeyObject; pub: KeyObject } {
  const point = secp256k1.getPublicKey(keypair.privateKey, false);
  const jwk = {
    kty: 'EC',
    crv: 'secp256k1',
    x: bytesToBase64Url(point.subarray(1, 33)),
    y: bytesToBase64Url(point.subarray(33)),
  };
  return {
    priv: createPrivateKey({ key: { ...jwk, d: bytesToBase64Url(keypair.privateKey) }, format: 'jwk' }),
    pub: createPublicKey({ key: jwk, format: 'jwk' }),
  };
}

describe('dataToSignBytes', () => {
  it('signs a string as its UTF-8, not JSON-quoted', () => {
    expect(Array.from(dataToSignBytes('hé'))).toEqual(Array.from(utf8('hé')));
  });

  it('signs objects as RFC 8785 canonical JSON', () => {
    expect(new TextDecoder().decode(dataToSignBytes({ b: [1, 'x'], a: { d: null, c: true } }))).toBe(
      '{"a":{"c":true,"d":null},"b":[1,"x"]}',
    );
  });

  it('signs scalars as canonical JSON', () => {
    expect(new TextDecoder().decode(dataToSignBytes(1e21))).toBe('1e+21');
    expect(new TextDecoder().decode(dataToSignBytes(null))).toBe('null');
  });

  it.each([
    ['undefined', undefined],
    ['NaN', Number.NaN],
    ['lone surrogate string', 'a\ud800b'],
    ['function', () => 1],
  ])('rejects %s', (_label, value) => {
    expectAppError(() => dataToSignBytes(value), 'INVALID_INPUT');
  });
});

describe('signData / verifyData', () => {
  it('round-trips a string and an object', () => {
    for (const data of ['hello world', { name: 'Ana', age: 30, tags: ['a', 'b'] }, [1, 2, 3]]) {
      const sig = signData(data, skHex);
      expect(sig).toMatch(/^[0-9a-f]{128}$/);
      expect(verifyData(sig, data, pkHex)).toBe(true);
    }
  });

  it('is deterministic', () => {
    expect(signData({ a: 1 }, skHex)).toBe(signData({ a: 1 }, skHex));
  });

  it('ignores key order and whitespace of objects', () => {
    const sig = signData({ a: 1, b: 2 }, skHex);
    expect(verifyData(sig, JSON.parse('{ "b": 2,  "a": 1 }'), pkHex)).toBe(true);
  });

  it('documents that a string and an object with the same canonical text share a signature', () => {
    expect(signData('{"a":1}', skHex)).toBe(signData({ a: 1 }, skHex));
  });

  it('accepts the uncompressed public key and upper-case hex', () => {
    const sig = signData('x', skHex);
    expect(verifyData(sig.toUpperCase(), 'x', pkUncompressedHex)).toBe(true);
  });

  it('returns false for changed data, a wrong key or a changed signature', () => {
    const sig = signData({ amount: 10 }, skHex);
    expect(verifyData(sig, { amount: 11 }, pkHex)).toBe(false);
    expect(verifyData(sig, { amount: 10, extra: true }, pkHex)).toBe(false);
    const other = bytesToHex(generateSecp256k1Keypair().publicKey);
    expect(verifyData(sig, { amount: 10 }, other)).toBe(false);
    const bytes = hexToBytes(sig);
    for (const i of [0, 31, 32, 63]) {
      const flipped = Uint8Array.from(bytes);
      flipped[i] = (flipped[i] ?? 0) ^ 0x01;
      expect(verifyData(bytesToHex(flipped), { amount: 10 }, pkHex)).toBe(false);
    }
  });

  it('returns false (not throw) for r or s of zero or out of range', () => {
    expect(verifyData('00'.repeat(64), 'x', pkHex)).toBe(false);
    expect(verifyData('ff'.repeat(64), 'x', pkHex)).toBe(false);
  });

  it('rejects the high-S twin of a valid signature', () => {
    const sig = hexToBytes(signData('msg', skHex));
    const s = BigInt(`0x${bytesToHex(sig.subarray(32))}`);
    const highS = (N - s).toString(16).padStart(64, '0');
    expect(verifyData(bytesToHex(sig.subarray(0, 32)) + highS, 'msg', pkHex)).toBe(false);
  });

  it('interoperates with OpenSSL (node:crypto) in both directions', () => {
    const { priv, pub } = nodeKeys();
    const data = { subject: 'did:example:1', n: 1 };
    const ours = hexToBytes(signData(data, skHex));
    expect(nodeVerify('sha256', dataToSignBytes(data), { key: pub, dsaEncoding: 'ieee-p1363' }, ours)).toBe(true);

    const theirs = nodeSign('sha256', utf8('text'), { key: priv, dsaEncoding: 'ieee-p1363' });
    const s = BigInt(`0x${theirs.subarray(32).toString('hex')}`);
    const lowS = s > N / 2n ? N - s : s;
    const normalised = theirs.subarray(0, 32).toString('hex') + lowS.toString(16).padStart(64, '0');
    expect(verifyData(normalised, 'text', pkHex)).toBe(true);
  });

  it('rejects malformed signatures as INVALID_INPUT', () => {
    const sig = signData('x', skHex);
    expectAppError(() => verifyData(sig.slice(2), 'x', pkHex), 'INVALID_INPUT', /64-byte/);
    expectAppError(() => verifyData(`${sig}1b`, 'x', pkHex), 'INVALID_INPUT', /64-byte/);
    expectAppError(() => verifyData(`0x${sig}`, 'x', pkHex), 'INVALID_INPUT');
    expectAppError(() => verifyData('zz'.repeat(64), 'x', pkHex), 'INVALID_INPUT');
  });

  it('rejects malformed public keys as INVALID_PUBLIC_KEY', () => {
    const sig = signData('x', skHex);
    expectAppError(() => verifyData(sig, 'x', pkHex.slice(2)), 'INVALID_PUBLIC_KEY');
    expectAppError(() => verifyData(sig, 'x', `04${'00'.repeat(64)}`), 'INVALID_PUBLIC_KEY');
    expectAppError(() => verifyData(sig, 'x', 'not-hex'), 'INVALID_PUBLIC_KEY');
  });

  it('rejects malformed private keys as INVALID_PRIVATE_KEY', () => {
    expectAppError(() => signData('x', '00'.repeat(32)), 'INVALID_PRIVATE_KEY');
    expectAppError(() => signData('x', skHex.slice(2)), 'INVALID_PRIVATE_KEY');
    expectAppError(() => signData('x', N.toString(16)), 'INVALID_PRIVATE_KEY');
  });
});
