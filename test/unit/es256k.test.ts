import { AppError } from '../../src/errors';
import { base64UrlToBytes, bytesToBase64Url, bytesToHex, hexToBytes } from '../../src/domain/encoding';
import {
  jwkToSecp256k1PrivateKey,
  jwkToSecp256k1PublicKey,
  secp256k1PublicKeyFromPrivate,
  secp256k1PublicKeyToJwk,
  signEs256kJws,
  verifyEs256kJws,
  type Secp256k1PrivateJwk,
  type Secp256k1PublicJwk,
} from '../../src/domain/keys';
import { readSharedJson } from '../support/shared';
import { expectAppError } from '../support/app-error';

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
const fromUtf8 = (b: Uint8Array): string => new TextDecoder().decode(b);
const b64urlJson = (v: unknown): string => bytesToBase64Url(utf8(JSON.stringify(v)));
const read = <T>(file: string): T => readSharedJson<T>('vectors', 'es256k', file);

const josePrivate = read<Secp256k1PrivateJwk>('jose.privateKeyJwk.json');
const josePublic: Secp256k1PublicJwk = { kty: josePrivate.kty, crv: josePrivate.crv, x: josePrivate.x, y: josePrivate.y };
const msPublic = read<Secp256k1PublicJwk>('ms.publicKeyJwk.json');
const complexPayload = read<unknown>('complex-object-payload.json');
const simplePayload = read<{ payload: string }>('simple-string-payload.json');

const vectors: [string, string, Secp256k1PublicJwk, (payload: Uint8Array) => void][] = [
  ['jose.simple-string-signed.json', read<{ jws: string }>('jose.simple-string-signed.json').jws, josePublic,
    (p) => expect(fromUtf8(p)).toBe(simplePayload.payload)],
  ['jose.complex-object-signed.json', read<{ jws: string }>('jose.complex-object-signed.json').jws, josePublic,
    (p) => expect(JSON.parse(fromUtf8(p))).toEqual(complexPayload)],
  ['ms.complex-object-signed.json', read<{ jws: string }>('ms.complex-object-signed.json').jws, msPublic,
    (p) => expect(JSON.parse(fromUtf8(p))).toEqual(complexPayload)],
];

function sParts(jws: string): { head: string; r: Uint8Array; s: bigint } {
  const i = jws.lastIndexOf('.');
  const sig = base64UrlToBytes(jws.slice(i + 1));
  return { head: jws.slice(0, i), r: sig.slice(0, 32), s: BigInt(`0x${bytesToHex(sig.slice(32))}`) };
}

function withS(jws: string, s: bigint): string {
  const { head, r } = sParts(jws);
  const sBytes = hexToBytes(s.toString(16).padStart(64, '0'));
  return `${head}.${bytesToBase64Url(Uint8Array.from([...r, ...sBytes]))}`;
}

