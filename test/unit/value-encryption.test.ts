import { createCipheriv } from 'node:crypto';
import { x25519 } from '@noble/curves/ed25519.js';
import { hkdf } from '@noble/hashes/hkdf.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { base64ToBytes, bytesToBase64 } from '../../src/domain/encoding';
import { generateEd25519Keypair, x25519PublicKeyFromEd25519 } from '../../src/domain/keys';
import {
  decryptSubject,
  decryptValue,
  encryptSubject,
  encryptValue,
  MAX_PLAINTEXT_BYTES,
  VALUE_ENCRYPTION_INFO,
} from '../../src/domain/encryption';
import { expectAppError } from '../support/app-error';

/** Deterministic bytes 1, 2, 3, ... so a test can rebuild the ciphertext independently. */
function counterRandom(): (n: number) => Uint8Array {
  let next = 1;
  return (n) => Uint8Array.from({ length: n }, () => next++ & 0xff);
}

const holder = generateEd25519Keypair(counterRandom());
const other = generateEd25519Keypair();
const ctx = { attribute: 'name', credentialId: 'Passport:1:7f1c6f2e-4b0a-4e2b-9d57-3c8a2b9b1a11' };

describe('encryptValue / decryptValue', () => {
  it('round-trips text, including empty and non-ASCII text', () => {
    for (const text of ['Ada Lovelace', '', 'Ł😀 — ü', 'x'.repeat(1000)]) {
      const ct = encryptValue(text, holder.publicKey, ctx);
      expect(decryptValue(ct, holder.privateKey, ctx)).toBe(text);
    }
  });

  it('has the documented layout: version | ephemeral | nonce | ciphertext | tag', () => {
    const text = 'hello';
    const bytes = base64ToBytes(encryptValue(text, holder.publicKey, ctx));
    expect(bytes.length).toBe(1 + 32 + 12 + text.length + 16);
    expect(bytes[0]).toBe(1);
  });

  it('matches an independent computation of the construction', () => {
    const ct = encryptValue('hello', holder.publicKey, ctx, { randomBytes: counterRandom() });
    // Rebuild with noble and node:crypto directly from the published recipe.
    const ephSecret = Uint8Array.from({ length: 32 }, (_, i) => i + 1);
    const nonce = Uint8Array.from({ length: 12 }, (_, i) => i + 33);
    const ephPub = x25519.getPublicKey(ephSecret);
    const recipient = x25519PublicKeyFromEd25519(holder.publicKey);
    const shared = x25519.getSharedSecret(ephSecret, recipient);
    const salt = new Uint8Array([...ephPub, ...recipient]);
    const key = hkdf(sha256, shared, salt, new TextEncoder().encode(VALUE_ENCRYPTION_INFO), 32);
    const cipher = createCipheriv('aes-256-gcm', key, nonce);
    cipher.setAAD(Buffer.from(`{"attribute":"name","credentialId":"${ctx.credentialId}"}`));
    const body = Buffer.concat([cipher.update('hello', 'utf8'), cipher.final()]);
    expect(ct).toBe(bytesToBase64(new Uint8Array([1, ...ephPub, ...nonce, ...body, ...cipher.getAuthTag()])));
  });

  it('uses a fresh ephemeral key and nonce each time', () => {
    const a = base64ToBytes(encryptValue('same', holder.publicKey, ctx));
    const b = base64ToBytes(encryptValue('same', holder.publicKey, ctx));
    expect(bytesToBase64(a)).not.toBe(bytesToBase64(b));
    expect(bytesToBase64(a.slice(1, 33))).not.toBe(bytesToBase64(b.slice(1, 33)));
    expect(bytesToBase64(a.slice(33, 45))).not.toBe(bytesToBase64(b.slice(33, 45)));
  });

  it('detects tampering with any byte after the version', () => {
    const bytes = base64ToBytes(encryptValue('secret', holder.publicKey, ctx));
    for (let i = 1; i < bytes.length; i++) {
      for (const mask of [0x01, 0x80]) {
        const t = Uint8Array.from(bytes);
        t[i] = (t[i] as number) ^ mask;
        const decrypt = () => decryptValue(bytesToBase64(t), holder.privateKey, ctx);
        expect(expectAppError(decrypt, 'VERIFICATION_FAILED').message).toBe('ciphertext failed authentication');
      }
    }
  });

  it('refuses an unknown version byte as malformed input', () => {
    const bytes = base64ToBytes(encryptValue('secret', holder.publicKey, ctx));
    for (const version of [0, 2, 0xff]) {
      bytes[0] = version;
      expectAppError(() => decryptValue(bytesToBase64(bytes), holder.privateKey, ctx), 'INVALID_INPUT');
    }
  });

  it('detects truncation and extension', () => {
    const bytes = base64ToBytes(encryptValue('secret', holder.publicKey, ctx));
    expectAppError(() => decryptValue(bytesToBase64(bytes.slice(0, -1)), holder.privateKey, ctx), 'VERIFICATION_FAILED');
    expectAppError(() => decryptValue(bytesToBase64(new Uint8Array([...bytes, 0])), holder.privateKey, ctx), 'VERIFICATION_FAILED');
  });

  it('replaces the ephemeral key by a low-order point -> VERIFICATION_FAILED, not a key error', () => {
    const bytes = base64ToBytes(encryptValue('secret', holder.publicKey, ctx));
    bytes.fill(0, 1, 33);
    expectAppError(() => decryptValue(bytesToBase64(bytes), holder.privateKey, ctx), 'VERIFICATION_FAILED');
  });

  it('fails with the wrong holder key', () => {
    const ct = encryptValue('secret', holder.publicKey, ctx);
    expectAppError(() => decryptValue(ct, other.privateKey, ctx), 'VERIFICATION_FAILED');
  });

  it('fails when moved to another attribute or credential', () => {
    const ct = encryptValue('secret', holder.publicKey, ctx);
    expectAppError(() => decryptValue(ct, holder.privateKey, { ...ctx, attribute: 'surname' }), 'VERIFICATION_FAILED');
    expectAppError(() => decryptValue(ct, holder.privateKey, { ...ctx, credentialId: 'Passport:1:other' }), 'VERIFICATION_FAILED');
  });

  it('binds only attribute and credentialId into the AAD', () => {
    const ct = encryptValue('secret', holder.publicKey, { ...ctx, extra: 'ignored' } as typeof ctx);
    expect(decryptValue(ct, holder.privateKey, ctx)).toBe('secret');
  });

  it.each([['not base64!'], ['AAAA'], ['QUJD'], ['AQID='], [''], [bytesToBase64(new Uint8Array(60))]])(
    'rejects malformed ciphertext %j as INVALID_INPUT',
    (text) => {
      expectAppError(() => decryptValue(text, holder.privateKey, ctx), 'INVALID_INPUT');
    },
  );

  it('rejects bad keys, contexts and plaintexts with the right codes', () => {
    expectAppError(() => encryptValue('x', new Uint8Array(31), ctx), 'INVALID_PUBLIC_KEY');
    expectAppError(() => encryptValue('x', new Uint8Array(32), ctx), 'INVALID_PUBLIC_KEY');
    expectAppError(() => encryptValue('x', holder.publicKey, { attribute: '', credentialId: 'c' }), 'INVALID_INPUT');
    expectAppError(() => encryptValue('x', holder.publicKey, { attribute: 'a', credentialId: '' }), 'INVALID_INPUT');
    expectAppError(() => encryptValue('\ud800', holder.publicKey, ctx), 'INVALID_INPUT');
    expectAppError(() => encryptValue('x'.repeat(MAX_PLAINTEXT_BYTES + 1), holder.publicKey, ctx), 'INVALID_INPUT');
    const ct = encryptValue('x', holder.publicKey, ctx);
    expectAppError(() => decryptValue(ct, new Uint8Array(16), ctx), 'INVALID_PRIVATE_KEY');
  });
});

