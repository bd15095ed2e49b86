import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../../../src/errors';
import { addProof, createDataIntegrityProof, suiteForSigning, verifyProof } from '../../../src/vc/proofs';
import type { AddProofOptions, DidResolver, JsonObject, ProofVerification, SigningKeyType } from '../../../src/vc/ports';
import { createKeySigner, didKeyIdentity, generateSigningKeyPair } from '../../../src/vc/signers/key-signer';
import { createTestDidResolver } from '../../support/vc/did-key-resolver';

type Suite = AddProofOptions['suite'];

function issuerKey(keyType: SigningKeyType) {
  const pair = generateSigningKeyPair(keyType);
  const { did, verificationMethod } = didKeyIdentity(keyType, pair.publicKey);
  return { pair, did, verificationMethod, signer: createKeySigner(pair, verificationMethod) };
}

const credential = (issuer: string): JsonObject => ({
  '@context': ['https://www.w3.org/ns/credentials/v2'],
  id: 'urn:uuid:0b8f3a52-7a57-4f7e-9d55-3c3c0d0e7a11',
  type: ['VerifiableCredential'],
  name: 'Employee badge',
  description: 'Works here',
  issuer,
  validFrom: '2024-05-01T10:00:00Z',
  credentialSubject: { id: 'did:example:holder' },
});

const types = (r: ProofVerification): string[] => r.errors.map((e) => e.type);
const proofOf = (doc: JsonObject): JsonObject => doc.proof as JsonObject;
const withProof = (doc: JsonObject, changes: JsonObject): JsonObject => ({ ...doc, proof: { ...proofOf(doc), ...changes } });

const SUITES: { suite: Suite; keyType: SigningKeyType; otherType: SigningKeyType }[] = [
  { suite: 'eddsa-rdfc-2022', keyType: 'Ed25519', otherType: 'P-256' },
  { suite: 'eddsa-jcs-2022', keyType: 'Ed25519', otherType: 'P-256' },
  { suite: 'ecdsa-rdfc-2019', keyType: 'P-256', otherType: 'Ed25519' },
  { suite: 'ecdsa-rdfc-2019', keyType: 'P-384', otherType: 'Ed25519' },
  { suite: 'Ed25519Signature2020', keyType: 'Ed25519', otherType: 'P-384' },
];

