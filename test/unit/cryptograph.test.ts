import { deflateRawSync } from 'node:zlib';
import { AppError } from '../../src/errors';
import { canonicalize } from '../../src/domain/canonical';
import { bytesToBase64 } from '../../src/domain/encoding';
import { ed25519PublicKeyFromSeed, generateEd25519Keypair } from '../../src/domain/keys';
import {
  base45DecodeStrict,
  base45Encode,
  BASE45_ALPHABET,
  CRYPTOGRAPH_PREFIX,
  cryptographQrPng,
  decodeCryptograph,
  encodeCryptograph,
  MAX_CRYPTOGRAPH_INFLATED_BYTES,
  QR_ALPHANUMERIC_CAPACITY_M,
  signCompactEdDsaJws,
} from '../../src/domain/cryptograph';
import { readSharedJson } from '../support/shared';
import { expectAppError } from '../support/app-error';

const issuer = generateEd25519Keypair();
const stranger = generateEd25519Keypair();
const KID = 'did:svcid:testnet:z6MkIssuer;svcid:testnet:fid=0.0.42#did-root-key';

/** A Family A credential (spec 2.4); `extra` pads the subject to reach a target size. */
function credential(extra = ''): Record<string, unknown> {
  return {
    '@context': ['https://www.w3.org/2018/credentials/v1'],
    id: 'Passport:1:7f1c6f2e-4b0a-4e2b-9d57-3c8a2b9b1a11',
    type: ['VerifiableCredential', 'Passport'],
    version: 'Passport:1',
    credentialSchema: { id: 'https://credgate.example/schema/Passport', type: 'JsonSchemaValidator2018' },
    issuer: 'did:svcid:testnet:z6MkIssuer;svcid:testnet:fid=0.0.42',
    credentialSubject: [{ id: 'did:svcid:testnet:z6MkHolder;svcid:testnet:fid=0.0.77', name: 'Ada Lovelace', age: '36', extra }],
    issuanceDate: '2026-01-01T00:00:00.000Z',
    expirationDate: '2027-01-01T00:00:00.000Z',
    proof: {
      type: 'Ed25519Signature2018',
      creator: 'did:svcid:testnet:z6MkIssuer;svcid:testnet:fid=0.0.42',
      created: '2026-01-01T00:00:00.000Z',
      proofPurpose: 'assertionMethod',
      vcVerificationMethod: 'did:svcid:testnet:z6MkIssuer;svcid:testnet:fid=0.0.42#did-root-key',
      jws: `eyJhbGciOiJFZERTQSIsImI2NCI6ZmFsc2UsImNyaXQiOlsiYjY0Il19..${'A'.repeat(86)}`,
    },
    biometrics: { face: null, iris: null, finger: null },
    credentialStatus: '',
  };
}

/** Deterministic incompressible text (base64 of a xorshift stream), like encrypted attribute values. */
function noise(length: number): string {
  let x = 0x12345678;
  const bytes = new Uint8Array(Math.ceil((length * 3) / 4));
  for (let i = 0; i < bytes.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    bytes[i] = x & 0xff;
  }
  return bytesToBase64(bytes).slice(0, length);
}

const signer = { seed: issuer.privateKey, kid: KID };

describe('compact EdDSA JWS', () => {
  it('reproduces RFC 8037 Appendix A.4', () => {
    const v = readSharedJson<Record<string, any>>('vectors', 'rfc8037', 'rfc8037-appendix-A.json');
    const seed = Buffer.from(v['A.1_privateKeyJwk'].d as string, 'base64url');
    const jws = signCompactEdDsaJws({}, new TextEncoder().encode(v['A.4_payload_utf8'] as string), new Uint8Array(seed));
    expect(jws).toBe(v['A.4_compactJWS']);
  });
});

describe('base45', () => {
  it('round-trips and matches RFC 9285 examples', () => {
    expect(base45Encode(new TextEncoder().encode('AB'))).toBe('BB8');
    expect(base45Encode(new TextEncoder().encode('Hello!!'))).toBe('%69 VD92EX0');
    expect(Buffer.from(base45DecodeStrict('QED8WEX0') as Uint8Array).toString()).toBe('ietf!');
    const bytes = Uint8Array.from({ length: 257 }, (_, i) => (i * 7) & 0xff);
    expect(base45DecodeStrict(base45Encode(bytes))).toEqual(bytes);
  });

  it('rejects characters outside the alphabet, dangling characters and out-of-range groups', () => {
    for (const bad of ['a', 'BB8a', 'B', 'BB8B', 'GGW', ':::', 'GGWB', '::']) {
      expect(base45DecodeStrict(bad)).toBeUndefined();
    }
    // 'FGW' = 65535 is the largest triple; ':6' = 44 + 6*45 = 314 is too big for a pair.
    expect(base45DecodeStrict('FGW')).toEqual(new Uint8Array([0xff, 0xff]));
    expect(base45DecodeStrict(':6')).toBeUndefined();
  });
});

