import { p256, p384 } from '@noble/curves/nist.js';
import { ed25519 } from '@noble/curves/ed25519.js';
import { AppError } from '../../../src/errors';
import { createKeySigner, didKeyIdentity, generateSigningKeyPair, publicKeyOf, signRaw } from '../../../src/vc/signers/key-signer';

/**
 * The service's signer for VC-API issuer keys: node:crypto signs, an independent implementation
 * (noble) verifies against the public key noble derives from the same private bytes.
 */
const message = new TextEncoder().encode('hashData of a credential');

test.each([
  ['P-256', p256],
  ['P-384', p384],
] as const)('%s: ECDSA signatures in IEEE P1363 form verify with noble under the curve hash; a changed message does not', (keyType, curve) => {
  const pair = generateSigningKeyPair(keyType);
  expect(pair.publicKey).toEqual(curve.getPublicKey(pair.privateKey, true));
  const signature = signRaw(keyType, pair.privateKey, message);
  expect(signature).toHaveLength(keyType === 'P-256' ? 64 : 96);
  expect(curve.verify(signature, message, pair.publicKey, { prehash: true, lowS: false })).toBe(true);
  expect(curve.verify(signature, new TextEncoder().encode('another'), pair.publicKey, { prehash: true, lowS: false })).toBe(false);
});

test('Ed25519: deterministic RFC 8032 signatures, identical to noble', async () => {
  const pair = generateSigningKeyPair('Ed25519');
  expect(publicKeyOf('Ed25519', pair.privateKey)).toEqual(ed25519.getPublicKey(pair.privateKey));
  const { verificationMethod } = didKeyIdentity('Ed25519', pair.publicKey);
  const signer = createKeySigner(pair, verificationMethod);
  expect(await signer.sign(message)).toEqual(ed25519.sign(message, pair.privateKey));
});

test('a private key of the wrong length is INVALID_PRIVATE_KEY, never signed with', () => {
  const pair = generateSigningKeyPair('P-384');
  expect(() => signRaw('P-256', pair.privateKey, message)).toThrow(AppError);
  expect(() => signRaw('P-384', pair.privateKey.subarray(1), message)).toThrow(/48 bytes/);
});

test('did:key identities name the key by its multibase fingerprint', () => {
  for (const keyType of ['Ed25519', 'P-256', 'P-384'] as const) {
    const { did, verificationMethod } = didKeyIdentity(keyType, generateSigningKeyPair(keyType).publicKey);
    expect(verificationMethod).toBe(`${did}#${did.slice('did:key:'.length)}`);
    expect(did).toMatch({ Ed25519: /^did:key:z6Mk/, 'P-256': /^did:key:zDn/, 'P-384': /^did:key:z82/ }[keyType]);
  }
});