describe('verifyEs256kJws against published vectors', () => {
  it.each(vectors)('%s verifies and yields the published payload', (_, jws, jwk, checkPayload) => {
    const result = verifyEs256kJws(jws, jwk);
    expect(result.valid).toBe(true);
    expect(result.header?.alg).toBe('ES256K');
    checkPayload(result.payload ?? new Uint8Array());
  });

  it('carries the header members (the Microsoft vector has a did:ion kid)', () => {
    const result = verifyEs256kJws(vectors[2]![1], msPublic);
    expect(String(result.header?.kid)).toMatch(/^did:ion:/);
  });

  it('accepts high-S: the Microsoft vector is high-S, and so is the malleated jose one', () => {
    expect(sParts(vectors[2]![1]).s > N / 2n).toBe(true);
    const jose = vectors[0]![1];
    const { s } = sParts(jose);
    expect(s <= N / 2n).toBe(true);
    expect(verifyEs256kJws(withS(jose, N - s), josePublic).valid).toBe(true);
  });

  it.each(vectors)('%s fails with a tampered payload', (_, jws, jwk) => {
    const [h, p, s] = jws.split('.') as [string, string, string];
    const payload = base64UrlToBytes(p);
    payload[0] = (payload[0] ?? 0) ^ 0x01;
    expect(verifyEs256kJws(`${h}.${bytesToBase64Url(payload)}.${s}`, jwk)).toEqual({ valid: false });
  });

  it.each(vectors)('%s fails with a tampered signature', (_, jws, jwk) => {
    const [h, p, s] = jws.split('.') as [string, string, string];
    for (const index of [0, 31, 32, 63]) {
      const sig = base64UrlToBytes(s);
      sig[index] = (sig[index] ?? 0) ^ 0x80;
      expect(verifyEs256kJws(`${h}.${p}.${bytesToBase64Url(sig)}`, jwk).valid).toBe(false);
    }
  });

  it.each(vectors)('%s fails with the other key', (_, jws, jwk) => {
    expect(verifyEs256kJws(jws, jwk === msPublic ? josePublic : msPublic).valid).toBe(false);
  });

  it('fails when the header is swapped for another alg (signature covers the header)', () => {
    const [, p, s] = vectors[0]![1].split('.') as [string, string, string];
    for (const alg of ['ES256', 'none', 'HS256', 'es256k']) {
      expect(verifyEs256kJws(`${b64urlJson({ alg })}.${p}.${s}`, josePublic).valid).toBe(false);
    }
  });
});

describe('verifyEs256kJws rejects malformed input without throwing', () => {
  const good = signEs256kJws('hello', josePrivate);
  const [h, p, s] = good.split('.') as [string, string, string];

  it.each([
    ['two segments', `${h}.${p}`],
    ['four segments', `${good}.x`],
    ['empty string', ''],
    ['padded signature', `${h}.${p}.${s}=`],
    ['standard-alphabet character in signature', `${h}.${p}.${s.slice(0, -1)}+`],
    ['signature of 65 bytes', `${h}.${p}.${bytesToBase64Url(new Uint8Array(65))}`],
    ['DER signature length', `${h}.${p}.${bytesToBase64Url(new Uint8Array(71))}`],
    ['header not JSON', `${bytesToBase64Url(utf8('{alg'))}.${p}.${s}`],
    ['header an array', `${b64urlJson(['ES256K'])}.${p}.${s}`],
    ['header without alg', `${b64urlJson({ typ: 'JWT' })}.${p}.${s}`],
    ['payload with whitespace', `${h}.${p} .${s}`],
    ['non-string', 42 as unknown as string],
  ])('%s', (_, jws) => {
    expect(verifyEs256kJws(jws, josePublic)).toEqual({ valid: false });
  });

  it('refuses crit and unencoded-payload headers even when correctly signed', () => {
    const crit = signEs256kJws('hello', josePrivate, { crit: ['exp'], exp: 1 });
    const b64 = signEs256kJws('hello', josePrivate, { b64: false, crit: ['b64'] });
    const b64NoCrit = signEs256kJws('hello', josePrivate, { b64: false });
    expect(verifyEs256kJws(crit, josePublic).valid).toBe(false);
    expect(verifyEs256kJws(b64, josePublic).valid).toBe(false);
    expect(verifyEs256kJws(b64NoCrit, josePublic).valid).toBe(false);
  });

  it('throws INVALID_PUBLIC_KEY for an invalid JWK (configuration error, not untrusted input)', () => {
    expectAppError(() => verifyEs256kJws(good, { ...josePublic, crv: 'P-256' as 'secp256k1' }), 'INVALID_PUBLIC_KEY');
  });
});