describe('encodeCryptograph / decodeCryptograph', () => {
  it('round-trips and verifies with the issuer key only', () => {
    const vc = credential();
    const text = encodeCryptograph(vc, signer);
    expect(text.startsWith(CRYPTOGRAPH_PREFIX)).toBe(true);
    expect(/^[0-9A-Z $%*+\-./:]+$/.test(text)).toBe(true);
    const decoded = decodeCryptograph(text);
    expect(decoded.credential).toEqual(vc);
    expect(decoded.kid).toBe(KID);
    expect(decoded.verify(issuer.publicKey)).toBe(true);
    expect(decoded.verify(bytesToBase64(issuer.publicKey))).toBe(true);
    expect(decoded.verify(stranger.publicKey)).toBe(false);
    expect(decoded.verify(new Uint8Array(32))).toBe(false);
    expect(decoded.verify('not base64')).toBe(false);
  });

  it('is deterministic and independent of member order', () => {
    const vc = credential();
    const reordered = JSON.parse(canonicalize(vc)) as object;
    expect(encodeCryptograph(reordered, signer)).toBe(encodeCryptograph(vc, signer));
  });

  it('fails decoding or verification when any character is changed', () => {
    const text = encodeCryptograph(credential(), signer);
    const originalJws = decodeCryptograph(text);
    let rejected = 0;
    let unverified = 0;
    let padding = 0;
    for (let i = CRYPTOGRAPH_PREFIX.length; i < text.length; i++) {
      const current = text[i] as string;
      const replacement = BASE45_ALPHABET[(BASE45_ALPHABET.indexOf(current) + 1) % 45] as string;
      const tampered = text.slice(0, i) + replacement + text.slice(i + 1);
      let decoded;
      try {
        decoded = decodeCryptograph(tampered);
      } catch (e) {
        expect(e).toBeInstanceOf(AppError);
        expect((e as AppError).code).toBe('INVALID_INPUT');
        rejected++;
        continue;
      }
      if (!decoded.verify(issuer.publicKey)) {
        unverified++;
        continue;
      }
      // Only the unused padding bits of the final deflate byte can change without effect; the
      // decoded credential and key id are then exactly the original ones.
      expect(i).toBeGreaterThanOrEqual(text.length - 3);
      expect(decoded.credential).toEqual(originalJws.credential);
      expect(decoded.kid).toBe(originalJws.kid);
      padding++;
    }
    expect(rejected + unverified + padding).toBe(text.length - CRYPTOGRAPH_PREFIX.length);
    expect(padding).toBeLessThanOrEqual(1);
    expect(rejected).toBeGreaterThan(0);
  });

  it('rejects text that is not a cryptograph', () => {
    const text = encodeCryptograph(credential(), signer);
    for (const bad of [
      '',
      'CG1:',
      text.replace('CG1:', 'CG2:'),
      text.slice(4),
      text.toLowerCase(),
      `${text}\n`,
      `${text}A`,
      text.slice(0, -3),
      `CG1:${base45Encode(new TextEncoder().encode('not deflate'))}`,
      42,
    ]) {
      expectAppError(() => decodeCryptograph(bad), 'INVALID_INPUT');
    }
  });

  it('rejects trailing bytes after the deflate stream', () => {
    const inner = deflateRawSync(Buffer.from(signCompactEdDsaJws({ kid: KID }, new TextEncoder().encode('{}'), issuer.privateKey)));
    expect(decodeCryptograph(`CG1:${base45Encode(inner)}`).verify(issuer.publicKey)).toBe(true);
    expectAppError(() => decodeCryptograph(`CG1:${base45Encode(new Uint8Array([...inner, 0]))}`), 'INVALID_INPUT');
  });

  it('rejects a decompression bomb', () => {
    const bomb = deflateRawSync(Buffer.alloc(MAX_CRYPTOGRAPH_INFLATED_BYTES + 1, 0x41), { level: 9 });
    const text = `CG1:${base45Encode(bomb)}`;
    expect(text.length).toBeLessThan(5000);
    expect(decodeCryptograph.bind(null, text)).toThrow(`more than ${MAX_CRYPTOGRAPH_INFLATED_BYTES} bytes`);
  });

  it('rejects JWS payloads and headers that are not ours', () => {
    const wrap = (jws: string) => `CG1:${base45Encode(deflateRawSync(Buffer.from(jws)))}`;
    const utf8 = (s: string) => new TextEncoder().encode(s);
    const b64u = (s: string) => Buffer.from(s).toString('base64url');
    const cases = [
      signCompactEdDsaJws({ kid: KID, typ: 'JWT' }, utf8('{}'), issuer.privateKey),
      signCompactEdDsaJws({}, utf8('{}'), issuer.privateKey),
      signCompactEdDsaJws({ kid: '' }, utf8('{}'), issuer.privateKey),
      signCompactEdDsaJws({ kid: KID }, utf8('{"b":1,"a":2}'), issuer.privateKey),
      signCompactEdDsaJws({ kid: KID }, utf8('{"a":1,"a":1}'), issuer.privateKey),
      signCompactEdDsaJws({ kid: KID }, utf8('[1]'), issuer.privateKey),
      signCompactEdDsaJws({ kid: KID }, utf8('nope'), issuer.privateKey),
      `${b64u('{"alg":"none","kid":"k"}')}.${b64u('{}')}.`,
      `${b64u('{"alg":"EdDSA","kid":"k"}')}.${b64u('{}')}.${b64u('short')}`,
      `${b64u('{"alg":"EdDSA","kid":"k"}')}.${b64u('{}')}`,
    ];
    for (const jws of cases) expectAppError(() => decodeCryptograph(wrap(jws)), 'INVALID_INPUT');
  });

  it('rejects bad credentials and signers', () => {
    expectAppError(() => encodeCryptograph([] as unknown as object, signer), 'INVALID_INPUT');
    expectAppError(() => encodeCryptograph({ a: undefined, b: Number.NaN }, signer), 'INVALID_INPUT');
    expectAppError(() => encodeCryptograph(credential(), { seed: issuer.privateKey, kid: '' }), 'INVALID_INPUT');
    expectAppError(() => encodeCryptograph(credential(), { seed: new Uint8Array(31), kid: KID }), 'INVALID_PRIVATE_KEY');
  });

  it('keeps a ~2 KB credential within QR capacity, even with incompressible encrypted values', () => {
    const vc = credential(noise(2048 - canonicalize(credential()).length));
    const size = canonicalize(vc).length;
    expect(size).toBeGreaterThanOrEqual(2000);
    expect(size).toBeLessThanOrEqual(2100);
    const text = encodeCryptograph(vc, signer);
    expect(text.length).toBeLessThan(4296);
    expect(text.length).toBeLessThanOrEqual(QR_ALPHANUMERIC_CAPACITY_M);
    expect(decodeCryptograph(text).verify(ed25519PublicKeyFromSeed(issuer.privateKey))).toBe(true);
  });
});

