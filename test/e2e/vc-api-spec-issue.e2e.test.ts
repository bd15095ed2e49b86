import { randomUUID } from 'node:crypto';
import { useTestServer } from '../support/harness';
import { type VcApiTransport, graphqlVcApi, restVcApi } from '../support/vc-api-transports';

/*
 * Issue 17, VC-API issuance against the specifications (VC-API issue, VCDM 2.0 §4-§5), through
 * REST and GraphQL with the same assertions:
 * - `issuer` is required, like every other required member (nothing is filled in);
 * - status entries are added only when options.credentialStatus asks;
 * - VCDM 2.0 credentials the spec allows are issued (several contexts incl. examples/v2, any URL
 *   id, more types, language-tagged name/description on the credential and on the issuer);
 * - what the spec forbids is refused with 400 and nothing is written.
 */

const server = useTestServer();
type Json = Record<string, any>;

const V1 = 'https://www.w3.org/2018/credentials/v1';
const V2 = 'https://www.w3.org/ns/credentials/v2';
const EXAMPLES = 'https://www.w3.org/ns/credentials/examples/v2';
const SRI = 'sha384-NSOcNpmdIVUxIJGvGUoe22FjTWrXiaXlsZ8q6912LdnR3KraQO2n75Ica4wK4Qeg';
const MULTIBASE = 'uJKGMkOmFbVJhEfKTduMC2XCyvRAYLjOVmZWwIH1wQ7k';

function ok<T>(o: { ok: true; data: T } | { ok: false; status: number; code?: string }): T {
  if (!o.ok) throw new Error(`expected success, got ${o.status} ${o.code}`);
  return o.data;
}

const countStatusRows = async (): Promise<number> => server.app.db.prisma.vcCredentialStatus.count();

