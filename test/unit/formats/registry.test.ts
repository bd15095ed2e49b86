import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { AppError } from '../../../src/errors';
import { formats, FormatRegistry } from '../../../src/formats';
import { VcVerifyService } from '../../../src/services/vc-api';
import { checkSuiteAndKey } from '../../../src/services/vc-api/suites';
import { ISSUING_SUITES, type JsonObject } from '../../../src/vc/ports';
import { newDidKeyIssuer } from '../../support/vc/jwt-signers';
import { x5cTrust } from '../../../src/x509';
import { certifiedSigner, FIXTURES, fixtureResolver, ISSUER_URL } from './fixtures';
import { throwawayFormat } from './throwaway';

const codeOf = (run: () => unknown): string | undefined => {
  try {
    run();
  } catch (e) {
    return e instanceof AppError ? e.code : 'not an AppError';
  }
  return undefined;
};

const unsigned = (): JsonObject => ({
  '@context': ['https://www.w3.org/ns/credentials/v2'],
  id: 'urn:uuid:5d1f6c1e-98a6-4a57-9a53-6a8a1f0b3c21',
  type: ['VerifiableCredential'],
  issuer: 'did:example:issuer',
  validFrom: '2025-01-01T00:00:00Z',
  credentialSubject: { id: 'did:example:holder-1', name: 'Alice' },
});

/** A VC-API verifier over a given registry; nothing else of the service is needed offline. */
function verifierWith(registry: FormatRegistry): VcVerifyService {
  const nothing = async (): Promise<never> => {
    throw new Error('not fetched in these tests');
  };
  return new VcVerifyService(fixtureResolver, { fetchStatusListCredential: nothing }, { now: () => new Date('2026-01-01T00:00:00Z') }, { fetchResource: nothing }, registry);
}

describe('the format registry', () => {
  it('refuses a second format under a taken id, or a second claim on an issuer suite', () => {
    const registry = new FormatRegistry(formats.list());
    const vcJwt = formats.require('vc+jwt');
    expect(codeOf(() => registry.register({ ...vcJwt }))).toBe('CONFLICT');
    expect(codeOf(() => registry.register({ ...vcJwt, id: 'another-jwt' }))).toBe('CONFLICT');
    expect(codeOf(() => registry.register({ ...throwawayFormat(randomBytes(32)), id: 'has space' }))).toBe('INVALID_INPUT');
    // Nothing was added by the refused registrations.
    expect(registry.list().map((f) => f.id)).toEqual(formats.list().map((f) => f.id));
  });

  it('looks formats up by id, and names the supported ones for an unknown id', () => {
    expect(formats.get('di:eddsa-rdfc-2022')?.id).toBe('di:eddsa-rdfc-2022');
    expect(formats.get('no-such-format')).toBeUndefined();
    expect(codeOf(() => formats.require('no-such-format'))).toBe('INVALID_INPUT');
  });

  it('finds the formats offered under each OpenID4VCI format identifier', () => {
    expect(formats.forOid4vciFormat('ldp_vc').map((f) => f.id)).toEqual(['di:eddsa-rdfc-2022', 'di:eddsa-jcs-2022', 'di:ecdsa-rdfc-2019', 'ed25519-signature-2020']);
    expect(formats.forOid4vciFormat('jwt_vc_json').map((f) => f.id)).toEqual(['vc+jwt']);
    expect(formats.forOid4vciFormat('dc+sd-jwt').map((f) => f.id)).toEqual(['dc+sd-jwt']);
    expect(formats.forOid4vciFormat('mso_mdoc').map((f) => f.id)).toEqual(['mso_mdoc']);
    expect(formats.forOid4vciFormat('jwt_vc_json-ld')).toEqual([]);
    expect(formats.oid4vciFormats()).toEqual(['jwt_vc_json', 'ldp_vc', 'dc+sd-jwt', 'mso_mdoc']);
  });

  it('has a format for every suite a VC-API issuer instance can be created with, and only those', () => {
    expect(formats.issuingSuites().map((f) => f.vcApi.suite)).toEqual([...ISSUING_SUITES]);
    for (const suite of ISSUING_SUITES) expect(formats.forIssuingSuite(suite)?.vcApi.suite).toBe(suite);
    expect(checkSuiteAndKey('ecdsa-rdfc-2019', undefined)).toEqual({ suite: 'ecdsa-rdfc-2019', keyType: 'P-256' });
    expect(codeOf(() => checkSuiteAndKey('ecdsa-rdfc-2019', 'Ed25519'))).toBe('INVALID_INPUT');
    // bbs-2023 is registered (issue 18): its key is BLS12-381 G2, and a key of another curve is refused.
    expect(checkSuiteAndKey('bbs-2023', undefined)).toEqual({ suite: 'bbs-2023', keyType: 'Bls12381G2' });
    expect(codeOf(() => checkSuiteAndKey('bbs-2023', 'Ed25519'))).toBe('INVALID_INPUT');
    expect(codeOf(() => checkSuiteAndKey('BbsBlsSignature2020', undefined))).toBe('INVALID_INPUT');
  });

  it('explains input no format recognises in the problem types proof verification uses', () => {
    expect(formats.detect(unsigned())).toBeUndefined();
    expect(formats.unrecognised(unsigned()).type).toBe('MISSING_PROOF');
    expect(formats.unrecognised({ ...unsigned(), proof: { type: 'BbsBlsSignature2020' } }).type).toBe('UNSUPPORTED_PROOF_SUITE');
    expect(formats.unrecognised({ ...unsigned(), proof: 'z3abc' }).type).toBe('MALFORMED_PROOF');
    expect(formats.unrecognised({ ...unsigned(), proof: Array.from({ length: 9 }, () => ({ type: 'BbsBlsSignature2020' })) }).type).toBe('MALFORMED_PROOF');
    expect(formats.unrecognised('not a credential').type).toBe('PARSING_ERROR');
  });

  it('reads the status lists a Family B credential is in, and derives a copy disclosing only some attributes', async () => {
    const familyB = formats.require('family-b');
    const { issued, context } = await FIXTURES['family-b']!.issue(familyB);
    expect(familyB.status?.referencesOf(issued as JsonObject)).toEqual([{ uri: 'https://credgate.example/status/1', index: 7, purpose: 'revocation' }]);
    const derived = (await familyB.derive!(issued, ['level'])) as JsonObject;
    expect((derived['credentialSubject'] as JsonObject[])[0]).toEqual({ id: 'did:example:holder-1', level: 'gold' });
    expect((await familyB.verify(derived, context)).verified).toBe(true);
  });
});

