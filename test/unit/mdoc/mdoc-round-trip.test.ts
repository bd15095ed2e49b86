import { cborDecode, DataItem, DateOnly } from '@owf/mdoc';
import { AppError } from '../../../src/errors';
import {
  createDeviceResponse,
  issueMdoc,
  jwkThumbprint,
  mdocClaimPath,
  mdocDoctype,
  mdocDoctypes,
  mdocNamespacesFromAttributes,
  readIssuerSigned,
  verifyDeviceResponse,
} from '../../../src/formats/mdoc';
import { anchorsTrust, deviceKey, testIssuer, type TestIssuer } from './support';

const PID = 'eu.europa.ec.eudi.pid.1';
const MDL = 'org.iso.18013.5.1.mDL';
const MDL_NS = 'org.iso.18013.5.1';
const NOW = new Date('2026-06-01T12:00:00Z');
const REQUEST = { clientId: 'x509_san_dns:verifier.example', nonce: 'n-0S6_WzA2Mj', responseUri: 'https://verifier.example/oid4vp/response' };
const PID_ATTRIBUTES = {
  familyName: 'Mustermann',
  given_name: 'Erika',
  birthDate: '1964-08-12',
  birth_place: 'Berlin',
  nationality: 'DE',
  expiry_date: '2031-01-01',
  issuing_authority: 'Bundesdruckerei',
  issuing_country: 'DE',
  age_over_18: true,
  age_in_years: '62',
};

let issuer: TestIssuer;
let holder: ReturnType<typeof deviceKey>;

beforeAll(async () => {
  issuer = await testIssuer();
  holder = deviceKey();
});

const issuePid = (): Promise<Uint8Array> =>
  issueMdoc({
    docType: PID,
    namespaces: mdocNamespacesFromAttributes(PID, PID_ATTRIBUTES),
    signer: issuer.signer,
    deviceKeyJwk: holder.publicJwk,
    validFrom: new Date('2026-01-15T00:00:00Z'),
    validUntil: new Date('2027-01-15T00:00:00Z'),
  });

/** The decoded elementValue of one element, straight from the IssuerSigned CBOR. */
function rawElement(issuerSigned: Uint8Array, namespace: string, element: string): unknown {
  const decoded = cborDecode<Map<string, Map<string, DataItem<Map<string, unknown>>[]>>>(issuerSigned);
  const item = decoded.get('nameSpaces')?.get(namespace)?.find((i) => i.data.get('elementIdentifier') === element);
  return item?.data.get('elementValue');
}

describe('mdoc doctype configurations', () => {
  it('configure the EU PID and the ISO mDL, each with its namespace', () => {
    expect(mdocDoctypes().map((d) => d.docType).sort()).toEqual([PID, MDL]);
    expect(Object.keys(mdocDoctype(PID)?.namespaces ?? {})).toEqual([PID]);
    expect(Object.keys(mdocDoctype(MDL)?.namespaces ?? {})).toEqual([MDL_NS]);
    expect(mdocDoctype('org.example.unknown')).toBeUndefined();
  });

  it('map template attributes (names and aliases) onto typed elements', () => {
    const ns = mdocNamespacesFromAttributes(PID, PID_ATTRIBUTES)[PID] ?? {};
    expect(ns.family_name).toBe('Mustermann');
    expect(ns.birth_date).toBeInstanceOf(DateOnly);
    expect(String(ns.birth_date)).toBe('1964-08-12');
    expect(ns.nationality).toEqual(['DE']);
    expect(ns.age_in_years).toBe(62);
    expect(ns.age_over_18).toBe(true);
  });

  it('name the claims path [namespace, element] each attribute is offered and requested under', () => {
    expect(mdocClaimPath(PID, 'birthDate')).toEqual([PID, 'birth_date']);
    expect(mdocClaimPath(MDL, 'familyName')).toEqual([MDL_NS, 'family_name']);
    expect(mdocClaimPath(MDL, 'nachname', { nachname: { namespace: MDL_NS, element: 'family_name' } })).toEqual([MDL_NS, 'family_name']);
    expect(mdocClaimPath(MDL, 'shoeSize')).toBeUndefined();
    expect(mdocClaimPath('org.example.unknown', 'family_name')).toBeUndefined();
  });

  it('take an explicit mapping for attributes named otherwise', () => {
    const ns = mdocNamespacesFromAttributes(PID, { ...PID_ATTRIBUTES, nachname: 'Gabler', familyName: undefined }, { nachname: { namespace: PID, element: 'family_name' } });
    expect(ns[PID]?.family_name).toBe('Gabler');
  });

  it('refuse unknown attributes, ill-typed values and missing mandatory elements, naming each field', () => {
    const attempt = (): unknown =>
      mdocNamespacesFromAttributes(PID, { ...PID_ATTRIBUTES, birthDate: '1964-02-30', shoeSize: 42, given_name: undefined, age_over_18: 'yes' });
    expect(attempt).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    try {
      attempt();
    } catch (e) {
      const fields = ((e as { details?: { field: string }[] }).details ?? []).map((d) => d.field).sort();
      expect(fields).toEqual(['age_over_18', 'birthDate', 'given_name', 'shoeSize']);
    }
  });
});

