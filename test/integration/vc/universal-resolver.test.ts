import { createDidResolver } from '../../../src/vc/resolver';
import { type FixtureServer, startFixtureServer } from '../../support/fixture-https';
import { rejection } from '../../support/app-error';

let uni: FixtureServer;
beforeAll(async () => {
  uni = await startFixtureServer();
});
afterAll(async () => uni.close());
beforeEach(() => uni.hits.clear());

const DID = 'did:example:123456789abcdefghi';
const DOC = {
  '@context': ['https://www.w3.org/ns/did/v1'],
  id: DID,
  verificationMethod: [{ id: `${DID}#keys-1`, type: 'Multikey', controller: DID, publicKeyMultibase: 'z6MkiTBz1ymuepAQ4HEHYSF1H8quG5GLVVQR3djdX3mDooWp' }],
  assertionMethod: ['#keys-1'],
};
const RESULT_TYPE = 'application/ld+json;profile="https://w3id.org/did-resolution"';

function result(didDocument: unknown, didDocumentMetadata: Record<string, unknown> = {}): string {
  return JSON.stringify({ '@context': 'https://w3id.org/did-resolution/v1', didDocument, didResolutionMetadata: { contentType: 'application/did+ld+json' }, didDocumentMetadata });
}

test("methods without a local resolver go to the Universal Resolver; its resolution result's didDocument is the answer", async () => {
  uni.route(`/1.0/identifiers/${DID}`, { contentType: RESULT_TYPE, body: result(DOC) });
  const r = createDidResolver({ universalResolverUrl: `${uni.origin}/`, didWeb: false });
  const { didDocument, method } = await r.resolve(DID);
  expect(method).toBe('universal');
  expect(didDocument.id).toBe(DID);
  expect(didDocument.assertionMethod).toEqual([`${DID}#keys-1`]);
  expect((await r.dereferenceMethod(`${DID}#keys-1`)).method.publicKeyMultibase).toBe('z6MkiTBz1ymuepAQ4HEHYSF1H8quG5GLVVQR3djdX3mDooWp');
  // Cached like did:web: one request for both calls.
  expect(uni.hits.get(`/1.0/identifiers/${DID}`)).toBe(1);
  // did:key is never sent away.
  await r.resolve('did:key:z6MkiTBz1ymuepAQ4HEHYSF1H8quG5GLVVQR3djdX3mDooWp');
  expect([...uni.hits.keys()]).toEqual([`/1.0/identifiers/${DID}`]);
});

test('not found, deactivated, invalid, unsupported, mismatched and down map to the resolver errors', async () => {
  const r = createDidResolver({ universalResolverUrl: uni.origin, cache: { ttlSeconds: 0 } });
  uni.route('/1.0/identifiers/did:example:gone', { status: 404, contentType: RESULT_TYPE, body: result(null) });
  uni.route('/1.0/identifiers/did:example:deactivated', { contentType: RESULT_TYPE, body: result({ ...DOC, id: 'did:example:deactivated' }, { deactivated: true }) });
  uni.route('/1.0/identifiers/did:example:bad', { status: 400, body: '{}' });
  uni.route('/1.0/identifiers/did:nope:x', { status: 501, body: '{}' });
  uni.route('/1.0/identifiers/did:example:other', { contentType: RESULT_TYPE, body: result(DOC) });
  uni.route('/1.0/identifiers/did:example:down', { status: 500, body: '{}' });
  expect((await rejection(r.resolve('did:example:gone'))).code).toBe('DID_NOT_FOUND');
  expect((await rejection(r.resolve('did:example:deactivated'))).code).toBe('DID_NOT_FOUND');
  expect((await rejection(r.resolve('did:example:bad'))).code).toBe('INVALID_DID');
  expect((await rejection(r.resolve('did:nope:x'))).code).toBe('UNSUPPORTED_DID_METHOD');
  expect((await rejection(r.resolve('did:example:other'))).code).toBe('DID_NOT_FOUND');
  expect((await rejection(r.resolve('did:example:down'))).code).toBe('SERVICE_UNAVAILABLE');
  uni.route('/1.0/identifiers/did:example:slow', { hang: true });
  const slow = createDidResolver({ universalResolverUrl: uni.origin, fetch: { timeoutMs: 300 } });
  expect((await rejection(slow.resolve('did:example:slow'))).code).toBe('SERVICE_UNAVAILABLE');
});

test('without a Universal Resolver, other methods are UNSUPPORTED_DID_METHOD and nothing is fetched', async () => {
  expect((await rejection(createDidResolver().resolve(DID))).code).toBe('UNSUPPORTED_DID_METHOD');
  expect(uni.hits.size).toBe(0);
});

test('the Universal Resolver may not redirect elsewhere (its private-network allowance stays with its own host)', async () => {
  uni.route('/1.0/identifiers/did:example:redirect', { status: 302, headers: { location: 'http://127.0.0.1:1/elsewhere' } });
  expect((await rejection(createDidResolver({ universalResolverUrl: uni.origin }).resolve('did:example:redirect'))).code).toBe('DID_NOT_FOUND');
});