describe('presenting through the registry', () => {
  it('an SD-JWT VC is presented with key binding and verified against the nonce and audience', async () => {
    const sdJwt = formats.require('dc+sd-jwt');
    const holderKeys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const holder = {
      alg: 'ES256' as const,
      publicJwk: holderKeys.publicKey.export({ format: 'jwk' }),
      sign: async (data: Uint8Array) => new Uint8Array(sign('sha256', data, { key: holderKeys.privateKey, dsaEncoding: 'ieee-p1363' })),
    };
    const { signer, anchor } = await certifiedSigner();
    const context = { trust: x5cTrust([anchor]) };
    const credential = (await sdJwt.issue({ signer, iss: ISSUER_URL, vct: `${ISSUER_URL}/types/membership`, claims: { given_name: 'Alice', level: 'gold' }, holderJwk: holder.publicJwk })) as string;
    const presented = (await sdJwt.present!({ credential, disclose: ['level'], holder, aud: 'https://verifier.example', nonce: 'n-0S6_WzA2Mj' })) as string;
    expect(formats.detect(presented)?.id).toBe('dc+sd-jwt');

    const ok = await sdJwt.verify(presented, { ...context, challenge: 'n-0S6_WzA2Mj', domain: 'https://verifier.example' });
    expect(ok.problems).toEqual([]);
    expect(ok.credential?.['level']).toBe('gold');
    expect(ok.credential?.['given_name']).toBeUndefined();

    const replayed = await sdJwt.verify(presented, { ...context, challenge: 'another-nonce', domain: 'https://verifier.example' });
    expect(replayed.verified).toBe(false);
    expect(replayed.problems.map((p) => p.type)).toContain('key_binding_invalid');
  });

  it('a W3C credential is presented in a signed VP that the VC-API verifies against its challenge', async () => {
    const format = formats.require('di:eddsa-rdfc-2022');
    const { issued } = await FIXTURES['di:eddsa-rdfc-2022']!.issue(format);
    const holder = newDidKeyIssuer('Ed25519');
    const presentation = { '@context': ['https://www.w3.org/ns/credentials/v2'], type: ['VerifiablePresentation'], holder: holder.did, verifiableCredential: [issued] };
    const vp = await format.present!({ presentation, signer: holder.signer, challenge: 'c-1', domain: 'verifier.example' });
    const verifier = verifierWith(formats);
    expect((await verifier.verifyPresentation({ verifiablePresentation: vp, options: { challenge: 'c-1', domain: 'verifier.example' } })).verified).toBe(true);
    const wrong = await verifier.verifyPresentation({ verifiablePresentation: vp, options: { challenge: 'c-2', domain: 'verifier.example' } });
    expect(wrong.verified).toBe(false);
    expect(wrong.errors.map((e) => e.type)).toContain('urn:credgate:vc-api:CHALLENGE_MISMATCH');
  });
});

describe('a new format is one folder plus one registration line', () => {
  const key = randomBytes(32);
  const format = throwawayFormat(key);

  it('is verified by the VC-API once registered, with no change to the VC-API', async () => {
    const credential = await format.issue({ credential: unsigned() });
    const before = await verifierWith(new FormatRegistry(formats.list())).verifyCredential({ verifiableCredential: credential });
    expect(before.verified).toBe(false);
    expect(before.errors.map((e) => e.type)).toContain('urn:credgate:vc-api:UNSUPPORTED_PROOF_SUITE');

    const registry = new FormatRegistry(formats.list()).register(format);
    expect(registry.detect(credential)?.id).toBe('test:hmac');
    const after = await verifierWith(registry).verifyCredential({ verifiableCredential: credential });
    expect(after).toEqual({ verified: true, checks: ['proof', 'issuer', 'validity'], warnings: [], errors: [] });

    const tampered = { ...credential, credentialSubject: { id: 'did:example:holder-1', name: 'Mallory' } };
    const refused = await verifierWith(registry).verifyCredential({ verifiableCredential: tampered });
    expect(refused.verified).toBe(false);
    expect(refused.errors.map((e) => e.type)).toEqual(['https://w3id.org/security#PROOF_VERIFICATION_ERROR']);
  });
});