describe.each(SUITES)('$suite with $keyType: tampering', ({ suite, keyType, otherType }) => {
  const issuer = issuerKey(keyType);
  const authOnly = issuerKey(keyType);
  // A controller document that lists its key for authentication only, not for issuing.
  const authOnlyDid = 'did:example:auth-only';
  const authOnlyMethod = `${authOnlyDid}#key-1`;
  const resolver: DidResolver = createTestDidResolver([
    {
      '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/multikey/v1'],
      id: authOnlyDid,
      verificationMethod: [{ id: authOnlyMethod, type: 'Multikey', controller: authOnlyDid, publicKeyMultibase: authOnly.did.slice('did:key:'.length) }],
      authentication: [authOnlyMethod],
    },
  ]);
  const options = { resolver, expectedProofPurpose: 'assertionMethod' as const, expectedController: issuer.did };
  const created = '2024-05-01T10:00:00Z';
  let signed: JsonObject;

  beforeAll(async () => {
    signed = await addProof(credential(issuer.did), issuer.signer, { suite, proofPurpose: 'assertionMethod', created });
  });

  it('verifies untampered, bound to the issuer', async () => {
    const result = await verifyProof(signed, options);
    expect(result.errors).toEqual([]);
    expect(result).toMatchObject({ verified: true, verificationMethod: issuer.verificationMethod });
    expect(result.suite).toBe(suite === 'Ed25519Signature2020' ? suite : `DataIntegrityProof/${suite}`);
  });

  it('a changed claim fails with PROOF_VERIFICATION_ERROR', async () => {
    expect(types(await verifyProof({ ...signed, name: 'Administrator badge' }, options))).toEqual(['PROOF_VERIFICATION_ERROR']);
    const subject = { ...signed, credentialSubject: { id: 'did:example:attacker' } };
    expect(types(await verifyProof(subject, options))).toEqual(['PROOF_VERIFICATION_ERROR']);
  });

  it('a changed or added @context fails', async () => {
    const contexts = signed['@context'] as string[];
    const redefining = { ...signed, '@context': [...contexts, { name: 'https://evil.example/name' }] };
    const unknown = { ...signed, '@context': [...contexts, 'https://evil.example/context'] };
    const v1 = { ...signed, '@context': ['https://www.w3.org/2018/credentials/v1', ...contexts.slice(1)] };
    const expected = suite === 'eddsa-jcs-2022' ? ['PROOF_CONTEXT_MISMATCH', 'PROOF_VERIFICATION_ERROR'] : ['INVALID_JSONLD'];
    expect(types(await verifyProof(redefining, options))).toEqual(expected);
    expect(types(await verifyProof(unknown, options))).toEqual(expected);
    expect((await verifyProof(v1, options)).verified).toBe(false);
    // The proof's own @context must be the document's.
    const proofContext = withProof(signed, { '@context': ['https://www.w3.org/ns/credentials/v2', 'https://w3id.org/security/data-integrity/v2'] });
    expect(types(await verifyProof(proofContext, options))).toContain('PROOF_CONTEXT_MISMATCH');
  });

  it('a changed proofValue fails', async () => {
    const value = proofOf(signed).proofValue as string;
    const flipped = `${value.slice(0, 10)}${value[10] === 'A' ? 'B' : 'A'}${value.slice(11)}`;
    expect(types(await verifyProof(withProof(signed, { proofValue: flipped }), options))).toEqual(['PROOF_VERIFICATION_ERROR']);
    expect(types(await verifyProof(withProof(signed, { proofValue: `u${value.slice(1)}` }), options))).toEqual(['MALFORMED_PROOF']);
  });

  it('a changed created date fails; a future or invalid one is named', async () => {
    expect(types(await verifyProof(withProof(signed, { created: '2024-05-01T10:00:01Z' }), options))).toEqual(['PROOF_VERIFICATION_ERROR']);
    expect(types(await verifyProof(withProof(signed, { created: 'yesterday' }), options))).toContain('INVALID_PROOF_DATETIME');
    const future = await addProof(credential(issuer.did), issuer.signer, { suite, proofPurpose: 'assertionMethod', created: '2999-01-01T00:00:00Z' });
    expect(types(await verifyProof(future, options))).toEqual(['PROOF_CREATED_IN_FUTURE']);
  });

  it('an expired proof fails with PROOF_EXPIRED', async () => {
    const { proof: _p, ...doc } = signed;
    const config: JsonObject = { ...withoutValue(proofOf(signed)), expires: '2024-06-01T00:00:00Z' };
    const proof = await createDataIntegrityProof(doc, config, suiteForSigning(suite), issuer.signer);
    expect(types(await verifyProof({ ...doc, proof }, options))).toEqual(['PROOF_EXPIRED']);
  });

  it('another key of the same type as verification method fails', async () => {
    const other = issuerKey(keyType);
    const swapped = withProof(signed, { verificationMethod: other.verificationMethod });
    expect(types(await verifyProof(swapped, options))).toEqual(['CONTROLLER_MISMATCH', 'PROOF_VERIFICATION_ERROR']);
    expect(types(await verifyProof(swapped, { ...options, expectedController: undefined }))).toEqual(['PROOF_VERIFICATION_ERROR']);
  });

  it('a key of the wrong type fails with VERIFICATION_METHOD_KEY_MISMATCH', async () => {
    const wrong = issuerKey(otherType);
    const swapped = withProof(signed, { verificationMethod: wrong.verificationMethod });
    expect(types(await verifyProof(swapped, { ...options, expectedController: wrong.did }))).toEqual(['VERIFICATION_METHOD_KEY_MISMATCH']);
  });

  it('an unknown verification method fails with VERIFICATION_METHOD_NOT_FOUND', async () => {
    const swapped = withProof(signed, { verificationMethod: 'did:example:nobody#key-1' });
    expect(types(await verifyProof(swapped, { ...options, expectedController: undefined }))).toEqual(['VERIFICATION_METHOD_NOT_FOUND']);
  });

  it('a wrong proofPurpose fails with PROOF_PURPOSE_MISMATCH', async () => {
    const authSigned = await addProof(credential(issuer.did), issuer.signer, { suite, proofPurpose: 'authentication', created });
    expect(types(await verifyProof(authSigned, options))).toEqual(['PROOF_PURPOSE_MISMATCH']);
    expect((await verifyProof(authSigned, { ...options, expectedProofPurpose: 'authentication' })).verified).toBe(true);
  });

  it('a method not authorized for the purpose fails with VERIFICATION_METHOD_NOT_AUTHORIZED', async () => {
    const signer = createKeySigner(authOnly.pair, authOnlyMethod);
    const doc = await addProof(credential(authOnlyDid), signer, { suite, proofPurpose: 'assertionMethod', created });
    expect(types(await verifyProof(doc, { ...options, expectedController: authOnlyDid }))).toEqual(['VERIFICATION_METHOD_NOT_AUTHORIZED']);
  });

  it('a controller that is not the issuer fails with CONTROLLER_MISMATCH', async () => {
    expect(types(await verifyProof(signed, { ...options, expectedController: 'did:example:the-real-issuer' }))).toEqual(['CONTROLLER_MISMATCH']);
  });

  it('binds challenge and domain (presentations)', async () => {
    const vp = await addProof(
      { '@context': ['https://www.w3.org/ns/credentials/v2'], type: ['VerifiablePresentation'], holder: issuer.did },
      issuer.signer,
      { suite, proofPurpose: 'authentication', created, challenge: 'c-123', domain: 'verifier.example' },
    );
    const vpOptions = { resolver, expectedProofPurpose: 'authentication' as const, expectedController: issuer.did };
    expect((await verifyProof(vp, { ...vpOptions, challenge: 'c-123', domain: 'verifier.example' })).verified).toBe(true);
    expect(types(await verifyProof(vp, { ...vpOptions, challenge: 'c-999', domain: 'verifier.example' }))).toEqual(['CHALLENGE_MISMATCH']);
    expect(types(await verifyProof(vp, { ...vpOptions, challenge: 'c-123', domain: ['other.example'] }))).toEqual(['DOMAIN_MISMATCH']);
    expect(types(await verifyProof(withProof(vp, { challenge: 'c-999' }), { ...vpOptions, challenge: 'c-999' }))).toEqual(['PROOF_VERIFICATION_ERROR']);
  });

  it('a second proof makes a proof set; each must verify', async () => {
    const second = issuerKey(keyType);
    const set = await addProof(signed, second.signer, { suite, proofPurpose: 'assertionMethod', created });
    expect(Array.isArray(set.proof)).toBe(true);
    expect((await verifyProof(set, { ...options, expectedController: undefined })).verified).toBe(true);
    // ...but only one of them is the issuer's.
    expect(types(await verifyProof(set, options))).toEqual(['CONTROLLER_MISMATCH']);
  });
});