describe('signEs256kJws', () => {
  it('round-trips deterministically with low-S and header {alg: ES256K}', () => {
    const jws = signEs256kJws('hello', josePrivate);
    expect(signEs256kJws(utf8('hello'), josePrivate)).toBe(jws);
    expect(jws.split('.')[0]).toBe('eyJhbGciOiJFUzI1NksifQ');
    expect(jws.split('.')[1]).toBe('aGVsbG8');
    expect(sParts(jws).s <= N / 2n).toBe(true);
    const result = verifyEs256kJws(jws, josePublic);
    expect(result.valid).toBe(true);
    expect(result.header).toEqual({ alg: 'ES256K' });
    expect(fromUtf8(result.payload!)).toBe('hello');
  });

  it('signs the published complex payload so it verifies', () => {
    const jws = signEs256kJws(JSON.stringify(complexPayload), josePrivate, { kid: 'did:example:123#key-1', typ: 'JWT' });
    const result = verifyEs256kJws(jws, josePublic);
    expect(result.valid).toBe(true);
    expect(result.header).toEqual({ alg: 'ES256K', kid: 'did:example:123#key-1', typ: 'JWT' });
    expect(JSON.parse(fromUtf8(result.payload!))).toEqual(complexPayload);
  });

  it('refuses another alg in the extra header', () => {
    expectAppError(() => signEs256kJws('x', josePrivate, { alg: 'ES256' }), 'INVALID_INPUT');
    expect(verifyEs256kJws(signEs256kJws('x', josePrivate, { alg: 'ES256K' }), josePublic).valid).toBe(true);
  });

  it('refuses a private JWK whose x/y belong to another key', () => {
    const spliced = { ...josePrivate, x: msPublic.x, y: msPublic.y };
    const err = expectAppError(() => signEs256kJws('x', spliced), 'INVALID_PRIVATE_KEY', /do not match/);
    expect(err.message).not.toContain(josePrivate.d);
  });

  it.each([
    ['missing d', { ...josePrivate, d: undefined }],
    ['short d', { ...josePrivate, d: 'AAAA' }],
    ['zero d', { ...josePrivate, d: bytesToBase64Url(new Uint8Array(32)) }],
    ['wrong kty', { ...josePrivate, kty: 'OKP' }],
  ])('refuses a private JWK with %s', (_, jwk) => {
    expectAppError(() => signEs256kJws('x', jwk as unknown as Secp256k1PrivateJwk), 'INVALID_PRIVATE_KEY');
  });
});

describe('JWK <-> secp256k1 public key', () => {
  it.each([
    ['jose', josePublic],
    ['ms', msPublic],
  ])('%s JWK round-trips through the compressed key', (_, jwk) => {
    const compressed = jwkToSecp256k1PublicKey(jwk);
    expect(compressed).toHaveLength(33);
    expect(secp256k1PublicKeyToJwk(compressed)).toEqual(jwk);
  });

  it('the jose private JWK d derives its x/y', () => {
    const sk = jwkToSecp256k1PrivateKey(josePrivate);
    expect(secp256k1PublicKeyToJwk(secp256k1PublicKeyFromPrivate(sk))).toEqual(josePublic);
  });

  it.each([
    ['wrong kty', { ...josePublic, kty: 'OKP' }],
    ['wrong crv', { ...josePublic, crv: 'P-256' }],
    ['short x', { ...josePublic, x: 'AAAA' }],
    ['padded x', { ...josePublic, x: `${josePublic.x}=` }],
    ['missing y', { ...josePublic, y: undefined }],
    ['point off the curve', { ...josePublic, y: msPublic.y }],
    ['alg for another algorithm', { ...josePublic, alg: 'ES256' }],
    ['encryption use', { ...josePublic, use: 'enc' }],
    ['not an object', 'jwk'],
    ['null', null],
  ])('rejects %s with INVALID_PUBLIC_KEY', (_, jwk) => {
    expectAppError(() => jwkToSecp256k1PublicKey(jwk), 'INVALID_PUBLIC_KEY');
  });

  it('accepts alg ES256K and use sig', () => {
    expect(jwkToSecp256k1PublicKey({ ...josePublic, alg: 'ES256K', use: 'sig' })).toEqual(jwkToSecp256k1PublicKey(josePublic));
  });
});