describe('encryptSubject / decryptSubject', () => {
  const credentialId = 'Passport:1:0b7d6a1e-2f2c-4c55-b4f5-0e6a8a4b1c22';
  const subject = { id: 'did:svcid:testnet:abc;svcid:testnet:fid=0.0.1', name: 'Ada', age: 30, code: '30', dob: '2000-01-01' };

  it('encrypts every value, id included, and restores types exactly', () => {
    const enc = encryptSubject(subject, holder.publicKey, credentialId);
    expect(Object.keys(enc)).toEqual(Object.keys(subject));
    for (const v of Object.values(enc)) expect(() => base64ToBytes(v)).not.toThrow();
    expect(enc.id).not.toContain('did:');
    const dec = decryptSubject(enc, holder.privateKey, credentialId);
    expect(dec).toStrictEqual(subject);
    expect(typeof dec.age).toBe('number');
    expect(typeof dec.code).toBe('string');
  });

  it('encrypts the JSON text of each value', () => {
    const enc = encryptSubject({ a: 30, b: '30' }, holder.publicKey, credentialId);
    expect(decryptValue(enc.a as string, holder.privateKey, { attribute: 'a', credentialId })).toBe('30');
    expect(decryptValue(enc.b as string, holder.privateKey, { attribute: 'b', credentialId })).toBe('"30"');
  });

  it('detects values swapped between attributes, and names the attribute', () => {
    const enc = encryptSubject(subject, holder.publicKey, credentialId);
    const swapped = { ...enc, name: enc.code as string, code: enc.name as string };
    const err = expectAppError(() => decryptSubject(swapped, holder.privateKey, credentialId), 'VERIFICATION_FAILED');
    expect(err.details?.[0]?.field).toBe('name');
    expectAppError(() => decryptSubject(enc, holder.privateKey, 'Passport:1:another'), 'VERIFICATION_FAILED');
  });

  it('rejects values that cannot be encrypted or decrypted', () => {
    expectAppError(() => encryptSubject({ a: true }, holder.publicKey, credentialId), 'INVALID_INPUT');
    expectAppError(() => encryptSubject({ a: Number.NaN }, holder.publicKey, credentialId), 'INVALID_INPUT');
    expectAppError(() => decryptSubject(null, holder.privateKey, credentialId), 'INVALID_INPUT');
    expectAppError(() => decryptSubject({ a: 5 }, holder.privateKey, credentialId), 'INVALID_INPUT');
    const notJson = encryptValue('plain text', holder.publicKey, { attribute: 'a', credentialId });
    expectAppError(() => decryptSubject({ a: notJson }, holder.privateKey, credentialId), 'INVALID_INPUT');
    const boolean = encryptValue('true', holder.publicKey, { attribute: 'a', credentialId });
    expectAppError(() => decryptSubject({ a: boolean }, holder.privateKey, credentialId), 'INVALID_INPUT');
  });
});
