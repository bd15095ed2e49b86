import { generateSecp256k1Keypair } from '../../src/domain/keys';
import { FAMILY_B_CREDENTIAL_CONTEXT, checkSubject, familyBShapeProblem, familyBValidityProblem, signFamilyBCredential, verifyFamilyBSignature } from '../../src/domain/credentials/family-b-credential';
import { PRESENTATION_CONTEXT, createSdCredentialPayload, presentationShapeProblem } from '../../src/domain/presentations';

type Json = Record<string, any>;
const clone = (d: Json): Json => JSON.parse(JSON.stringify(d)) as Json;
const keys = generateSecp256k1Keypair();
const credential = signFamilyBCredential(
  {
    id: 'urn:uuid:6f1d2c1e-0000-4000-8000-000000000001',
    templateName: 'Badge',
    issuer: 'did:credgate:local:issuer',
    holder: 'did:credgate:local:holder',
    issuanceDate: '2026-01-01T00:00:00Z',
    expirationDate: '2027-01-01T00:00:00Z',
    values: { name: 'Ada' },
    credentialStatus: { id: 'https://x/status/1#5', type: 'BitstringStatusListEntry', statusPurpose: 'revocation', statusListIndex: '5', statusListCredential: 'https://x/status/1' },
    verificationMethod: 'did:credgate:local:issuer#keys-1',
    created: '2026-01-01T00:00:00Z',
  },
  keys.privateKey,
);

describe('Family B signing with disclosures made beforehand (the service makes them before the tick)', () => {
  const input = {
    id: 'urn:uuid:6f1d2c1e-0000-4000-8000-000000000002',
    templateName: 'Badge',
    issuer: 'did:credgate:local:issuer',
    holder: null,
    issuanceDate: '2026-01-01T00:00:00Z',
    expirationDate: '2027-01-01T00:00:00Z',
    values: { name: 'Ada', level: 3 },
    credentialStatus: { id: 'https://x/status/1#6', type: 'BitstringStatusListEntry', statusPurpose: 'revocation', statusListIndex: '6', statusListCredential: 'https://x/status/1' },
    verificationMethod: 'did:credgate:local:issuer#keys-1',
    created: '2026-01-01T00:00:00Z',
  };

  test('the credential carries exactly the given disclosures, its signature and subject check hold', () => {
    const sd = createSdCredentialPayload(input.values);
    const signed = signFamilyBCredential({ ...input, sd }, keys.privateKey) as Json;
    expect(signed['proof'].disclosures).toEqual(sd.disclosures);
    expect(verifyFamilyBSignature(signed, keys.publicKey)).toBe(true);
    expect(checkSubject(signed, { all: true })).toMatchObject({ ok: true });
  });

  test('without them, fresh salts are drawn: two signings of the same input differ', () => {
    const a = signFamilyBCredential(input, keys.privateKey) as Json;
    const b = signFamilyBCredential(input, keys.privateKey) as Json;
    expect(a['proof'].disclosures).not.toEqual(b['proof'].disclosures);
    expect(verifyFamilyBSignature(a, keys.publicKey) && verifyFamilyBSignature(b, keys.publicKey)).toBe(true);
  });
});

describe('Family B credential shape (context pinning, signed members only)', () => {
  test('an issued credential passes', () => {
    expect(familyBShapeProblem(credential)).toBeNull();
    expect(credential['@context']).toEqual(FAMILY_B_CREDENTIAL_CONTEXT);
  });

  test.each<[string, (c: Json) => void, RegExp]>([
    ['appended inline context', (c) => c['@context'].push({ name: 'https://schema.org/familyName' }), /@context/],
    ['replaced context', (c) => (c['@context'] = ['https://www.w3.org/2018/credentials/v1']), /@context/],
    ['evidence', (c) => (c['evidence'] = []), /evidence/],
    ['proof member', (c) => (c['proof'].note = 'x'), /proof member "note"/],
    ['second subject', (c) => c['credentialSubject'].push({ name: 'B' }), /exactly one subject/],
    ['proofPurpose', (c) => (c['proof'].proofPurpose = 'authentication'), /proofPurpose/],
    ['malformed date', (c) => (c['expirationDate'] = 'soon'), /expirationDate/],
    ['reversed dates', (c) => (c['expirationDate'] = '2025-01-01T00:00:00Z'), /after issuanceDate/],
    ['missing status', (c) => delete c['credentialStatus'], /missing/],
  ])('%s is refused', (_name, edit, reason) => {
    const c = clone(credential);
    edit(c);
    expect(familyBShapeProblem(c)).toMatch(reason);
  });

  test('validity: not yet valid, valid, expired', () => {
    expect(familyBValidityProblem(credential, new Date('2025-12-31T23:59:59Z'))).toMatch(/not yet valid/);
    expect(familyBValidityProblem(credential, new Date('2026-06-01T00:00:00Z'))).toBeNull();
    expect(familyBValidityProblem(credential, new Date('2027-01-01T00:00:01Z'))).toMatch(/expired/);
  });
});

describe('presentation shape', () => {
  const now = new Date('2026-06-01T00:00:00Z');
  const vp: Json = {
    '@context': [...PRESENTATION_CONTEXT],
    type: ['VerifiablePresentation'],
    verifiableCredential: [credential],
    holder: 'did:credgate:local:holder',
    presentationAttributes: { [String(credential['id'])]: ['name'] },
    issuanceDate: '2026-06-01T00:00:00Z',
    proof: { type: 'EcdsaSecp256k1Signature2019', created: '2026-06-01T00:00:00Z', verificationMethod: 'did:credgate:local:holder', proofPurpose: 'authentication', signatureValue: '00' },
  };

  test('a well-formed presentation passes', () => expect(presentationShapeProblem(vp, now)).toBeNull());

  test.each<[string, (v: Json) => void, RegExp]>([
    ['inline context', (v) => v['@context'].push({ a: 'b' }), /@context/],
    ['extra member', (v) => (v['expirationDate'] = '2000-01-01T00:00:00Z'), /expirationDate/],
    ['proofPurpose', (v) => (v['proof'].proofPurpose = 'assertionMethod'), /proofPurpose/],
    ['no proofPurpose', (v) => delete v['proof'].proofPurpose, /proofPurpose/],
    ['future created', (v) => (v['proof'].created = '2026-06-01T01:00:00Z'), /in the future/],
    ['malformed issuanceDate', (v) => (v['issuanceDate'] = 'yesterday'), /issuanceDate/],
    ['extra type', (v) => v['type'].push('X'), /type/],
  ])('%s is refused', (_name, edit, reason) => {
    const v = clone(vp);
    edit(v);
    expect(presentationShapeProblem(v, now)).toMatch(reason);
  });
});
