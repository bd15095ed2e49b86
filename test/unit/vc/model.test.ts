import {
  checkCredentialShape,
  checkPresentationShape,
  checkValidityPeriod,
  credentialVersion,
  prepareCredentialForIssuance,
} from '../../../src/vc/model';
import type { JsonObject, VcProblem } from '../../../src/vc/ports';
import { expectAppError } from '../../support/app-error';
import { V1, V2 } from '../../support/vc/credentials';

const ISSUER = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
const base = (version: '1.1' | '2.0'): JsonObject => ({
  '@context': [version === '1.1' ? V1 : V2],
  type: ['VerifiableCredential'],
  issuer: ISSUER,
  credentialSubject: { id: 'did:example:holder', name: 'Ada' },
  ...(version === '1.1' ? { issuanceDate: '2024-01-01T00:00:00Z' } : {}),
});
const titles = (problems: VcProblem[]) => problems.map((p) => p.title);

describe('credentialVersion', () => {
  it.each([
    [{ '@context': [V1, 'https://example.com/x'] }, '1.1'],
    [{ '@context': [V2] }, '2.0'],
    [{ '@context': V2 }, '2.0'],
    [{ '@context': ['https://example.com/x', V2] }, undefined],
    [{ '@context': [] }, undefined],
    [{}, undefined],
    ['not an object', undefined],
    [[V2], undefined],
  ])('%j → %s', (vc, version) => {
    expect(credentialVersion(vc)).toBe(version);
  });
});

describe.each(['1.1', '2.0'] as const)('checkCredentialShape, VCDM %s', (version) => {
  it('a minimal credential is well formed', () => {
    expect(checkCredentialShape(base(version))).toEqual([]);
  });

  it.each<[string, (vc: JsonObject) => void, RegExp]>([
    ['no @context', (vc) => delete vc['@context'], /^@context must start with/],
    ['a foreign first context', (vc) => (vc['@context'] = ['https://example.com/ctx', V1, V2]), /^@context must start with/],
    ['a non-string context entry in 1.1 / a number in 2.0', (vc) => (vc['@context'] = [vc['@context'] as string[], 42].flat()), /^@context entries must each be/],
    ['both base contexts', (vc) => (vc['@context'] = [...(vc['@context'] as string[]), version === '1.1' ? V2 : V1]), /must not mix/],
    ['no type', (vc) => delete vc.type, /^type must be a string or a list/],
    ['type without VerifiableCredential', (vc) => (vc.type = ['ExampleCredential']), /^type must include VerifiableCredential/],
    ['an empty type entry', (vc) => (vc.type = ['VerifiableCredential', '']), /^type must be/],
    ['an id that is not a URL', (vc) => (vc.id = 'not a url'), /^id must be a URL/],
    ['no issuer', (vc) => delete vc.issuer, /^issuer is required/],
    ['an issuer that is not a URL', (vc) => (vc.issuer = 'Example University'), /^issuer must be a URL or an object/],
    ['an issuer object without a URL id', (vc) => (vc.issuer = { name: 'Example University' }), /^issuer must be a URL or an object/],
    ['no credentialSubject', (vc) => delete vc.credentialSubject, /^credentialSubject is required/],
    ['an empty credentialSubject list', (vc) => (vc.credentialSubject = []), /^credentialSubject must not be an empty list/],
    ['a credentialSubject string', (vc) => (vc.credentialSubject = 'did:example:x'), /^credentialSubject must be an object/],
    ['an empty credentialSubject object', (vc) => (vc.credentialSubject = {}), /^credentialSubject must make at least one claim/],
    ['a subject id that is not a URL', (vc) => (vc.credentialSubject = [{ id: 'holder 1', a: 1 }]), /^credentialSubject\[0\]\.id must be a URL/],
    ['a credentialStatus without type', (vc) => (vc.credentialStatus = { id: 'https://example.com/status/1#3' }), /^credentialStatus entries must have a type/],
    ['a credentialStatus id that is not a URL', (vc) => (vc.credentialStatus = { id: 'x y', type: 'BitstringStatusListEntry' }), /^credentialStatus\.id must be a URL/],
    ['a credentialSchema without id', (vc) => (vc.credentialSchema = { type: 'JsonSchema' }), /^credentialSchema entries must have an id/],
  ])('%s', (_label, change, title) => {
    const vc = base(version);
    change(vc);
    expect(titles(checkCredentialShape(vc))).toEqual(expect.arrayContaining([expect.stringMatching(title)]));
  });

  it('is not an object', () => {
    expect(checkCredentialShape('eyJ...')).toEqual([expect.objectContaining({ type: 'PARSING_ERROR' })]);
  });
});

