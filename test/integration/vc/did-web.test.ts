import { AppError } from '../../../src/errors';
import { createDidResolver, didWebUrl, type DidResolverOptions } from '../../../src/vc/resolver';
import { type FixtureServer, makeSelfSignedCert, type SelfSignedCert, startFixtureServer } from '../../support/fixture-https';
import { rejection } from '../../support/app-error';

let tls: SelfSignedCert;
let server: FixtureServer;
let host: string;

beforeAll(async () => {
  tls = makeSelfSignedCert();
  server = await startFixtureServer(tls);
  host = `localhost%3A${server.port}`;
});
afterAll(async () => server.close());
beforeEach(() => server.hits.clear());

const KEY = 'z6MkiTBz1ymuepAQ4HEHYSF1H8quG5GLVVQR3djdX3mDooWp';

function document(did: string): Record<string, unknown> {
  return {
    '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/multikey/v1'],
    id: did,
    verificationMethod: [{ id: '#key-1', type: 'Multikey', controller: did, publicKeyMultibase: KEY }],
    assertionMethod: ['#key-1'],
  };
}

function serve(path: string, did: string): void {
  server.route(path, { body: JSON.stringify(document(did)), contentType: 'application/did+json' });
}

/** A resolver that trusts the test CA and may reach 127.0.0.1, as CREDGATE_FETCH_ALLOW_PRIVATE/CA_FILE allow. */
function resolver(extra: Partial<DidResolverOptions> = {}) {
  return createDidResolver({ ...extra, fetch: { ca: tls.cert, allowPrivate: true, timeoutMs: 2000, maxBytes: 64 * 1024, ...extra.fetch } });
}

describe('did:web → URL (did:web spec §3.2)', () => {
  test('domain, port and path forms', () => {
    expect(didWebUrl('did:web:w3c-ccg.github.io')).toBe('https://w3c-ccg.github.io/.well-known/did.json');
    expect(didWebUrl('did:web:w3c-ccg.github.io:user:alice')).toBe('https://w3c-ccg.github.io/user/alice/did.json');
    expect(didWebUrl('did:web:example.com%3A3000:user:alice')).toBe('https://example.com:3000/user/alice/did.json');
    expect(didWebUrl('did:web:Example.COM')).toBe('https://example.com/.well-known/did.json');
  });

  test('IP addresses, climbing paths, bad ports and encodings are INVALID_DID', () => {
    for (const bad of ['did:web:127.0.0.1', 'did:web:10.0.0.1%3A443', 'did:web:example.com:..:x', 'did:web:example.com:a%2Fb', 'did:web:example.com%3A99999', 'did:web:exa_mple.com', 'did:web:example.com%3', 'did:web:user%40example.com', 'did:key:z6Mk']) {
      let caught: unknown;
      try {
        didWebUrl(bad);
      } catch (e) {
        caught = e;
      }
      expect((caught as AppError).code).toBe('INVALID_DID');
    }
  });
});

