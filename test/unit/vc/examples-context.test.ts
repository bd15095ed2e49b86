import { addProof, verifyProof } from '../../../src/vc/proofs';
import type { JsonObject } from '../../../src/vc/ports';
import { createKeySigner, didKeyIdentity, generateSigningKeyPair } from '../../../src/vc/signers/key-signer';
import { createTestDidResolver } from '../../support/vc/did-key-resolver';

/**
 * Credentials from other stacks' tutorials and samples use the VCDM 1.1 examples context, which
 * imports ODRL by URL: both are pinned from their npm packages, so such a credential signs and
 * verifies offline, and a change to one of its example terms still breaks the proof.
 */
const pair = generateSigningKeyPair('Ed25519');
const issuer = didKeyIdentity('Ed25519', pair.publicKey);
const signer = createKeySigner(pair, issuer.verificationMethod);
const resolver = createTestDidResolver();

const alumni = (): JsonObject => ({
  '@context': ['https://www.w3.org/2018/credentials/v1', 'https://www.w3.org/2018/credentials/examples/v1'],
  id: 'http://example.edu/credentials/1872',
  type: ['VerifiableCredential', 'AlumniCredential'],
  issuer: issuer.did,
  issuanceDate: '2026-01-01T19:23:24Z',
  credentialSubject: { id: 'did:example:ebfeb1f712ebc6f1c276e12ec21', alumniOf: 'Example University' },
});

test('a VCDM 1.1 credential under the examples context (which imports ODRL) signs and verifies offline', async () => {
  const signed = await addProof(alumni(), signer, { suite: 'eddsa-rdfc-2022', proofPurpose: 'assertionMethod' });
  const ok = await verifyProof(signed, { resolver, expectedProofPurpose: 'assertionMethod', expectedController: issuer.did });
  expect(ok).toMatchObject({ verified: true, errors: [] });

  const tampered = { ...signed, credentialSubject: { id: 'did:example:ebfeb1f712ebc6f1c276e12ec21', alumniOf: 'Another University' } };
  const bad = await verifyProof(tampered, { resolver, expectedProofPurpose: 'assertionMethod', expectedController: issuer.did });
  expect(bad.verified).toBe(false);
  expect(bad.errors.map((e) => e.type)).toContain('PROOF_VERIFICATION_ERROR');
});

test('an inline context object signs and verifies; remapping its term to another IRI breaks the proof', async () => {
  const credential: JsonObject = {
    ...alumni(),
    '@context': ['https://www.w3.org/2018/credentials/v1', { AlumniCredential: 'https://schema.org/AlumniCredential', alumniOf: 'https://schema.org/alumniOf' }],
  };
  const signed = await addProof(credential, signer, { suite: 'eddsa-rdfc-2022', proofPurpose: 'assertionMethod' });
  const options = { resolver, expectedProofPurpose: 'assertionMethod' as const, expectedController: issuer.did };
  expect(await verifyProof(signed, options)).toMatchObject({ verified: true, errors: [] });

  const contexts = signed['@context'] as unknown[];
  const remapped = { ...signed, '@context': [contexts[0], { AlumniCredential: 'https://schema.org/AlumniCredential', alumniOf: 'https://attacker.example/alumniOf' }, ...contexts.slice(2)] };
  const bad = await verifyProof(remapped, options);
  expect(bad.verified).toBe(false);
});
