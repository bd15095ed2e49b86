import { envelopeJwtCredential, envelopeJwtPresentation, issueJwtCredential, verifyJwtPresentation } from '../../../src/vc/jwt';
import { prepareCredentialForIssuance } from '../../../src/vc/model';
import type { JsonObject, ProofVerifyOptions } from '../../../src/vc/ports';
import { unsignedCredential, V1, V2 } from '../../support/vc/credentials';
import { createTestDidResolver } from '../../support/vc/jwt-resolver';
import { newDidKeyIssuer } from '../../support/vc/jwt-signers';
import { reuseSignature, signAs } from '../../support/vc/jws';

/** JWT presentations: signed by the holder's authentication key, bound to the verifier's challenge and domain. */
const issuer = newDidKeyIssuer('Ed25519');
const holder = newDidKeyIssuer('P-256');
const other = newDidKeyIssuer('Ed25519');
const options: ProofVerifyOptions = {
  resolver: createTestDidResolver(),
  expectedProofPurpose: 'authentication',
  challenge: 'c-42',
  domain: ['verifier.example', 'alt.example'],
};

async function credentialJwt(version: '1.1' | '2.0'): Promise<string> {
  const vc = prepareCredentialForIssuance(unsignedCredential(version, holder.did), { issuer: issuer.did, now: new Date('2025-01-01T00:00:00Z') });
  return issueJwtCredential(vc, issuer.signer);
}

async function vp2(extra: JsonObject = {}, signer = holder.signer): Promise<string> {
  const presentation = {
    '@context': [V2],
    type: ['VerifiablePresentation'],
    holder: holder.did,
    verifiableCredential: [envelopeJwtCredential(await credentialJwt('2.0'))],
    nonce: 'c-42',
    aud: 'verifier.example',
    ...extra,
  };
  return signAs({ alg: signer.keyType === 'Ed25519' ? 'EdDSA' : 'ES256', kid: signer.verificationMethod, typ: 'vp+jwt' }, presentation, signer);
}

async function vp1(claims: JsonObject = {}): Promise<string> {
  const payload = {
    iss: holder.did,
    nonce: 'c-42',
    aud: ['verifier.example'],
    vp: { '@context': [V1], type: ['VerifiablePresentation'], verifiableCredential: [await credentialJwt('1.1')] },
    ...claims,
  };
  return signAs({ alg: 'ES256', kid: holder.signer.verificationMethod, typ: 'JWT' }, payload, holder.signer);
}

describe('verifyJwtPresentation', () => {
  it('VCDM 2.0 vp+jwt, compact and enveloped', async () => {
    const jwt = await vp2();
    const result = await verifyJwtPresentation(jwt, options);
    expect(result).toMatchObject({ verified: true, suite: 'vp+jwt', verificationMethod: holder.signer.verificationMethod, errors: [] });
    expect(result.presentation?.holder).toBe(holder.did);
    expect(await verifyJwtPresentation(envelopeJwtPresentation(jwt), options)).toEqual(result);
  });

  it('VCDM 1.1 VP-JWT: iss is the holder', async () => {
    const result = await verifyJwtPresentation(await vp1(), options);
    expect(result).toMatchObject({ verified: true, suite: 'JwtProof2020', errors: [] });
    expect(result.presentation).toMatchObject({ holder: holder.did, type: ['VerifiablePresentation'] });
  });

  it.each<[string, () => Promise<string>, string]>([
    ['another challenge', () => vp2({ nonce: 'c-41' }), 'INVALID_CHALLENGE'],
    ['no challenge', () => vp2({ nonce: undefined }), 'INVALID_CHALLENGE'],
    ['another domain', () => vp2({ aud: 'evil.example' }), 'INVALID_DOMAIN'],
    ['1.1 another challenge', () => vp1({ nonce: 'c-0' }), 'INVALID_CHALLENGE'],
    ['1.1 no audience', () => vp1({ aud: undefined }), 'INVALID_DOMAIN'],
    ['an expired presentation', () => vp2({ exp: 1_600_000_000 }), 'EXPIRED'],
  ])('refuses %s', async (_label, make, type) => {
    const result = await verifyJwtPresentation(await make(), options);
    expect(result.verified).toBe(false);
    expect(result.errors).toEqual([expect.objectContaining({ type })]);
  });

  it('refuses a presentation signed by someone other than its holder', async () => {
    const result = await verifyJwtPresentation(await vp2({}, other.signer), options);
    expect(result).toMatchObject({ verified: false, errors: [expect.objectContaining({ title: expect.stringMatching(/kid is not a key of the signer/) })] });
  });

  it('refuses a changed challenge under the original signature', async () => {
    const edited = reuseSignature(await vp2(), ({ payload }) => {
      payload.nonce = 'c-43';
    });
    expect((await verifyJwtPresentation(edited, { ...options, challenge: 'c-43' })).errors).toEqual([expect.objectContaining({ type: 'PROOF_VERIFICATION_ERROR' })]);
  });

  it('refuses 1.1 holder/iss disagreement and a credential JWT offered as a presentation', async () => {
    const mismatch = await verifyJwtPresentation(
      await vp1({ vp: { '@context': [V1], type: ['VerifiablePresentation'], holder: other.did } }),
      options,
    );
    expect(mismatch.errors).toEqual([expect.objectContaining({ type: 'CLAIM_MISMATCH' })]);
    const credential = await verifyJwtPresentation(await credentialJwt('2.0'), options);
    expect(credential).toMatchObject({ verified: false, errors: [expect.objectContaining({ type: 'MALFORMED_VALUE_ERROR' })] });
  });

  it('refuses a presentation envelope with the credential media type', async () => {
    const envelope = { ...envelopeJwtPresentation(await vp2()), id: `data:application/vc+jwt,${await vp2()}` };
    expect((await verifyJwtPresentation(envelope, options)).errors).toEqual([expect.objectContaining({ title: expect.stringMatching(/media type must be application\/vp\+jwt/) })]);
  });
});
