import { p256, p384 } from '@noble/curves/nist.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import type { DidDocument } from '../../../src/domain/dids/did-document.types';
import { base58btcDecode, base64UrlToBytes, splitMulticodecPrefix } from '../../../src/domain/encoding';
import { AppError } from '../../../src/errors';
import { createDidResolver, serviceDidLookup } from '../../../src/vc/resolver';
import { didKeyIdentity, generateSigningKeyPair } from '../../../src/vc/signers/key-signer';
import { readSharedJson } from '../../support/shared';
import { rejection } from '../../support/app-error';

interface Jwk { kty: string; crv: string; x: string; y?: string }
interface Vector {
  didDocument: DidDocument;
}

/** The vector's first verification method (its key as publicKeyBase58 or publicKeyJwk). */
const vectorMethod = (v: Vector) => v.didDocument.verificationMethod![0]!;

/** The vector key's bytes: base58 as given, an OKP JWK's x, or an EC JWK as an uncompressed point. */
function vectorKey(v: Vector): Uint8Array {
  const vm = vectorMethod(v);
  if (vm.publicKeyBase58 !== undefined) return base58btcDecode(vm.publicKeyBase58, 'key');
  const jwk = vm.publicKeyJwk as Jwk;
  if (jwk.kty === 'OKP') return base64UrlToBytes(jwk.x, 'x');
  return Uint8Array.from([4, ...base64UrlToBytes(jwk.x, 'x'), ...base64UrlToBytes(jwk.y!, 'y')]);
}

const resolver = createDidResolver({ didWeb: false });

/** The raw key a Multikey's publicKeyMultibase carries (multicodec prefix removed). */
function multikeyBytes(publicKeyMultibase: string): Uint8Array {
  expect(publicKeyMultibase.startsWith('z')).toBe(true);
  return splitMulticodecPrefix(base58btcDecode(publicKeyMultibase.slice(1), 'key'), 'key').data;
}

function expectMultikeyDocument(doc: DidDocument, did: string): Uint8Array {
  const fingerprint = did.slice('did:key:'.length);
  const vm = `${did}#${fingerprint}`;
  expect(doc['@context']).toEqual(['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/multikey/v1']);
  expect(doc.id).toBe(did);
  expect(doc.verificationMethod).toEqual([{ id: vm, type: 'Multikey', controller: did, publicKeyMultibase: fingerprint }]);
  for (const rel of ['authentication', 'assertionMethod', 'capabilityDelegation', 'capabilityInvocation'] as const) expect(doc[rel]).toEqual([vm]);
  return multikeyBytes(fingerprint);
}

describe('did:key (published vectors, w3c-ccg/did-method-key)', () => {
  test('Ed25519: the Multikey document carries the vector key', async () => {
    const vectors = readSharedJson<Record<string, Vector>>('vectors', 'did-key', 'ed25519-x25519.json');
    expect(Object.keys(vectors).length).toBeGreaterThanOrEqual(5);
    for (const [did, v] of Object.entries(vectors)) {
      const { didDocument, method } = await resolver.resolve(did);
      expect(method).toBe('key');
      const key = expectMultikeyDocument(didDocument, did);
      expect(Buffer.from(key)).toEqual(Buffer.from(vectorKey(v)));
    }
  });

  test('secp256k1: the Multikey document carries the vector key', async () => {
    const vectors = readSharedJson<Record<string, Vector>>('vectors', 'did-key', 'secp256k1.json');
    for (const [did, v] of Object.entries(vectors)) {
      const { didDocument } = await resolver.resolve(did);
      const key = expectMultikeyDocument(didDocument, did);
      const expected = vectorKey(v);
      expect(Buffer.from(secp256k1.Point.fromBytes(key).toBytes(true))).toEqual(Buffer.from(secp256k1.Point.fromBytes(expected).toBytes(true)));
    }
  });

  test('P-256 and P-384: the compressed Multikey is the vector JWK point; P-521 is refused as unsupported', async () => {
    const vectors = readSharedJson<Record<string, Vector>>('vectors', 'did-key', 'nist-curves.json');
    let nist = 0;
    for (const [did, v] of Object.entries(vectors)) {
      const vm = vectorMethod(v);
      if (vm.publicKeyBase58 !== undefined) {
        // P256Key2021 form: the same compressed point, base58.
        const { didDocument } = await resolver.resolve(did);
        expect(Buffer.from(expectMultikeyDocument(didDocument, did))).toEqual(Buffer.from(base58btcDecode(vm.publicKeyBase58, 'key')));
        nist++;
        continue;
      }
      const jwk = vm.publicKeyJwk as Jwk;
      if (jwk.crv !== 'P-256' && jwk.crv !== 'P-384') {
        const e = await rejection(resolver.resolve(did));
        expect(e.code).toBe('INVALID_DID');
        expect(e.message).toMatch(/p521-pub/);
        continue;
      }
      nist++;
      const { didDocument } = await resolver.resolve(did);
      const key = expectMultikeyDocument(didDocument, did);
      const curve = jwk.crv === 'P-256' ? p256 : p384;
      const uncompressed = curve.Point.fromBytes(key).toBytes(false);
      const half = (uncompressed.length - 1) / 2;
      expect(Buffer.from(uncompressed.subarray(1, 1 + half)).toString('base64url')).toBe(jwk.x);
      expect(Buffer.from(uncompressed.subarray(1 + half)).toString('base64url')).toBe(jwk.y);
      expect(Buffer.from(base64UrlToBytes(jwk.x, 'x')).length).toBe(half);
    }
    expect(nist).toBe(5);
  });

  test('documents equal those of an independent implementation (Digital Bazaar did-method-key)', async () => {
    const theirs = readSharedJson<Record<string, DidDocument>>('vc', 'did-key-multikey-documents.json');
    expect(Object.keys(theirs)).toHaveLength(6);
    for (const [did, doc] of Object.entries(theirs)) {
      expect((await resolver.resolve(did)).didDocument).toEqual(doc);
    }
  });

  test('keys made by the signer resolve to their own public key (Ed25519, P-256, P-384)', async () => {
    for (const keyType of ['Ed25519', 'P-256', 'P-384'] as const) {
      const pair = generateSigningKeyPair(keyType);
      const { did, verificationMethod } = didKeyIdentity(keyType, pair.publicKey);
      const { method, controllerDocument } = await resolver.dereferenceMethod(verificationMethod);
      expect(method.id).toBe(verificationMethod);
      expect(Buffer.from(multikeyBytes(method.publicKeyMultibase!))).toEqual(Buffer.from(pair.publicKey));
      expect(controllerDocument.id).toBe(did);
    }
  });
});