describe('version-specific rules', () => {
  it.each<[string, '1.1' | '2.0', JsonObject, RegExp | undefined]>([
    ['1.1 requires issuanceDate', '1.1', { issuanceDate: undefined }, /^issuanceDate is required/],
    ['1.1 refuses validFrom', '1.1', { validFrom: '2024-01-01T00:00:00Z' }, /^validFrom is a VCDM 2.0 property/],
    ['1.1 refuses validUntil', '1.1', { validUntil: '2024-01-01T00:00:00Z' }, /^validUntil is a VCDM 2.0 property/],
    ['1.1 issuanceDate needs a timezone', '1.1', { issuanceDate: '2024-01-01T00:00:00' }, /^issuanceDate must be an XMLSchema dateTimeStamp/],
    ['1.1 expirationDate must be a date', '1.1', { expirationDate: 'tomorrow' }, /^expirationDate must be an XMLSchema dateTimeStamp/],
    ['1.1 expirationDate before issuanceDate', '1.1', { expirationDate: '2023-01-01T00:00:00Z' }, /^expirationDate must not be before issuanceDate/],
    ['1.1 credentialStatus requires an id', '1.1', { credentialStatus: { type: 'StatusList2021Entry' } }, /^credentialStatus entries must have an id/],
    ['1.1 an offset timezone is fine', '1.1', { issuanceDate: '2024-01-01T01:00:00.123+01:00' }, undefined],
    ['2.0 needs no start date', '2.0', {}, undefined],
    ['2.0 refuses issuanceDate', '2.0', { issuanceDate: '2024-01-01T00:00:00Z' }, /^issuanceDate is a VCDM 1.1 property/],
    ['2.0 refuses expirationDate', '2.0', { expirationDate: '2024-01-01T00:00:00Z' }, /^expirationDate is a VCDM 1.1 property/],
    ['2.0 validFrom needs a timezone', '2.0', { validFrom: '2024-01-01T00:00:00' }, /^validFrom must be an XMLSchema dateTimeStamp/],
    ['2.0 validUntil must be a real date', '2.0', { validUntil: '2024-02-30T00:00:00Z' }, undefined],
    ['2.0 a leap day in a leap year is fine', '2.0', { validFrom: '2024-02-29T00:00:00Z' }, undefined],
    ['2.0 a leap day in a common year is not', '2.0', { validFrom: '2023-02-29T00:00:00Z' }, /^validFrom must be an XMLSchema dateTimeStamp/],
    ['2.0 validUntil before validFrom', '2.0', { validFrom: '2024-01-02T00:00:00Z', validUntil: '2024-01-01T00:00:00Z' }, /^validUntil must not be before validFrom/],
    ['2.0 credentialStatus id is optional', '2.0', { credentialStatus: { type: 'BitstringStatusListEntry' } }, undefined],
    ['2.0 context objects are allowed', '2.0', { '@context': [V2, { ex: 'https://example.com/#' }] }, undefined],
    ['1.1 context objects are allowed', '1.1', { '@context': [V1, { ex: 'https://example.com/#' }] }, undefined],
    ['a context entry that is a number', '2.0', { '@context': [V2, 7] }, /^@context entries must each be a URL or a context object/],
  ])('%s', (label, version, changes, title) => {
    const vc = { ...base(version), ...changes };
    for (const [k, v] of Object.entries(changes)) if (v === undefined) delete vc[k];
    const problems = titles(checkCredentialShape(vc));
    if (title) expect(problems).toEqual(expect.arrayContaining([expect.stringMatching(title)]));
    else if (label.includes('real date')) expect(problems).toEqual(expect.arrayContaining([expect.stringMatching(/^validUntil must be/)]));
    else expect(problems).toEqual([]);
  });
});