function withoutValue(proof: JsonObject): JsonObject {
  const { proofValue: _v, ...rest } = proof;
  return rest;
}

describe('verifyProof: suites, shapes and infrastructure', () => {
  const issuer = issuerKey('Ed25519');
  const resolver = createTestDidResolver();
  const options = { resolver, expectedProofPurpose: 'assertionMethod' as const };

  it('refuses an unknown cryptosuite and a missing proof', async () => {
    const signed = await addProof(credential(issuer.did), issuer.signer, { suite: 'eddsa-rdfc-2022', proofPurpose: 'assertionMethod' });
    expect(types(await verifyProof(withProof(signed, { cryptosuite: 'eddsa-2099' }), options))).toEqual(['UNSUPPORTED_PROOF_SUITE']);
    expect(types(await verifyProof(withProof(signed, { type: 'RsaSignature2018' }), options))).toEqual(['UNSUPPORTED_PROOF_SUITE']);
    expect(types(await verifyProof(credential(issuer.did), options))).toEqual(['MISSING_PROOF']);
    expect(types(await verifyProof({ ...signed, proof: [] }, options))).toEqual(['MISSING_PROOF']);
    expect(types(await verifyProof({ ...signed, proof: ['x'] }, options))).toEqual(['MALFORMED_PROOF']);
  });

  it('throws (for the caller to map) when the resolver is unavailable', async () => {
    const signed = await addProof(credential(issuer.did), issuer.signer, { suite: 'eddsa-rdfc-2022', proofPurpose: 'assertionMethod' });
    const down: DidResolver = {
      resolve: () => Promise.reject(new AppError('SERVICE_UNAVAILABLE', 'down')),
      dereferenceMethod: () => Promise.reject(new AppError('SERVICE_UNAVAILABLE', 'down')),
    };
    await expect(verifyProof(signed, { ...options, resolver: down })).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  });

  it('addProof refuses a key that does not fit the suite and a bad created', async () => {
    const p256 = issuerKey('P-256');
    await expect(addProof(credential(p256.did), p256.signer, { suite: 'eddsa-rdfc-2022', proofPurpose: 'assertionMethod' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(addProof(credential(issuer.did), issuer.signer, { suite: 'ecdsa-rdfc-2019', proofPurpose: 'assertionMethod' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(addProof(credential(issuer.did), issuer.signer, { suite: 'eddsa-rdfc-2022', proofPurpose: 'assertionMethod', created: 'now' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });

  it('adds the suite context a VCDM 1.1 credential lacks', async () => {
    const v1 = { ...credential(issuer.did), '@context': ['https://www.w3.org/2018/credentials/v1'], issuanceDate: '2024-05-01T10:00:00Z' };
    delete (v1 as JsonObject).validFrom;
    delete (v1 as JsonObject).name;
    delete (v1 as JsonObject).description;
    const di = await addProof(v1, issuer.signer, { suite: 'eddsa-rdfc-2022', proofPurpose: 'assertionMethod' });
    expect(di['@context']).toEqual(['https://www.w3.org/2018/credentials/v1', 'https://w3id.org/security/data-integrity/v2']);
    const ed = await addProof(v1, issuer.signer, { suite: 'Ed25519Signature2020', proofPurpose: 'assertionMethod' });
    expect(ed['@context']).toEqual(['https://www.w3.org/2018/credentials/v1', 'https://w3id.org/security/suites/ed25519-2020/v1']);
    expect((await verifyProof(di, options)).verified).toBe(true);
    expect((await verifyProof(ed, options)).verified).toBe(true);
  });
});

describe('the seed suites, verified through verifyProof', () => {
  const dir = join(__dirname, '..', '..', 'fixtures', 'vectors', 'ed25519signature2018');
  const read = (file: string): JsonObject => JSON.parse(readFileSync(join(dir, file), 'utf8')) as JsonObject;
  const signed = { ...read('credentials_case-2.json'), proof: read('proofs_digital-bazaar_case-2.json') };
  const options = { resolver: createTestDidResolver(), expectedProofPurpose: 'assertionMethod' as const };

  it('Ed25519Signature2018 made by Digital Bazaar verifies, and a changed claim does not', async () => {
    const result = await verifyProof(signed, { ...options, expectedController: 'did:key:z6MktWjP95fMqCMrfNULcdszFeTVUCE1zcgz3Hv5bVAisHgk' });
    expect(result).toMatchObject({ verified: true, suite: 'Ed25519Signature2018', errors: [] });
    const tampered = { ...signed, credentialSubject: { id: 'did:example:attacker' } };
    expect(types(await verifyProof(tampered, options))).toEqual(['PROOF_VERIFICATION_ERROR']);
    const wrongKey = withProof(signed, { verificationMethod: issuerKey('P-256').verificationMethod });
    expect(types(await verifyProof(wrongKey, options))).toEqual(['VERIFICATION_METHOD_KEY_MISMATCH']);
  });
});
