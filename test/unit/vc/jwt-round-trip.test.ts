import { decodeProtectedHeader, decodeJwt } from 'jose';
import {
  envelopeJwtCredential,
  isJwtCredential,
  issueJwtCredential,
  verifyJwtCredential,
} from '../../../src/vc/jwt';
import { prepareCredentialForIssuance } from '../../../src/vc/model';
import type { ProofVerifyOptions, SigningKeyType } from '../../../src/vc/ports';
import { unsignedCredential } from '../../support/vc/credentials';
import { createTestDidResolver } from '../../support/vc/jwt-resolver';
import { newDidKeyIssuer } from '../../support/vc/jwt-signers';

const options: ProofVerifyOptions = { resolver: createTestDidResolver(), expectedProofPurpose: 'assertionMethod' };
const NOW = new Date('2025-03-01T10:20:30.456Z');
const ALGS: [SigningKeyType, string][] = [['Ed25519', 'EdDSA'], ['P-256', 'ES256'], ['P-384', 'ES384']];

describe.each(ALGS)('JWT credentials signed with %s (%s)', (keyType, alg) => {
  const issuer = newDidKeyIssuer(keyType);

  it('VCDM 2.0: vc+jwt whose payload is the credential, verified compact and enveloped', async () => {
    const credential = prepareCredentialForIssuance(unsignedCredential('2.0'), { issuer: issuer.did, now: NOW });
    const jwt = await issueJwtCredential(credential, issuer.signer);
    expect(decodeProtectedHeader(jwt)).toEqual({ alg, kid: issuer.signer.verificationMethod, typ: 'vc+jwt' });
    expect(decodeJwt(jwt)).toEqual(credential);

    const compact = await verifyJwtCredential(jwt, options);
    expect(compact).toEqual({ verified: true, suite: 'vc+jwt', verificationMethod: issuer.signer.verificationMethod, errors: [], credential });

    const envelope = envelopeJwtCredential(jwt);
    expect(envelope).toEqual({ '@context': 'https://www.w3.org/ns/credentials/v2', id: `data:application/vc+jwt,${jwt}`, type: 'EnvelopedVerifiableCredential' });
    expect(isJwtCredential(envelope)).toBe(true);
    expect(isJwtCredential(jwt)).toBe(true);
    expect(await verifyJwtCredential(envelope, options)).toEqual(compact);
  });

  it('VCDM 1.1: VC-JWT with registered claims and a vc claim, rebuilt exactly on verification', async () => {
    const credential = prepareCredentialForIssuance(
      unsignedCredential('1.1', 'did:example:holder-1', { expirationDate: '2999-01-01T00:00:00Z' }),
      { issuer: issuer.did, now: NOW },
    );
    const jwt = await issueJwtCredential(credential, issuer.signer);
    expect(decodeProtectedHeader(jwt)).toEqual({ alg, kid: issuer.signer.verificationMethod, typ: 'JWT' });
    const claims = decodeJwt(jwt);
    expect(claims).toMatchObject({
      iss: issuer.did,
      sub: 'did:example:holder-1',
      jti: credential.id,
      nbf: Math.floor(NOW.getTime() / 1000),
      exp: Date.parse('2999-01-01T00:00:00Z') / 1000,
    });
    expect(claims.vc).not.toHaveProperty('issuer');
    expect(claims.vc).not.toHaveProperty('issuanceDate');

    const result = await verifyJwtCredential(jwt, options);
    expect(result).toEqual({ verified: true, suite: 'JwtProof2020', verificationMethod: issuer.signer.verificationMethod, errors: [], credential });
  });

  it('VCDM 1.1: an issuer object keeps its other members through the claims', async () => {
    const credential = prepareCredentialForIssuance(unsignedCredential('1.1', 'did:example:holder-2', { issuer: { name: 'Example University' } }), {
      issuer: issuer.did,
      now: NOW,
    });
    const result = await verifyJwtCredential(await issueJwtCredential(credential, issuer.signer), options);
    expect(result.verified).toBe(true);
    expect(result.credential?.issuer).toEqual({ name: 'Example University', id: issuer.did });
  });
});

describe('JWT credential issuance refusals', () => {
  const issuer = newDidKeyIssuer('Ed25519');

  it('refuses a credential with an embedded proof or with no known data model version', async () => {
    const withProof = { ...unsignedCredential('2.0'), issuer: issuer.did, proof: { type: 'DataIntegrityProof' } };
    await expect(issueJwtCredential(withProof, issuer.signer)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    const unknown = { ...unsignedCredential('2.0'), '@context': ['https://example.com/ctx'], issuer: issuer.did };
    await expect(issueJwtCredential(unknown, issuer.signer)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });
});