describe('checkPresentationShape', () => {
  const vp = (version: '1.1' | '2.0', extra: JsonObject = {}): JsonObject => ({ '@context': [version === '1.1' ? V1 : V2], type: ['VerifiablePresentation'], ...extra });

  it.each(['1.1', '2.0'] as const)('VCDM %s: a presentation with a holder and an embedded credential is well formed', (version) => {
    expect(checkPresentationShape(vp(version, { holder: 'did:example:holder', verifiableCredential: [base(version)] }))).toEqual([]);
  });

  it.each<[string, JsonObject, RegExp]>([
    ['type without VerifiablePresentation', { type: ['VerifiableCredential'] }, /^type must include VerifiablePresentation/],
    ['a holder that is not a URL', { holder: 'Alice' }, /^holder must be a URL/],
    ['an id that is not a URL', { id: 'presentation 1' }, /^id must be a URL/],
    ['a credential that is neither an object nor a JWT', { verifiableCredential: [42] }, /^a verifiable credential must be a JSON object/],
    ['a malformed embedded credential', { verifiableCredential: [{ '@context': [V2], type: ['VerifiableCredential'], credentialSubject: { a: 1 } }] }, /^issuer is required/],
    ['a string that is not a JWT', { verifiableCredential: ['hello'] }, /^verifiableCredential entries must be credentials/],
  ])('%s', (_label, extra, title) => {
    expect(titles(checkPresentationShape(vp('2.0', extra)))).toEqual(expect.arrayContaining([expect.stringMatching(title)]));
  });

  it('an embedded credential\'s problem names where it is', () => {
    const problems = checkPresentationShape(vp('2.0', { verifiableCredential: [base('2.0'), { ...base('2.0'), id: 'bad id' }] }));
    expect(problems).toEqual([expect.objectContaining({ detail: 'verifiableCredential[1].id' })]);
  });

  it('enveloped credentials belong to VCDM 2.0 and carry a data: URL', () => {
    const enveloped = { '@context': V2, type: 'EnvelopedVerifiableCredential', id: 'data:application/vc+jwt,a.b.c' };
    expect(checkPresentationShape(vp('2.0', { verifiableCredential: enveloped }))).toEqual([]);
    expect(titles(checkPresentationShape(vp('1.1', { verifiableCredential: [enveloped] })))).toEqual([expect.stringMatching(/VCDM 2.0 construct/)]);
    expect(titles(checkPresentationShape(vp('2.0', { verifiableCredential: [{ ...enveloped, id: 'https://x' }] })))).toEqual([expect.stringMatching(/data: URL/)]);
  });

  it('1.1 VP-JWT credentials (compact JWTs) are accepted as entries', () => {
    expect(checkPresentationShape(vp('1.1', { verifiableCredential: ['eyJhbGciOiJFZERTQSJ9.eyJ2YyI6e319.c2ln'] }))).toEqual([]);
  });
});

