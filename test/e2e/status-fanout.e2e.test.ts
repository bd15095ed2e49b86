import { randomUUID } from 'node:crypto';
import { DEFAULT_VERIFICATION_LIMITS, type VerificationLimits } from '../../src/vc/net/request-budget';
import { type FixtureServer, makeSelfSignedCert, type SelfSignedCert, startFixtureServer } from '../support/fixture-https';
import { type TestServer, useTestServer } from '../support/harness';
import { request } from '../support/http';
import { type VcResult, vcTransports } from '../support/vc-api-transports';
import { caFile, hitsUnder, publishStatusList, revocationEntry, selfIssuedCredential, selfIssuer } from '../support/vc/self-issued';

/*
 * Review 3, attack 1 (status fan-out). Any verifier key could send one self-issued did:key
 * eddsa-jcs-2022 credential with N credentialStatus entries at N distinct URLs: 40 entries in a
 * few KiB made 40 outbound fetches and held 16 MiB per list (RSS 206 -> 942 MiB), and N was
 * bounded only by the 1 MiB body. Now entries and distinct lists are admitted against the
 * request's budget before anything is fetched, and every fetch of the request (DID documents,
 * status lists, related resources) draws on one count, byte and deadline budget. The fixture
 * server counts the requests the service made; REST and GraphQL must agree.
 */

const LIMITS: VerificationLimits = { ...DEFAULT_VERIFICATION_LIMITS, maxFetches: 6, deadlineMs: 4000 };

let tls: SelfSignedCert;
let lists: FixtureServer;
let ca: ReturnType<typeof caFile>;
beforeAll(async () => {
  tls = makeSelfSignedCert();
  lists = await startFixtureServer(tls);
  ca = caFile(tls);
});
afterAll(async () => {
  await lists.close();
  ca.remove();
});

const server: TestServer = useTestServer(() => ({
  env: {
    // Room for the 6,000-entry credential (~1 MiB): the budget, not the body limit, must refuse it.
    bodyLimitBytes: 2 * 1024 * 1024,
    // No list cache: every fetch the service makes reaches the fixture server and is counted.
    didResolution: { fetchTimeoutMs: 10_000, cacheTtlSeconds: 0, allowPrivate: true, caFile: ca.file },
    verification: LIMITS,
  },
}));