describe('dereferenceMethod', () => {
  const did = 'did:key:z6MkiTBz1ymuepAQ4HEHYSF1H8quG5GLVVQR3djdX3mDooWp';
  const vm = `${did}#z6MkiTBz1ymuepAQ4HEHYSF1H8quG5GLVVQR3djdX3mDooWp`;

  test('a bare did:key names its one method', async () => {
    const bare = await resolver.dereferenceMethod(did);
    expect(bare.method.id).toBe(vm);
    expect(bare.controllerDocument.assertionMethod).toEqual([vm]);
    expect((await resolver.dereferenceMethod(vm)).method).toEqual(bare.method);
  });

  test('a fragment that is not in the document is DID_NOT_FOUND', async () => {
    const e = await rejection(resolver.dereferenceMethod(`${did}#z6MkjchhfUsD6mmvni8mCdXHw216Xrm9bQe2mBH1P5RDjVJG`));
    expect(e.code).toBe('DID_NOT_FOUND');
  });

  test('malformed references are INVALID_DID', async () => {
    for (const bad of [`${did}#`, 'did:key:zNotBase58!#x', 'not a did', `${did}/path#x`, 'did:example:abc']) {
      expect((await rejection(resolver.dereferenceMethod(bad))).code).toBe('INVALID_DID');
    }
  });
});

describe('resolve: errors and methods', () => {
  test('unknown methods are UNSUPPORTED_DID_METHOD, malformed DIDs INVALID_DID', async () => {
    expect((await rejection(resolver.resolve('did:example:123456789abcdefghi'))).code).toBe('UNSUPPORTED_DID_METHOD');
    expect((await rejection(resolver.resolve('did:web:example.com'))).code).toBe('UNSUPPORTED_DID_METHOD');
    for (const bad of ['', 'did:', 'did:key:', 'DID:key:z6Mk', 'did:key:z6Mk#frag', 'x'.repeat(5000), 'did:key:z6MkiTBz1ymuepAQ4HEHYSF1H8quG5GLVVQR3djdX3mDooWq']) {
      expect((await rejection(resolver.resolve(bad))).code).toBe('INVALID_DID');
    }
    expect((await rejection(resolver.resolve(42 as unknown as string))).code).toBe('INVALID_DID');
  });

  test("the service's own method is answered by the lookup the composition root gives", async () => {
    const own = 'did:credgate:local:5fY8sQmS2kqV1bWkR3mXn9Tq';
    const doc: DidDocument = {
      '@context': ['https://www.w3.org/ns/did/v1'],
      id: own,
      verificationMethod: [{ id: `${own}#keys-1`, type: 'Ed25519VerificationKey2018', controller: own, publicKeyBase58: '4zvwRjXUKGfvwnParsHAS3HuSVzV5cA4McphgmoCtajS' }],
      assertionMethod: [`${own}#keys-1`],
    };
    const asked: string[] = [];
    const records = {
      resolveDocument: async (d: string): Promise<DidDocument> => {
        asked.push(d);
        if (d === own) return doc;
        throw new AppError('DID_NOT_FOUND', 'DID not found');
      },
    };
    const withService = createDidResolver({ didWeb: false, serviceDids: serviceDidLookup(records, 'credgate') });
    expect(await withService.resolve(own)).toEqual({ didDocument: doc, method: 'service' });
    expect((await withService.dereferenceMethod(`${own}#keys-1`)).method.publicKeyBase58).toBe('4zvwRjXUKGfvwnParsHAS3HuSVzV5cA4McphgmoCtajS');
    expect((await rejection(withService.resolve('did:credgate:local:5fY8sQmS2kqV1bWkR3mXn9Tz'))).code).toBe('DID_NOT_FOUND');
    // Not cached: the records are asked each time (a deactivation shows at once).
    await withService.resolve(own);
    expect(asked.filter((d) => d === own)).toHaveLength(3);
    expect((await rejection(withService.resolve('did:other:local:5fY8sQmS2kqV1bWkR3mXn9Tq'))).code).toBe('UNSUPPORTED_DID_METHOD');
  });
});