describe('checkValidityPeriod', () => {
  const at = new Date('2025-06-01T00:00:00Z');
  it.each<[string, JsonObject, string[]]>([
    ['1.1 within the period', { ...base('1.1'), expirationDate: '2026-01-01T00:00:00Z' }, []],
    ['1.1 issued in the future', { ...base('1.1'), issuanceDate: '2025-06-01T00:00:01Z' }, ['NOT_YET_VALID']],
    ['1.1 expired', { ...base('1.1'), expirationDate: '2025-05-31T23:59:59Z' }, ['EXPIRED']],
    ['1.1 expiring exactly now is still valid', { ...base('1.1'), expirationDate: '2025-06-01T00:00:00Z' }, []],
    ['2.0 no period at all', base('2.0'), []],
    ['2.0 not valid yet', { ...base('2.0'), validFrom: '2025-07-01T00:00:00+02:00' }, ['NOT_YET_VALID']],
    ['2.0 expired', { ...base('2.0'), validUntil: '2025-05-01T00:00:00Z' }, ['EXPIRED']],
    ['2.0 valid window', { ...base('2.0'), validFrom: '2025-01-01T00:00:00Z', validUntil: '2025-12-01T00:00:00Z' }, []],
    ['2.0 ignores the 1.1 terms', { ...base('2.0'), expirationDate: '2000-01-01T00:00:00Z' }, []],
  ])('%s', (_label, vc, types) => {
    expect(checkValidityPeriod(vc, at).map((p) => p.type)).toEqual(types);
  });
});

describe('prepareCredentialForIssuance', () => {
  const now = new Date('2025-03-01T10:20:30.999Z');
  const unsigned = (version: '1.1' | '2.0', extra: JsonObject = {}): JsonObject => {
    const { issuer: _i, issuanceDate: _d, ...rest } = base(version);
    return { ...rest, ...extra };
  };

  it('fills issuer and issuanceDate (1.1) / validFrom (2.0) in whole seconds, and returns a new object', () => {
    const input = unsigned('1.1');
    const prepared = prepareCredentialForIssuance(input, { issuer: ISSUER, now });
    expect(prepared).toEqual({ ...input, issuer: ISSUER, issuanceDate: '2025-03-01T10:20:30Z' });
    expect(input).not.toHaveProperty('issuer');
    expect(prepareCredentialForIssuance(unsigned('2.0'), { issuer: ISSUER, now })).toEqual({ ...unsigned('2.0'), issuer: ISSUER, validFrom: '2025-03-01T10:20:30Z' });
  });

  it('keeps dates and an issuer object\'s other members', () => {
    const prepared = prepareCredentialForIssuance(unsigned('2.0', { issuer: { name: 'Uni', image: 'https://x/i.png' }, validFrom: '2020-01-01T00:00:00Z' }), { issuer: ISSUER, now });
    expect(prepared.issuer).toEqual({ name: 'Uni', image: 'https://x/i.png', id: ISSUER });
    expect(prepared.validFrom).toBe('2020-01-01T00:00:00Z');
    expect(prepareCredentialForIssuance(unsigned('1.1', { issuer: ISSUER }), { issuer: ISSUER, now }).issuer).toBe(ISSUER);
  });

  it.each<[string, JsonObject, RegExp]>([
    ['a proof already present', unsigned('2.0', { proof: { type: 'DataIntegrityProof' } }), /already has a proof/],
    ['another issuer (string)', unsigned('2.0', { issuer: 'did:example:other' }), /issuer must be the issuing DID/],
    ['another issuer (object id)', unsigned('1.1', { issuer: { id: 'did:example:other' } }), /issuer.id must be the issuing DID/],
    ['an issuer that is neither', unsigned('2.0', { issuer: 42 }), /issuer must be a URL or an object/],
    ['no known context', { ...unsigned('2.0'), '@context': ['https://example.com/ctx'] }, /@context must start with/],
    ['a malformed credential', unsigned('2.0', { credentialSubject: [] }), /credentialSubject must not be an empty list/],
    ['2.0 with a 1.1 term', unsigned('2.0', { expirationDate: '2030-01-01T00:00:00Z' }), /expirationDate is a VCDM 1.1 property/],
  ])('refuses %s with INVALID_INPUT', (_label, credential, message) => {
    expectAppError(() => prepareCredentialForIssuance(credential, { issuer: ISSUER, now }), 'INVALID_INPUT', message);
  });
});
