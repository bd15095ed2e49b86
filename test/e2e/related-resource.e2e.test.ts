import { createHash, randomUUID } from 'node:crypto';
import { DEFAULT_VERIFICATION_LIMITS } from '../../src/vc/net/request-budget';
import { type FixtureServer, makeSelfSignedCert, startFixtureServer } from '../support/fixture-https';
import { type TestServer, useTestServer } from '../support/harness';
import { type VcResult, vcTransports } from '../support/vc-api-transports';
import { caFile, hitsUnder, selfIssuedCredential, selfIssuer } from '../support/vc/self-issued';

/*
 * VCDM 2.0 §5.3 Integrity of Related Resources at verification: each relatedResource is fetched
 * (guarded fetch, the request's budget) and its bytes compared with digestSRI and/or
 * digestMultibase. Matching bytes verify; changed bytes, an unreachable resource and too many
 * resources do not; the fixture server counts what the service fetched. REST and GraphQL agree.
 */

let resources: FixtureServer;
let ca: ReturnType<typeof caFile>;
beforeAll(async () => {
  const tls = makeSelfSignedCert();
  resources = await startFixtureServer(tls);
  ca = caFile(tls);
});
afterAll(async () => {
  await resources.close();
  ca.remove();
});

const server: TestServer = useTestServer(() => ({
  env: { didResolution: { fetchTimeoutMs: 10_000, cacheTtlSeconds: 0, allowPrivate: true, caFile: ca.file } },
}));

const issuer = selfIssuer();
const types = (r: VcResult): string[] => r.errors.map((e) => e.type.replace(/^.*[#:]/, ''));
const sri = (bytes: Buffer): string => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
/** Multibase base64url (`u`) of the sha2-256 multihash (0x12, 32 bytes). */
const multibase = (bytes: Buffer): string => `u${Buffer.concat([Buffer.from([0x12, 0x20]), createHash('sha256').update(bytes).digest()]).toString('base64url')}`;

describe.each(['REST', 'GraphQL'])('relatedResource through %s', (name) => {
  const t = () => vcTransports(server).find((x) => x.name === name)!;
  let verifier: string;
  let prefix: string;
  beforeAll(async () => {
    verifier = await server.apiKey(`related-${name.toLowerCase()}-${randomUUID().slice(0, 8)}`, ['verifier']);
  });
  beforeEach(() => {
    prefix = `/res-${name}-${randomUUID()}`;
  });

  const verify = async (relatedResource: unknown): Promise<VcResult> => {
    const vc = await selfIssuedCredential(issuer, { id: `urn:uuid:${randomUUID()}`, relatedResource });
    const o = await t().verify(verifier, { verifiableCredential: vc });
    if (!o.ok) throw new Error(`expected a verification result, got ${o.status} ${o.code}`);
    return o.data;
  };

  test('bytes matching digestSRI (sha384) and digestMultibase (sha2-256) verify; each resource is fetched once', async () => {
    const logo = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>');
    const terms = Buffer.from('{"terms":"v1"}');
    resources.route(`${prefix}/logo.svg`, { contentType: 'image/svg+xml', body: logo });
    resources.route(`${prefix}/terms.json`, { contentType: 'application/json', body: terms });
    const r = await verify([
      { id: `${resources.origin}${prefix}/logo.svg`, digestSRI: sri(logo), mediaType: 'image/svg+xml' },
      { id: `${resources.origin}${prefix}/terms.json`, digestMultibase: multibase(terms), digestSRI: sri(terms) },
    ]);
    expect(r).toMatchObject({ verified: true, errors: [] });
    expect(r.checks).toContain('relatedResource');
    expect(resources.hits.get(`${prefix}/logo.svg`)).toBe(1);
    expect(resources.hits.get(`${prefix}/terms.json`)).toBe(1);
  });

  test('changed bytes fail: CRYPTOGRAPHIC_SECURITY_ERROR naming the digest that does not match', async () => {
    const signedFor = Buffer.from('{"terms":"v1"}');
    resources.route(`${prefix}/terms.json`, { body: Buffer.from('{"terms":"v2"}') });
    const r = await verify([{ id: `${resources.origin}${prefix}/terms.json`, digestMultibase: multibase(signedFor) }]);
    expect(r.verified).toBe(false);
    expect(types(r)).toEqual(['CRYPTOGRAPHIC_SECURITY_ERROR']);
    expect(r.errors[0]!.detail).toMatch(/does not match its digestMultibase/);
  });

  test('an unreachable resource fails (RELATED_RESOURCE_RETRIEVAL_ERROR)', async () => {
    const r = await verify([{ id: `${resources.origin}${prefix}/gone`, digestSRI: sri(Buffer.from('x')) }]);
    expect(r.verified).toBe(false);
    expect(types(r)).toEqual(['RELATED_RESOURCE_RETRIEVAL_ERROR']);
    expect(r.errors[0]!.detail).toMatch(/HTTP 404/);
    expect(resources.hits.get(`${prefix}/gone`)).toBe(1);
  });

  test('more resources than the request may fetch: RANGE_ERROR and nothing fetched', async () => {
    const body = Buffer.from('same');
    resources.route(`${prefix}/r`, { body });
    const n = DEFAULT_VERIFICATION_LIMITS.maxRelatedResources + 1;
    const r = await verify(Array.from({ length: n }, (_, i) => ({ id: `${resources.origin}${prefix}/r?copy=${i}`, digestSRI: sri(body) })));
    expect(r.verified).toBe(false);
    expect(types(r)).toContain('RANGE_ERROR');
    expect(hitsUnder(resources, prefix)).toBe(0);
  });

  test('the resources of a request draw on its one fetch budget', async () => {
    const body = Buffer.from('same');
    resources.route(`${prefix}/r`, { body });
    const n = DEFAULT_VERIFICATION_LIMITS.maxRelatedResources;
    const r = await verify(Array.from({ length: n }, (_, i) => ({ id: `${resources.origin}${prefix}/r?copy=${i}`, digestSRI: sri(body) })));
    expect(r).toMatchObject({ verified: true, errors: [] });
    expect(hitsUnder(resources, prefix)).toBe(n);
    expect(hitsUnder(resources, prefix)).toBeLessThanOrEqual(DEFAULT_VERIFICATION_LIMITS.maxFetches);
  });
});