describe('cryptographQrPng', () => {
  const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  const widthOf = (png: Buffer) => png.readUInt32BE(16);

  it('renders a PNG with the default scale and margin', async () => {
    const png = await cryptographQrPng(encodeCryptograph({ a: 1 }, signer));
    expect([...png.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
    expect(png.subarray(12, 16).toString('ascii')).toBe('IHDR');
    // An n-module symbol is (n + 2 * 4 margin) * 4 pixels wide; n = 17 + 4 * version.
    expect((widthOf(png) / 4 - 8 - 17) % 4).toBe(0);
  });

  it('grows with the content', async () => {
    // Scale 1 keeps rendering fast; pixel work grows with the square of the scale.
    const small = await cryptographQrPng(encodeCryptograph({ a: 1 }, signer), { scale: 1 });
    const large = await cryptographQrPng(encodeCryptograph(credential(noise(1000)), signer), { scale: 1 });
    expect([...large.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
    expect(widthOf(large)).toBeGreaterThan(widthOf(small));
    expect(large.length).toBeGreaterThan(small.length);
  });

  it('renders the largest text level M holds (version 40) and refuses anything else', async () => {
    const full = `CG1:${'A'.repeat(QR_ALPHANUMERIC_CAPACITY_M - 4)}`;
    const png = await cryptographQrPng(full, { scale: 1, margin: 0 });
    expect([...png.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
    expect(widthOf(png)).toBe(177);
    await expect(cryptographQrPng(`${full}A`, { scale: 1 })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(cryptographQrPng('CG1:lowercase')).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(cryptographQrPng('NOPREFIX')).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(cryptographQrPng('CG1:AB', { scale: 0 })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(cryptographQrPng('CG1:AB', { margin: 1.5 })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });
});
