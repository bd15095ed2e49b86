import { addProof, verifyProof } from '../../src/vc/proofs';
import type { AddProofOptions, JsonObject, SigningKeyType } from '../../src/vc/ports';
import { createKeySigner, didKeyIdentity, generateSigningKeyPair } from '../../src/vc/signers/key-signer';
import { createTestDidResolver } from '../support/vc/did-key-resolver';
import { dbSign, dbVerify } from '../support/vc/digitalbazaar';

/**
 * Interop with Digital Bazaar (@digitalbazaar/vc + data-integrity cryptosuites), both directions,
 * every suite, VCDM 1.1 and 2.0, did:key issuers: what we sign, `verifyCredential` accepts; what
 * it signs, verifyProof accepts, bound to the issuer. Each exchange is a child process (ESM).
 */

const CASES: { suite: AddProofOptions['suite']; keyType: SigningKeyType }[] = [
  { suite: 'eddsa-rdfc-2022', keyType: 'Ed25519' },
  { suite: 'eddsa-jcs-2022', keyType: 'Ed25519' },
  { suite: 'ecdsa-rdfc-2019', keyType: 'P-256' },
  { suite: 'ecdsa-rdfc-2019', keyType: 'P-384' },
  { suite: 'Ed25519Signature2020', keyType: 'Ed25519' },
];

const VERSIONS = {
  '1.1': (issuer: string): JsonObject => ({
    '@context': ['https://www.w3.org/2018/credentials/v1'],
    id: 'urn:uuid:3978344f-8596-4c3a-a978-8fcaba3903c5',
    type: ['VerifiableCredential'],
    issuer,
    issuanceDate: '2024-05-01T10:00:00Z',
    credentialSubject: { id: 'did:example:holder' },
  }),
  '2.0': (issuer: string): JsonObject => ({
    '@context': ['https://www.w3.org/ns/credentials/v2'],
    id: 'urn:uuid:3978344f-8596-4c3a-a978-8fcaba3903c5',
    type: ['VerifiableCredential'],
    name: 'Interop badge',
    description: 'Signed by one implementation, verified by the other',
    issuer,
    validFrom: '2024-05-01T10:00:00Z',
    credentialSubject: { id: 'did:example:holder' },
  }),
} as const;

const resolver = createTestDidResolver();
const rows = CASES.flatMap((c) => (['1.1', '2.0'] as const).map((version) => ({ ...c, version })));

describe.each(rows)('$suite ($keyType), VCDM $version', ({ suite, keyType, version }) => {
  it('Credgate signs, @digitalbazaar/vc verifyCredential accepts; a changed claim it rejects', async () => {
    const pair = generateSigningKeyPair(keyType);
    const { did, verificationMethod } = didKeyIdentity(keyType, pair.publicKey);
    const signed = await addProof(VERSIONS[version](did), createKeySigner(pair, verificationMethod), { suite, proofPurpose: 'assertionMethod' });
    const result = await dbVerify(signed);
    expect(result.errors).toEqual([]);
    expect(result.verified).toBe(true);
    const tampered = await dbVerify({ ...signed, credentialSubject: { id: 'did:example:attacker' } });
    expect(tampered.verified).toBe(false);
  });

  it('Digital Bazaar signs, verifyProof accepts bound to the issuer; a changed claim it rejects', async () => {
    const { did, verifiableCredential } = await dbSign({ suite, keyType, credential: VERSIONS[version]('did:example:placeholder') });
    const options = { resolver, expectedProofPurpose: 'assertionMethod' as const, expectedController: did };
    const result = await verifyProof(verifiableCredential, options);
    expect(result.errors).toEqual([]);
    expect(result.verified).toBe(true);
    expect(result.suite).toBe(suite === 'Ed25519Signature2020' ? suite : `DataIntegrityProof/${suite}`);
    const tampered = await verifyProof({ ...verifiableCredential, credentialSubject: { id: 'did:example:attacker' } }, options);
    expect(tampered.errors.map((e) => e.type)).toEqual(['PROOF_VERIFICATION_ERROR']);
  });
});
