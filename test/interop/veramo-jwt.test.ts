import { decodeJwt, decodeProtectedHeader } from 'jose';
import { issueJwtCredential, verifyJwtCredential, verifyJwtPresentation } from '../../src/vc/jwt';
import { checkCredentialShape, prepareCredentialForIssuance } from '../../src/vc/model';
import type { JsonObject, ProofVerifyOptions, SigningKeyType } from '../../src/vc/ports';
import { unsignedCredential, V1 } from '../support/vc/credentials';
import { createTestDidResolver } from '../support/vc/jwt-resolver';
import { newDidKeyIssuer } from '../support/vc/jwt-signers';
import { reuseSignature } from '../support/vc/jws';
import { startVeramo, type VeramoProcess } from '../support/vc/veramo-process';

/**
 * VC-JWT (VCDM 1.1) interop with Veramo 7 (@veramo/credential-jwt over did-jwt-vc), an independent
 * implementation, in both directions, with did:key issuers. Veramo runs in its own process.
 */
let veramo: VeramoProcess;
beforeAll(async () => {
  veramo = await startVeramo();
});
afterAll(async () => {
  await veramo?.close();
});

const credentialOptions: ProofVerifyOptions = { resolver: createTestDidResolver(), expectedProofPurpose: 'assertionMethod' };
type Verdict = { verified: boolean; error?: string };

describe('Veramo issues, Credgate verifies', () => {
  it('an Ed25519 did:key VC-JWT from Veramo verifies and reads back as the credential Veramo signed', async () => {
    const { did } = await veramo.request<{ did: string }>('createIdentifier', { keyType: 'Ed25519' });
    const input = {
      '@context': [V1],
      type: ['VerifiableCredential', 'InteropBadge'],
      issuer: { id: did },
      id: 'urn:uuid:3f0c9b8e-8a0e-4a43-9b8d-1f6f0e2f1d21',
      issuanceDate: '2024-05-01T12:00:00Z',
      expirationDate: '2999-05-01T12:00:00Z',
      credentialSubject: { id: 'did:example:holder', name: 'Grace Hopper', employeeNo: 7 },
    };
    const { jwt } = await veramo.request<{ jwt: string }>('issueCredential', { credential: input });
    expect(decodeProtectedHeader(jwt)).toMatchObject({ alg: 'EdDSA', typ: 'JWT' });

    const result = await verifyJwtCredential(jwt, credentialOptions);
    expect(result).toMatchObject({ verified: true, suite: 'JwtProof2020', errors: [] });
    expect(result.verificationMethod?.startsWith(`${did}#`)).toBe(true);
    expect(result.credential).toMatchObject({
      issuer: did,
      id: input.id,
      issuanceDate: input.issuanceDate,
      expirationDate: input.expirationDate,
      credentialSubject: input.credentialSubject,
    });
    expect(checkCredentialShape(result.credential)).toEqual([]);

    // Our tamper checks hold for Veramo's tokens too.
    const edited = reuseSignature(jwt, ({ payload }) => {
      ((payload.vc as JsonObject).credentialSubject as JsonObject).name = 'Mallory';
    });
    expect((await verifyJwtCredential(edited, credentialOptions)).verified).toBe(false);
  });

  it('a Veramo VP-JWT verifies with its challenge (nonce) and domain (aud), and not with others', async () => {
    const { did: issuerDid } = await veramo.request<{ did: string }>('createIdentifier', { keyType: 'Ed25519' });
    const { did: holder } = await veramo.request<{ did: string }>('createIdentifier', { keyType: 'Ed25519' });
    const { jwt: vc } = await veramo.request<{ jwt: string }>('issueCredential', {
      credential: { '@context': [V1], type: ['VerifiableCredential'], issuer: { id: issuerDid }, credentialSubject: { id: holder, a: 1 } },
    });
    const { jwt } = await veramo.request<{ jwt: string }>('createPresentation', { holder, credentials: [vc], challenge: 'nonce-123', domain: 'verifier.example' });

    const options: ProofVerifyOptions = { ...credentialOptions, expectedProofPurpose: 'authentication', challenge: 'nonce-123', domain: 'verifier.example' };
    const result = await verifyJwtPresentation(jwt, options);
    expect(result).toMatchObject({ verified: true, errors: [] });
    expect(result.presentation).toMatchObject({ holder, verifiableCredential: [vc] });
    expect((await verifyJwtCredential(vc, credentialOptions)).verified).toBe(true);

    const otherChallenge = await verifyJwtPresentation(jwt, { ...options, challenge: 'nonce-999' });
    expect(otherChallenge.errors).toEqual([expect.objectContaining({ type: 'INVALID_CHALLENGE' })]);
    const otherDomain = await verifyJwtPresentation(jwt, { ...options, domain: 'evil.example' });
    expect(otherDomain.errors).toEqual([expect.objectContaining({ type: 'INVALID_DOMAIN' })]);
  });
});

describe.each([['Ed25519'], ['P-256']] as [SigningKeyType][])('Credgate issues (%s), Veramo verifies', (keyType) => {
  const issuer = newDidKeyIssuer(keyType);

  it('our VC-JWT 1.1 verifies with Veramo\'s verifyCredential', async () => {
    const credential = prepareCredentialForIssuance(
      unsignedCredential('1.1', 'did:example:holder', { '@context': [V1], expirationDate: '2999-01-01T00:00:00Z', issuer: { name: 'Credgate' } }),
      { issuer: issuer.did, now: new Date() },
    );
    const jwt = await issueJwtCredential(credential, issuer.signer);
    expect(decodeJwt(jwt).iss).toBe(issuer.did);
    expect(await veramo.request<Verdict>('verifyCredential', { jwt })).toEqual({ verified: true });

    // …and Veramo refuses it once a claim is changed, so its "verified" above is not a rubber stamp.
    const edited = reuseSignature(jwt, ({ payload }) => {
      payload.sub = 'did:example:mallory';
    });
    expect(await veramo.request<Verdict>('verifyCredential', { jwt: edited })).toMatchObject({ verified: false });
  });
});