describe('mdoc issuance and OID4VP presentation round trip', () => {
  it('issues a PID whose birth_date is a full-date (tag 1004) and whose MSO names the holder key and the signer chain', async () => {
    const issuerSigned = await issuePid();
    expect(rawElement(issuerSigned, PID, 'birth_date')).toBeInstanceOf(DateOnly);
    expect(Buffer.from(issuerSigned).toString('hex')).toContain('d903ec6a313936342d30382d3132'); // 1004("1964-08-12")
    const summary = readIssuerSigned(Buffer.from(issuerSigned).toString('base64url'));
    expect(summary.docType).toBe(PID);
    expect(summary.x5c).toEqual(issuer.signer.x5c);
    expect(summary.deviceKeyJwk).toEqual({ kty: 'EC', crv: 'P-256', x: holder.publicJwk.x, y: holder.publicJwk.y });
    expect(summary.validFrom).toBe('2026-01-15T00:00:00Z');
    expect(summary.validUntil).toBe('2027-01-15T00:00:00Z');
    expect(summary.claims[PID]?.given_name).toBe('Erika');
  });

  it('discloses only the requested elements and verifies them', async () => {
    const issuerSigned = await issuePid();
    const response = await createDeviceResponse({ issuerSigned, holder, request: { [PID]: ['given_name', 'birth_date', 'age_over_18', 'not_issued'] }, ...REQUEST });
    const result = await verifyDeviceResponse(response, { ...REQUEST, trust: anchorsTrust([issuer.rootDer]), now: NOW, expectedDocType: PID });
    expect(result.problems).toEqual([]);
    expect(result.verified).toBe(true);
    expect(result.documents).toHaveLength(1);
    expect(result.documents[0]).toMatchObject({ docType: PID, trustedBy: 'x5c', claims: { [PID]: { given_name: 'Erika', birth_date: '1964-08-12', age_over_18: true } } });
    expect(Object.keys(result.documents[0]?.claims[PID] ?? {}).sort()).toEqual(['age_over_18', 'birth_date', 'given_name']);
    expect(result.documents[0]?.deviceKeyJwk).toEqual({ kty: 'EC', crv: 'P-256', x: holder.publicJwk.x, y: holder.publicJwk.y });
  });

  it('verifies an encrypted-response presentation (jwkThumbprint in the handover) given as base64url text', async () => {
    const issuerSigned = await issuePid();
    const encryptionKey = deviceKey().publicJwk;
    const request = { ...REQUEST, jwkThumbprint: jwkThumbprint(encryptionKey) };
    const response = await createDeviceResponse({ issuerSigned: Buffer.from(issuerSigned).toString('base64url'), holder, request: { [PID]: ['family_name'] }, ...request });
    const vpToken = Buffer.from(response).toString('base64url');
    const result = await verifyDeviceResponse(vpToken, { ...request, trust: anchorsTrust([issuer.rootDer]), now: NOW });
    expect(result).toMatchObject({ verified: true, problems: [], documents: [{ claims: { [PID]: { family_name: 'Mustermann' } } }] });
  });

  it('issues and verifies an mDL with driving privileges and a portrait', async () => {
    const portrait = Buffer.from('ffd8ffe000104a464946', 'hex');
    const namespaces = mdocNamespacesFromAttributes(MDL, {
      family_name: 'Doe',
      given_name: 'Jane',
      birth_date: '1990-03-04',
      issue_date: '2026-01-10',
      expiry_date: '2036-01-10',
      issuing_country: 'DE',
      issuing_authority: 'KBA',
      document_number: 'D1234567',
      portrait: portrait.toString('base64'),
      driving_privileges: [{ vehicle_category_code: 'B', issue_date: '2010-05-01', expiry_date: '2036-01-10', codes: [{ code: '78' }] }],
      un_distinguishing_sign: 'D',
    });
    const issuerSigned = await issueMdoc({ docType: MDL, namespaces, signer: issuer.signer, deviceKeyJwk: holder.publicJwk, validFrom: new Date('2026-01-15T00:00:00Z'), validUntil: new Date('2027-01-15T00:00:00Z') });
    const privileges = rawElement(issuerSigned, MDL_NS, 'driving_privileges') as Map<string, unknown>[];
    expect(privileges[0]?.get('issue_date')).toBeInstanceOf(DateOnly);
    const response = await createDeviceResponse({ issuerSigned, holder, request: { [MDL_NS]: ['driving_privileges', 'portrait', 'family_name'] }, ...REQUEST });
    const result = await verifyDeviceResponse(response, { ...REQUEST, trust: anchorsTrust([issuer.rootDer]), now: NOW, expectedDocType: MDL });
    expect(result.problems).toEqual([]);
    expect(result.documents[0]?.claims[MDL_NS]).toEqual({
      family_name: 'Doe',
      portrait: portrait.toString('base64url'),
      driving_privileges: [{ vehicle_category_code: 'B', issue_date: '2010-05-01', expiry_date: '2036-01-10', codes: [{ code: '78' }] }],
    });
  });

  it('refuses to issue without a certificate chain, with a private device key, backwards validity or an unknown element', async () => {
    const base = { docType: PID, namespaces: mdocNamespacesFromAttributes(PID, PID_ATTRIBUTES), signer: issuer.signer, deviceKeyJwk: holder.publicJwk, validFrom: new Date('2026-01-15T00:00:00Z'), validUntil: new Date('2027-01-15T00:00:00Z') };
    const refused = expect.objectContaining({ code: 'INVALID_INPUT' });
    const { x5c: _dropped, ...chainless } = issuer.signer;
    await expect(issueMdoc({ ...base, signer: chainless })).rejects.toEqual(refused);
    await expect(issueMdoc({ ...base, deviceKeyJwk: holder.privateJwk })).rejects.toEqual(refused);
    await expect(issueMdoc({ ...base, validUntil: base.validFrom })).rejects.toEqual(refused);
    await expect(issueMdoc({ ...base, namespaces: { [PID]: { given_name: 'Erika', favourite_colour: 'green' } } })).rejects.toEqual(refused);
    await expect(issueMdoc({ ...base, namespaces: { [PID]: { birth_date: '12.08.1964' } } })).rejects.toEqual(refused);
    await expect(issueMdoc({ ...base, deviceKeyJwk: { kty: 'OKP', crv: 'Ed25519', x: holder.publicJwk.x } })).rejects.toEqual(refused);
  });

  it('keeps an element named __proto__ of an extension namespace as data', async () => {
    const namespaces = JSON.parse('{"org.example.extra": {"__proto__": {"polluted": true}}}') as Record<string, Record<string, unknown>>;
    const issuerSigned = await issueMdoc({ docType: PID, namespaces, signer: issuer.signer, deviceKeyJwk: holder.publicJwk, validFrom: new Date('2026-01-15T00:00:00Z'), validUntil: new Date('2027-01-15T00:00:00Z') });
    const response = await createDeviceResponse({ issuerSigned, holder, request: { 'org.example.extra': ['__proto__'] }, ...REQUEST });
    const result = await verifyDeviceResponse(response, { ...REQUEST, trust: anchorsTrust([issuer.rootDer]), now: NOW });
    expect(result.verified).toBe(true);
    const extra = result.documents[0]?.claims['org.example.extra'] ?? {};
    expect(Object.getOwnPropertyDescriptor(extra, '__proto__')?.value).toEqual({ polluted: true });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('carries elements of a namespace it has no configuration for (a domestic extension) as given', async () => {
    const namespaces = { ...mdocNamespacesFromAttributes(PID, PID_ATTRIBUTES), 'org.example.extra': { loyalty: { tier: 'gold', points: 10 } } };
    const issuerSigned = await issueMdoc({ docType: PID, namespaces, signer: issuer.signer, deviceKeyJwk: holder.publicJwk, validFrom: new Date('2026-01-15T00:00:00Z'), validUntil: new Date('2027-01-15T00:00:00Z') });
    const response = await createDeviceResponse({ issuerSigned, holder, request: { 'org.example.extra': ['loyalty'] }, ...REQUEST });
    const result = await verifyDeviceResponse(response, { ...REQUEST, trust: anchorsTrust([issuer.rootDer]), now: NOW });
    expect(result.verified).toBe(true);
    expect(result.documents[0]?.claims).toEqual({ 'org.example.extra': { loyalty: { tier: 'gold', points: 10 } } });
  });
});

describe('mdoc status (Token Status List reference in the MSO)', () => {
  const STATUS = { uri: 'https://issuer.example/status/1', idx: 4711 };
  const issueWithStatus = (): Promise<Uint8Array> =>
    issueMdoc({ docType: PID, namespaces: mdocNamespacesFromAttributes(PID, PID_ATTRIBUTES), signer: issuer.signer, deviceKeyJwk: holder.publicJwk, validFrom: new Date('2026-01-15T00:00:00Z'), validUntil: new Date('2027-01-15T00:00:00Z'), status: STATUS });

  it('names its status list entry in the MSO, and the verifier asks the status checker about it', async () => {
    const issuerSigned = await issueWithStatus();
    expect(readIssuerSigned(issuerSigned).status).toEqual(STATUS);
    const response = await createDeviceResponse({ issuerSigned, holder, request: { [PID]: ['given_name'] }, ...REQUEST });
    const asked: unknown[] = [];
    const valid = await verifyDeviceResponse(response, { ...REQUEST, trust: anchorsTrust([issuer.rootDer]), now: NOW, checkStatus: async (ref) => (asked.push(ref), 0) });
    expect(valid).toMatchObject({ verified: true, documents: [{ status: STATUS }] });
    expect(asked).toEqual([STATUS]);
  });

  it('a revoked or suspended mdoc, or an unreadable list, does not verify; a checker fault is not hidden', async () => {
    const response = await createDeviceResponse({ issuerSigned: await issueWithStatus(), holder, request: { [PID]: ['given_name'] }, ...REQUEST });
    const codesWith = async (checkStatus: () => Promise<number>): Promise<string[]> =>
      (await verifyDeviceResponse(response, { ...REQUEST, trust: anchorsTrust([issuer.rootDer]), now: NOW, checkStatus })).problems.map((p) => p.code);
    expect(await codesWith(async () => 1)).toEqual(['STATUS_INVALID']);
    expect(await codesWith(async () => 2)).toEqual(['STATUS_INVALID']);
    expect(await codesWith(async () => Promise.reject(new AppError('VERIFICATION_FAILED', 'list signature invalid')))).toEqual(['STATUS_UNAVAILABLE']);
    await expect(codesWith(async () => Promise.reject(new Error('database down')))).rejects.toThrow('database down');
  });

  it('refuses a status reference that is not an http(s) uri with a non-negative index', async () => {
    const base = { docType: PID, namespaces: mdocNamespacesFromAttributes(PID, PID_ATTRIBUTES), signer: issuer.signer, deviceKeyJwk: holder.publicJwk, validFrom: new Date('2026-01-15T00:00:00Z'), validUntil: new Date('2027-01-15T00:00:00Z') };
    await expect(issueMdoc({ ...base, status: { uri: 'ftp://x/list', idx: 1 } })).rejects.toEqual(expect.objectContaining({ code: 'INVALID_INPUT' }));
    await expect(issueMdoc({ ...base, status: { uri: STATUS.uri, idx: -1 } })).rejects.toEqual(expect.objectContaining({ code: 'INVALID_INPUT' }));
  });
});