const types = (r: VcResult): string[] => r.errors.map((e) => e.type.replace(/^.*[#:]/, ''));
const issuer = selfIssuer();

/** A credential with one revocation entry at each of `n` distinct URLs under `prefix` (lists published only when asked). */
async function fanOut(prefix: string, n: number, publish = false) {
  const urls: string[] = [];
  for (let i = 0; i < n; i += 1) {
    const p = `${prefix}/list/${i}`;
    urls.push(publish ? await publishStatusList(lists, p, issuer) : `${lists.origin}${p}`);
  }
  return selfIssuedCredential(issuer, { id: `urn:uuid:${randomUUID()}`, credentialStatus: urls.map((u) => revocationEntry(u)) });
}

describe.each(['REST', 'GraphQL'])('status fan-out through %s', (name) => {
  const t = () => vcTransports(server).find((x) => x.name === name)!;
  let verifier: string;
  beforeAll(async () => {
    verifier = await server.apiKey(`fanout-${name.toLowerCase()}-${randomUUID().slice(0, 8)}`, ['verifier']);
  });

  const verify = async (vc: unknown): Promise<VcResult> => {
    const o = await t().verify(verifier, { verifiableCredential: vc });
    if (!o.ok) throw new Error(`expected a verification result, got ${o.status} ${o.code}`);
    return o.data;
  };

  test('within the bounds, status is checked: two lists, two fetches, verified', async () => {
    const prefix = `/ok-${name}-${randomUUID()}`;
    const r = await verify(await fanOut(prefix, 2, true));
    expect(r).toMatchObject({ verified: true, errors: [] });
    expect(r.checks).toContain('credentialStatus');
    expect(hitsUnder(lists, prefix)).toBe(2);
  });

  test('40 entries at 40 distinct URLs (a few KiB): a RANGE_ERROR answer, and not one list fetched', async () => {
    const prefix = `/forty-${name}-${randomUUID()}`;
    const vc = await fanOut(prefix, 40, true);
    expect(JSON.stringify(vc).length).toBeLessThan(16 * 1024);
    const r = await verify(vc);
    expect(r.verified).toBe(false);
    expect(types(r)).toContain('RANGE_ERROR');
    expect(r.errors.find((e) => e.type.endsWith('RANGE_ERROR'))!.detail).toMatch(/40 entries; at most 8/);
    expect(hitsUnder(lists, prefix)).toBeLessThanOrEqual(LIMITS.maxStatusListsPerCredential);
    expect(hitsUnder(lists, prefix)).toBe(0);
  });

  test('6,000 entries (~1 MiB): refused by the status bound and by the JCS canonicalisation budget, nothing fetched', async () => {
    const prefix = `/six-thousand-${name}-${randomUUID()}`;
    const vc = await fanOut(prefix, 6000);
    expect(JSON.stringify(vc).length).toBeGreaterThan(512 * 1024);
    const r = await verify(vc);
    expect(r.verified).toBe(false);
    expect(types(r)).toEqual(expect.arrayContaining(['RANGE_ERROR', 'PROOF_VERIFICATION_ERROR']));
    expect(r.errors.find((e) => e.type.endsWith('PROOF_VERIFICATION_ERROR'))!.detail).toMatch(/JSON-LD budget/);
    expect(hitsUnder(lists, prefix)).toBe(0);
  });

  test('a presentation of many credentials shares one budget: distinct lists and fetches stop at the request bounds', async () => {
    const prefix = `/vp-${name}-${randomUUID()}`;
    // 4 credentials x 4 lists = 16 distinct lists: 8 are admitted (2 credentials), 6 fetched.
    const members = [];
    for (let c = 0; c < 4; c += 1) members.push(await fanOut(`${prefix}/c${c}`, 4, true));
    const o = await t().verifyPresentation(verifier, { presentation: { '@context': ['https://www.w3.org/ns/credentials/v2'], type: ['VerifiablePresentation'], verifiableCredential: members } });
    if (!o.ok) throw new Error(`expected a verification result, got ${o.status}`);
    const r = o.data;
    expect(r.verified).toBe(false);
    expect(hitsUnder(lists, prefix)).toBeLessThanOrEqual(LIMITS.maxFetches);
    expect(hitsUnder(lists, prefix)).toBe(LIMITS.maxFetches);
    const range = r.errors.filter((e) => e.type.endsWith('RANGE_ERROR')).map((e) => e.detail);
    expect(range).toEqual([expect.stringMatching(/^verifiableCredential\[2\]: .*8 status lists/), expect.stringMatching(/^verifiableCredential\[3\]: .*8 status lists/)]);
    const spent = r.errors.filter((e) => e.type.endsWith('STATUS_RETRIEVAL_ERROR'));
    expect(spent).toHaveLength(2);
    spent.forEach((e) => expect(e.detail).toMatch(/budget of 6 fetches is spent/));
  });

  test("a list that never answers ends at the request's deadline with a clear failure, and /healthz answers meanwhile", async () => {
    const prefix = `/hang-${name}-${randomUUID()}`;
    lists.route(`${prefix}/list/0`, { hang: true });
    const vc = await fanOut(prefix, 1);
    let settled = false;
    const running = verify(vc).finally(() => {
      settled = true;
    });
    // Wait until the service has asked for the list, then probe: the event loop is not held.
    while (hitsUnder(lists, prefix) === 0) await new Promise((r) => setTimeout(r, 20));
    const health = await request(server.baseUrl, 'GET', '/healthz');
    expect(health.status).toBe(200);
    expect(settled).toBe(false);
    const r = await running;
    expect(r.verified).toBe(false);
    expect(r.errors.find((e) => e.type.endsWith('STATUS_RETRIEVAL_ERROR'))!.detail).toMatch(/did not answer within \d+ ms/);
    expect(hitsUnder(lists, prefix)).toBe(1);
  });
});

test('GraphQL: aliased verifications in one operation share the request budget instead of multiplying it', async () => {
  const verifier = await server.apiKey(`fanout-alias-${randomUUID().slice(0, 8)}`, ['verifier']);
  const prefix = `/alias-${randomUUID()}`;
  const a = await fanOut(`${prefix}/a`, 4, true);
  const b = await fanOut(`${prefix}/b`, 4, true);
  const query = 'query($a: VcVerifyCredentialInput!, $b: VcVerifyCredentialInput!) { a: vcVerifyCredential(input: $a) { verified errors { type detail } } b: vcVerifyCredential(input: $b) { verified errors { type detail } } }';
  const res = await request(server.baseUrl, 'POST', '/graphql', { headers: { 'X-API-Key': verifier }, body: { query, variables: { a: { verifiableCredential: a }, b: { verifiableCredential: b } } } });
  expect(res.status).toBe(200);
  expect(res.json.errors).toBeUndefined();
  // Eight lists were admitted; with a budget per field each would have fetched its four.
  expect(hitsUnder(lists, prefix)).toBe(LIMITS.maxFetches);
  const details = [...res.json.data.a.errors, ...res.json.data.b.errors].map((e: { detail: string }) => e.detail);
  expect(details.filter((d) => /budget of 6 fetches is spent/.test(d))).toHaveLength(2);
});