describe('did:web over HTTPS (a real local server with a self-signed certificate)', () => {
  test('resolves /.well-known/did.json; relative method ids become absolute', async () => {
    const did = `did:web:${host}`;
    serve('/.well-known/did.json', did);
    const r = resolver();
    const { didDocument, method } = await r.resolve(did);
    expect(method).toBe('web');
    expect(didDocument.id).toBe(did);
    expect(didDocument.assertionMethod).toEqual([`${did}#key-1`]);
    const deref = await r.dereferenceMethod(`${did}#key-1`);
    expect(deref.method).toEqual({ id: `${did}#key-1`, type: 'Multikey', controller: did, publicKeyMultibase: KEY });
    expect((await rejection(r.dereferenceMethod(did))).code).toBe('INVALID_DID');
    expect((await rejection(r.dereferenceMethod(`${did}#key-2`))).code).toBe('DID_NOT_FOUND');
  });

  test('path DIDs resolve /user/alice/did.json', async () => {
    const did = `did:web:${host}:user:alice`;
    serve('/user/alice/did.json', did);
    expect((await resolver().resolve(did)).didDocument.id).toBe(did);
    expect(server.hits.get('/user/alice/did.json')).toBe(1);
  });

  test("a document whose id is another DID is refused (a host answers only for its own DIDs)", async () => {
    const did = `did:web:${host}:mismatch`;
    server.route('/mismatch/did.json', { body: JSON.stringify(document(`did:web:${host}:someone-else`)) });
    const e = await rejection(resolver().resolve(did));
    expect(e.code).toBe('DID_NOT_FOUND');
    expect(e.message).toMatch(/id is not the DID/);
  });

  test('404 is DID_NOT_FOUND; 5xx is SERVICE_UNAVAILABLE; HTML is refused', async () => {
    expect((await rejection(resolver().resolve(`did:web:${host}:nobody`))).code).toBe('DID_NOT_FOUND');
    server.route('/broken/did.json', { status: 502, body: 'bad gateway' });
    expect((await rejection(resolver().resolve(`did:web:${host}:broken`))).code).toBe('SERVICE_UNAVAILABLE');
    server.route('/html/did.json', { contentType: 'text/html', body: JSON.stringify(document(`did:web:${host}:html`)) });
    const e = await rejection(resolver().resolve(`did:web:${host}:html`));
    expect(e.code).toBe('DID_NOT_FOUND');
    expect(e.message).toMatch(/text\/html/);
  });

  test('a host that does not answer in time is SERVICE_UNAVAILABLE', async () => {
    server.route('/slow/did.json', { hang: true });
    const e = await rejection(resolver({ fetch: { timeoutMs: 300 } }).resolve(`did:web:${host}:slow`));
    expect(e.code).toBe('SERVICE_UNAVAILABLE');
    expect(e.message).toMatch(/did not answer/);
  });

  test('a document over the size cap is refused, declared or streamed', async () => {
    const big = JSON.stringify({ ...document(`did:web:${host}:big`), padding: 'x'.repeat(100_000) });
    server.route('/big/did.json', { body: big });
    server.route('/bigchunked/did.json', { body: big.replace(':big', ':bigchunked'), chunked: true });
    for (const p of ['big', 'bigchunked']) {
      const e = await rejection(resolver().resolve(`did:web:${host}:${p}`));
      expect(e.code).toBe('DID_NOT_FOUND');
      expect(e.message).toMatch(/more than 65536 bytes/);
    }
  });

  test('by default a name that resolves to a loopback address is refused before any request', async () => {
    const did = `did:web:${host}:guarded`;
    serve('/guarded/did.json', did);
    const guarded = createDidResolver({ fetch: { ca: tls.cert } });
    const e = await rejection(guarded.resolve(did));
    expect(e.code).toBe('DID_NOT_FOUND');
    expect(e.message).toMatch(/localhost does not resolve to a public address/);
    expect(e.message).not.toMatch(/127\.0\.0\.1|::1/);
    expect(server.hits.get('/guarded/did.json')).toBeUndefined();
  });

  test('a certificate that is not trusted is refused', async () => {
    const did = `did:web:${host}:untrusted`;
    serve('/untrusted/did.json', did);
    const e = await rejection(createDidResolver({ fetch: { allowPrivate: true } }).resolve(did));
    expect(e.code).toBe('SERVICE_UNAVAILABLE');
  });

  test('answers are cached until the TTL passes; "not found" is remembered briefly', async () => {
    let now = 1_000_000;
    const r = resolver({ cache: { ttlSeconds: 60, negativeTtlSeconds: 10, now: () => now } });
    const did = `did:web:${host}:cached`;
    serve('/cached/did.json', did);
    await r.resolve(did);
    await r.resolve(did);
    await r.dereferenceMethod(`${did}#key-1`);
    expect(server.hits.get('/cached/did.json')).toBe(1);
    now += 59_000;
    await r.resolve(did);
    expect(server.hits.get('/cached/did.json')).toBe(1);
    now += 2000;
    await r.resolve(did);
    expect(server.hits.get('/cached/did.json')).toBe(2);

    const missing = `did:web:${host}:later`;
    expect((await rejection(r.resolve(missing))).code).toBe('DID_NOT_FOUND');
    serve('/later/did.json', missing);
    expect((await rejection(r.resolve(missing))).code).toBe('DID_NOT_FOUND');
    expect(server.hits.get('/later/did.json')).toBe(1);
    now += 11_000;
    expect((await r.resolve(missing)).didDocument.id).toBe(missing);
    expect(server.hits.get('/later/did.json')).toBe(2);
  });

  test('outages are not cached', async () => {
    const r = resolver({ cache: { ttlSeconds: 60 } });
    server.route('/flaky/did.json', { status: 503 });
    expect((await rejection(r.resolve(`did:web:${host}:flaky`))).code).toBe('SERVICE_UNAVAILABLE');
    serve('/flaky/did.json', `did:web:${host}:flaky`);
    expect((await r.resolve(`did:web:${host}:flaky`)).didDocument.id).toBe(`did:web:${host}:flaky`);
  });

  test('the cache is bounded', async () => {
    const r = resolver({ cache: { ttlSeconds: 60, maxEntries: 1 } });
    for (const p of ['a1', 'a2']) serve(`/${p}/did.json`, `did:web:${host}:${p}`);
    await r.resolve(`did:web:${host}:a1`);
    await r.resolve(`did:web:${host}:a2`);
    await r.resolve(`did:web:${host}:a1`);
    expect(server.hits.get('/a1/did.json')).toBe(2);
  });

  test('concurrent resolutions of one DID share one request', async () => {
    const did = `did:web:${host}:together`;
    serve('/together/did.json', did);
    const r = resolver();
    const docs = await Promise.all(Array.from({ length: 8 }, () => r.resolve(did)));
    expect(new Set(docs.map((d) => d.didDocument.id))).toEqual(new Set([did]));
    expect(server.hits.get('/together/did.json')).toBe(1);
  });

  test('redirects are followed only to https and re-checked', async () => {
    const did = `did:web:${host}:moved`;
    server.route('/moved/did.json', { status: 302, headers: { location: `http://localhost:${server.port}/plain/did.json` } });
    const e = await rejection(resolver().resolve(did));
    expect(e.code).toBe('DID_NOT_FOUND');
    expect(e.message).toMatch(/use https/);
    server.route('/moved2/did.json', { status: 301, headers: { location: '/target/did.json' } });
    server.route('/target/did.json', { body: JSON.stringify(document(`did:web:${host}:moved2`)) });
    expect((await resolver().resolve(`did:web:${host}:moved2`)).didDocument.id).toBe(`did:web:${host}:moved2`);
  });
});
