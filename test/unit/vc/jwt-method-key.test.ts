import { issueJwtCredential, verifyJwtCredential } from '../../../src/vc/jwt';
import { prepareCredentialForIssuance } from '../../../src/vc/model';
import { base58btcEncode } from '../../../src/domain/encoding/multibase';
import { didKeyDocument } from '../../../src/domain/dids/did-key';
import type { DidDocument, VerificationMethod } from '../../../src/domain/dids/did-document.types';
import type { SigningKeyType } from '../../../src/vc/ports';
import { unsignedCredential } from '../../support/vc/credentials';
import { createTestDidResolver } from '../../support/vc/jwt-resolver';
import { newDidKeyIssuer, signerAs } from '../../support/vc/jwt-signers';

/**
 * Issuers publish keys as Multikey (publicKeyMultibase), JsonWebKey2020 (publicKeyJwk) or the
 * did:key suite types (publicKeyBase58); a JWT verifies against each, and a method that publishes a
 * private key or an unsupported key is refused. The issuer here is a did:web-like DID whose document
 * a test publishes, so each representation is exercised on its own.
 */
const DID = 'did:web:keys.example';

function documentWith(method: Omit<VerificationMethod, 'id' | 'controller'>): DidDocument {
  const id = `${DID}#key-1`;
  return { '@context': ['https://www.w3.org/ns/did/v1'], id: DID, verificationMethod: [{ ...method, id, controller: DID }], assertionMethod: [id] };
}

async function verifyWith(keyType: SigningKeyType, method: (did: string) => Omit<VerificationMethod, 'id' | 'controller'>) {
  const issuer = newDidKeyIssuer(keyType);
  const credential = prepareCredentialForIssuance(unsignedCredential('2.0'), { issuer: DID, now: new Date('2025-01-01T00:00:00Z') });
  const jwt = await issueJwtCredential(credential, signerAs(issuer, `${DID}#key-1`));
  return verifyJwtCredential(jwt, { resolver: createTestDidResolver({ [DID]: documentWith(method(issuer.did)) }), expectedProofPurpose: 'assertionMethod' });
}

const multikey = (did: string) => ({ type: 'Multikey', publicKeyMultibase: did.slice('did:key:'.length) });
const jwk = (did: string) => ({ type: 'JsonWebKey2020', publicKeyJwk: didKeyDocument(did, { publicKeyFormat: 'publicKeyJwk' }).verificationMethod![0]!.publicKeyJwk! });

describe.each(['Ed25519', 'P-256', 'P-384'] as SigningKeyType[])('%s keys', (keyType) => {
  it('verify through Multikey publicKeyMultibase', async () => {
    expect(await verifyWith(keyType, multikey)).toMatchObject({ verified: true, errors: [] });
  });
  it('verify through JsonWebKey2020 publicKeyJwk', async () => {
    expect(await verifyWith(keyType, jwk)).toMatchObject({ verified: true, errors: [] });
  });
});

it('Ed25519VerificationKey2018 publicKeyBase58 verifies', async () => {
  const result = await verifyWith('Ed25519', (did) => didKeyDocument(did).verificationMethod![0]!);
  expect(result).toMatchObject({ verified: true, errors: [] });
});

it.each<[string, (did: string) => Omit<VerificationMethod, 'id' | 'controller'>, RegExp]>([
  ['a JWK with a private member', (did) => ({ type: 'JsonWebKey2020', publicKeyJwk: { ...jwk(did).publicKeyJwk, d: 'AAAA' } as never }), /publishes a private key/],
  ['a secp256k1 JWK', () => ({ type: 'JsonWebKey2020', publicKeyJwk: { kty: 'EC', crv: 'secp256k1', x: 'AA', y: 'AA' } }), /not Ed25519, P-256 or P-384/],
  ['an X25519 Multikey', () => ({ type: 'Multikey', publicKeyMultibase: `z${base58btcEncode(new Uint8Array([0xec, 0x01, ...new Uint8Array(32).fill(9)]))}` }), /not Ed25519, P-256 or P-384/],
  ['no key at all', () => ({ type: 'Multikey' }), /publishes no public key/],
  ['a base58 key of an unknown type', () => ({ type: 'RsaVerificationKey2018', publicKeyBase58: '3mJr7AoUXx2Wqd' }), /not supported for JWTs/],
])('a method with %s is refused', async (_label, method, detail) => {
  const result = await verifyWith('Ed25519', method);
  expect(result.verified).toBe(false);
  expect(result.errors).toEqual([expect.objectContaining({ type: 'PROOF_VERIFICATION_ERROR', detail: expect.stringMatching(detail) })]);
});