describe.each([['REST'], ['GraphQL']])('VC-API issuance rules through %s', (name) => {
  let t: VcApiTransport;
  let key: string;
  let verifier: string;
  let did: string;
  const v2 = (extra: Json = {}): Json => ({ '@context': [V2], type: ['VerifiableCredential'], issuer: did, credentialSubject: { id: 'did:example:subject' }, ...extra });

  beforeAll(async () => {
    t = name === 'REST' ? restVcApi(server) : graphqlVcApi(server);
    const tenant = `spec-issue-${randomUUID().slice(0, 8)}`;
    key = await server.apiKey(tenant, ['issuer']);
    verifier = await server.apiKey(tenant, ['verifier']);
    // Listing the instances creates the default one: its DID is what credentials name as issuer.
    const listed = ok(await t.listIssuers(key));
    expect(listed.filter((i) => i.default)).toHaveLength(1);
    did = listed.find((i) => i.default)!.issuer;
  });

  test('a credential without issuer is refused (400), as is one without an issuer id; nothing is written', async () => {
    const before = await countStatusRows();
    const { issuer: _i, ...unnamed } = v2({ id: `urn:uuid:${randomUUID()}` });
    const revocable = { credentialStatus: { type: 'BitstringStatusListEntry', statusPurpose: 'revocation' } };
    expect(await t.issue(key, { credential: unnamed, options: revocable })).toMatchObject({ ok: false, status: 400 });
    expect(await t.issue(key, { credential: { ...unnamed, issuer: { name: 'Example University' } } })).toMatchObject({ ok: false, status: 400 });
    expect(await t.issue(key, { credential: { ...unnamed, '@context': [V1], issuanceDate: '2024-01-01T00:00:00Z' } })).toMatchObject({ ok: false, status: 400 });
    expect(await countStatusRows()).toBe(before);
    // Named, it issues, as a URL or as an object with an id.
    expect(ok(await t.issue(key, { credential: v2() })).verifiableCredential['issuer']).toBe(did);
    expect(ok(await t.issue(key, { credential: v2({ issuer: { id: did, name: 'Example University' } }) })).verifiableCredential['issuer']).toEqual({ id: did, name: 'Example University' });
  });

  test('no status entry unless asked: a VCDM 1.1 credential with an id keeps its own contexts and verifies', async () => {
    const before = await countStatusRows();
    const credential = { '@context': [V1], id: `urn:uuid:${randomUUID()}`, type: ['VerifiableCredential'], issuer: did, credentialSubject: { id: 'did:example:subject' } };
    const { verifiableCredential: vc } = ok(await t.issue(key, { credential }));
    expect(vc['credentialStatus']).toBeUndefined();
    expect(vc['@context']).toEqual([V1, 'https://w3id.org/security/data-integrity/v2']);
    expect(await countStatusRows()).toBe(before);
    expect(ok(await t.verify(verifier, { verifiableCredential: vc }))).toMatchObject({ verified: true, checks: ['proof', 'issuer', 'validity'] });
  });

  test('asked for, the entry is added ({ type } alone means revocation) and the status check runs', async () => {
    const credential = v2({ id: `urn:uuid:${randomUUID()}` });
    const { verifiableCredential: vc } = ok(await t.issue(key, { credential, options: { credentialStatus: { type: 'BitstringStatusListEntry' } } }));
    expect(vc['credentialStatus']).toMatchObject({ type: 'BitstringStatusListEntry', statusPurpose: 'revocation' });
    const r = ok(await t.verify(verifier, { verifiableCredential: vc }));
    expect(r).toEqual({ verified: true, checks: ['proof', 'issuer', 'validity', 'credentialStatus'], warnings: [], errors: [] });
    ok(await t.updateStatus(key, { credentialId: credential['id'], statusPurpose: 'revocation', status: true }));
    expect(ok(await t.verify(verifier, { verifiableCredential: vc })).verified).toBe(false);
  });

  test.each<[string, Json]>([
    ['several contexts incl. examples/v2, an additional type', { '@context': [V2, EXAMPLES], type: ['VerifiableCredential', 'ExampleAlumniCredential'], credentialSubject: { id: 'did:example:s', alumniOf: 'Example University' } }],
    ['an inline context object', { '@context': [V2, { ExampleVerifiableCredential: 'https://example.org/#ExampleVerifiableCredential' }], type: ['VerifiableCredential', 'ExampleVerifiableCredential'] }],
    ['a URL id of any scheme', { '@context': [V2, EXAMPLES], id: 'https://example.org/credentials/1', credentialSubject: { description: 'A single id test' } }],
    ['types as URLs, in any order', { type: ['https://example.org/#ExampleCredential1', 'VerifiableCredential'] }],
    ['name and description as language value objects', { name: { '@value': 'Example Credential', '@language': 'en', '@direction': 'ltr' }, description: [{ '@value': 'Dog', '@language': 'en' }, { '@value': 'Chien', '@language': 'fr' }] }],
    ['typed termsOfUse, evidence and refreshService', { '@context': [V2, { OdrlPolicy2017: 'https://example.org/examples#OdrlPolicy2017', DocumentVerification2018: 'https://example.org/examples#DocumentVerification2018' }], termsOfUse: [{ type: 'OdrlPolicy2017' }], evidence: { type: 'DocumentVerification2018' }, refreshService: { type: 'https://example.org/#ExampleTestSuiteRefreshService', id: 'did:example:refresh/1' } }],
    ['relatedResource with digestSRI, digestMultibase and mediaType', { relatedResource: [{ id: V2, mediaType: 'application/ld+json', digestSRI: SRI }, { id: 'https://example.org/other', digestMultibase: MULTIBASE }] }],
    ['a far-future validFrom, a timezone offset, milliseconds', { validFrom: '4023-02-26T01:02:58.447Z', validUntil: '4023-02-25T19:21:29-06:00' }],
  ])('VCDM 2.0 allows %s: issued and verified', async (_what, extra) => {
    const { verifiableCredential: vc } = ok(await t.issue(key, { credential: v2(extra) }));
    const r = ok(await t.verify(verifier, { verifiableCredential: vc, options: { checks: ['proof', 'issuer'] } }));
    expect(r).toEqual({ verified: true, checks: ['proof', 'issuer'], warnings: [], errors: [] });
  });

  test.each<[string, Json]>([
    ['issuer name with a member other than @value/@language/@direction', { issuer: { id: '<did>', name: { '@value': 'ExampleIssuer', '@language': 'en', url: 'did:example:issuer' } } }],
    ['credential description with an extra member', { description: { '@value': 'An Example Credential', '@language': 'en', url: 'did:example:credential' } }],
    ['termsOfUse without type', { termsOfUse: { id: 'did:example:terms/1' } }],
    ['evidence without type', { evidence: {} }],
    ['refreshService without type', { refreshService: { id: 'did:example:refresh/1' } }],
    ['relatedResource as strings', { relatedResource: [V2] }],
    ['relatedResource without id', { relatedResource: [{ digestMultibase: MULTIBASE }] }],
    ['relatedResource with duplicate ids', { relatedResource: [{ id: V2, digestSRI: SRI }, { id: V2, digestMultibase: MULTIBASE }] }],
    ['relatedResource without a digest', { relatedResource: [{ id: V2 }] }],
    ['relatedResource digestSRI not base64', { relatedResource: [{ id: V2, digestSRI: 'sha384-_rCVIV7fSXXTNIvpiq26jRDyj8JG8TDjij-tD0ewLk4JpnXEz6a5AeeY_1qQ0d0P' }] }],
    ['a context entry that is not a URL', { '@context': [V2, 'https ://not-a-url/contexts/example/v1'] }],
    ['a context entry that is a number', { '@context': [V2, 123192875] }],
    ['an id that is a list', { id: ['https://example.org/credentials/1', 'https://example.net/credentials/1'] }],
    ['a subject id that is not a single URL', { credentialSubject: { id: ['did:example:one', 'did:example:two'] } }],
    ['a type the contexts do not map', { '@context': [V2, { '@vocab': null }], type: ['VerifiableCredential', 'ExampleTestCredential'] }],
    ['a redefined protected term', { '@context': [V2, { VerifiableCredential: 'https://example.org/#BadVerifiableCredential' }] }],
    ['validUntil before validFrom', { validFrom: '2030-01-01T00:00:00Z', validUntil: '2020-01-01T00:00:00Z' }],
    ['a validFrom that is no dateTimeStamp', { validFrom: 'Sat 25 Feb 2023 07:16:31 PM CST' }],
    ['a status entry without type', { credentialStatus: { id: 'did:example:status' } }],
    ['a schema without id', { credentialSchema: { type: 'https://example.org/#ExampleTestSuiteSchema' } }],
  ])('VCDM 2.0 refuses %s (400, nothing written)', async (_what, extra) => {
    const before = await countStatusRows();
    const credential = JSON.parse(JSON.stringify(v2(extra)).replaceAll('<did>', did)) as Json;
    const answer = await t.issue(key, { credential: { id: `urn:uuid:${randomUUID()}`, ...credential }, options: { credentialStatus: { type: 'BitstringStatusListEntry' } } });
    expect(answer).toMatchObject({ ok: false, status: 400 });
    expect(await countStatusRows()).toBe(before);
  });
});
