import { randomUUID } from 'node:crypto';
import type { Config } from '../../src/config/config';
import { bbs2023Engine } from '../../src/formats/bbs-2023/engine';
import { CredgateGraphQLError } from '../../src/sdk';
import { unwrap } from '../support/family-a-fixtures';
import { FB_ATTRIBUTES, FB_VALUES, type FbParty, fbParty } from '../support/family-b-fixtures';
import { type TestServer, startTestServer } from '../support/harness';

/*
 * Issue 18, item 5 for bbs-2023: a derivation or verification over its deadline
 * (CREDGATE_BBS_DEADLINE_MS, here the configuration's bbs.deadlineMs, 1 ms) is stopped and answers 503
 * with Retry-After, through REST and GraphQL, never a false "does not verify"; another tenant is
 * served meanwhile and after, and the service recovers once the deadline allows the work.
 */

jest.setTimeout(120_000);

type Json = Record<string, any>;
// Far below any BBS operation (tens of milliseconds), so every one is stopped whatever the machine.
const TINY_MS = 1;
const AMPLE_MS = 60_000;

interface Answer {
  status: number;
  code: unknown;
  retryAfter: string | null;
  body?: Json;
}

async function rest(server: TestServer, key: string, path: string, body: Json): Promise<Answer> {
  const res = await fetch(`${server.baseUrl}${path}`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = (await res.json()) as Json;
  return { status: res.status, code: json['code'], retryAfter: res.headers.get('retry-after'), body: json };
}

async function gql(run: () => Promise<unknown>): Promise<Answer> {
  try {
    return { status: 200, code: undefined, retryAfter: null, body: (await run()) as Json };
  } catch (e) {
    if (!(e instanceof CredgateGraphQLError)) throw e;
    const ext = e.errors[0]?.extensions as Json | undefined;
    const status = typeof ext?.['status'] === 'number' ? (ext['status'] as number) : e.httpStatus;
    return { status, code: e.code, retryAfter: ext?.['retryAfter'] === undefined ? null : String(ext['retryAfter']) };
  }
}

const credential = (issuer: string): Json => ({
  '@context': ['https://www.w3.org/ns/credentials/v2', 'https://www.w3.org/ns/credentials/undefined-terms/v2'],
  id: `urn:uuid:${randomUUID()}`,
  type: ['VerifiableCredential', 'MembershipCredential'],
  issuer,
  credentialSubject: { member: 'Ada', level: 5 },
});

describe('bbs-2023 with a tiny deadline', () => {
  let server: TestServer;
  let keys: { issuer: string; holder: string; verifier: string };
  let issued: Json;
  let derived: Json;
  let other: FbParty;
  /** A derivation of a Family B bbs-2023 template credential (checked by Family B verify). */
  let templateDerived: Json;

  beforeAll(async () => {
    server = await startTestServer({ env: { bbs: { workers: 2, deadlineMs: TINY_MS } } as unknown as Partial<Config> });
    const tenant = `bbsdl-${randomUUID().slice(0, 8)}`;
    keys = { issuer: await server.apiKey(tenant, ['issuer']), holder: await server.apiKey(tenant, ['holder']), verifier: await server.apiKey(tenant, ['verifier']) };
    // The composition root gave the process's BBS engine the configured workers and deadline.
    expect(bbs2023Engine.settings).toEqual({ workers: 2, deadlineMs: TINY_MS });
    // The credential the holder derives from is made with time to spare; then the deadline is the tiny one the server was started with.
    await bbs2023Engine.configure({ deadlineMs: AMPLE_MS });
    const instance = (await rest(server, keys.issuer, '/vc-api/issuers', { cryptosuite: 'bbs-2023' })).body as Json;
    issued = ((await rest(server, keys.issuer, `/vc-api/issuers/${instance['id']}/credentials/issue`, { credential: credential(instance['issuer']) })).body as Json)['verifiableCredential'];
    derived = ((await rest(server, keys.holder, '/vc-api/credentials/derive', { verifiableCredential: issued, options: { selectivePointers: ['/credentialSubject/level'] } })).body as Json)['verifiableCredential'];
    expect(String(derived['proof']['proofValue'])).toMatch(/^u2V0D/);
    other = await fbParty(server, 'REST');
    const bbsTemplate = unwrap(await other.t.createTemplate(other.keys.issuer, { templateName: `Deadline ${randomUUID().slice(0, 6)}`, description: 'd', issuer: other.issuer.did, attributes: FB_ATTRIBUTES, expiration: { value: 1, unit: 'years' }, proofSuite: 'bbs-2023' })) as Json;
    const templateIssued = unwrap(await other.t.issue(other.keys.issuer, { templateId: bbsTemplate['templateId'], credentialSubject: FB_VALUES }));
    templateDerived = ((await rest(server, other.keys.holder, '/vc-api/credentials/derive', { verifiableCredential: templateIssued, options: { selectivePointers: ['/credentialSubject/name'] } })).body as Json)['verifiableCredential'];
    // The whole answer, so a failure shows which check refused.
    expect(unwrap(await other.t.verify(other.keys.verifier, templateDerived))).toMatchObject({ verified: true });
    await bbs2023Engine.configure({ deadlineMs: server.config.bbs!.deadlineMs });
  });
  afterAll(async () => {
    await bbs2023Engine.close();
    await server.stop();
  });

  test.each(['REST', 'GraphQL'])('%s: a derivation and a verification over the deadline are 503 with Retry-After, not a verdict; another tenant is served', async (name) => {
    const otherCred = await other.issue();
    const deriveBody = { verifiableCredential: issued, options: { selectivePointers: ['/credentialSubject/member'] } };
    const [derive, verify, otherVerify] = await Promise.all([
      name === 'REST' ? rest(server, keys.holder, '/vc-api/credentials/derive', deriveBody) : gql(() => server.sdk(keys.holder).vcDeriveCredential({ input: { verifiableCredential: issued, selectivePointers: ['/credentialSubject/member'] } })),
      name === 'REST'
        ? rest(server, keys.verifier, '/vc-api/credentials/verify', { verifiableCredential: derived })
        : gql(() => server.sdk(keys.verifier).vcVerifyCredential({ input: { verifiableCredential: derived } })),
      other.t.verify(other.keys.verifier, otherCred),
    ]);
    for (const answer of [derive, verify]) {
      expect(answer.code).toBe('SERVICE_UNAVAILABLE');
      if (name === 'REST') expect(answer.status).toBe(503);
      expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
    }
    // The other tenant's Family B verification was not held up by the stopped workers.
    expect(unwrap(otherVerify).verified).toBe(true);
  });

  test.each(['REST', 'GraphQL'])('%s: Family B verify of a bbs-2023 template derivation over the deadline is 503 with Retry-After, not "invalid"', async (name) => {
    const answer =
      name === 'REST'
        ? await rest(server, other.keys.verifier, '/credentials/verify', { credential: templateDerived })
        : await gql(() => server.sdk(other.keys.verifier).verifyTemplateCredential({ credential: templateDerived }));
    expect(answer.code).toBe('SERVICE_UNAVAILABLE');
    if (name === 'REST') expect(answer.status).toBe(503);
    expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
  });

  test('once the deadline allows the work, the same derivation and verification succeed (stopped workers are replaced)', async () => {
    await bbs2023Engine.configure({ deadlineMs: AMPLE_MS });
    try {
      const again = await rest(server, keys.holder, '/vc-api/credentials/derive', { verifiableCredential: issued, options: { selectivePointers: ['/credentialSubject/member'] } });
      expect(again.status).toBe(201);
      const checked = await rest(server, keys.verifier, '/vc-api/credentials/verify', { verifiableCredential: derived });
      expect(checked.body).toMatchObject({ verified: true });
    } finally {
      await bbs2023Engine.configure({ deadlineMs: server.config.bbs!.deadlineMs });
    }
  });
});
