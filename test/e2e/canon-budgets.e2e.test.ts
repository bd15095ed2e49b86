import { randomBytes } from 'node:crypto';
import { encodeCryptograph } from '../../src/domain/cryptograph';
import type { Config } from '../../src/config';
import { type TestServer, startTestServer } from '../support/harness';
import { request } from '../support/http';
import { FAMILY_A_TRANSPORTS, type Holder, type Party, consent, newHolder, newParty, schemaBody, subject, unwrap } from '../support/family-a-fixtures';
import type { Outcome } from '../support/transports';

/**
 * Finding "event-loop freeze": JSON-LD canonicalisation of a hostile credential ran on the event
 * loop. A few hundred bytes of cryptograph inflate to thousands of identical blank nodes whose
 * canonicalisation costs seconds (quadratic), even though the cryptograph signature had already
 * failed, and every other request (even /healthz) waited.
 */

type Doc = Record<string, any>;

/** `credentialSubject.name` becomes `n` empty node objects: identical blank nodes, quadratic to canonicalise. */
const hostile = (vc: Doc, n: number): Doc => ({
  ...vc,
  credentialSubject: [{ ...vc.credentialSubject[0], name: Array.from({ length: n }, () => ({})) }],
});

/** Runs `attack` while probing /healthz one request after another; returns its outcome and the probes answered meanwhile. */
async function whileProbing<T>(server: TestServer, attack: () => Promise<T>): Promise<{ out: T; answered: number }> {
  let done = false;
  let answered = 0;
  const running = attack().finally(() => {
    done = true;
  });
  while (!done) {
    const r = await request(server.baseUrl, 'GET', '/healthz');
    if (r.status === 200) answered++;
  }
  return { out: await running, answered };
}

interface Setup {
  p: Party;
  user: Holder;
  issuerDid: string;
  vc: Doc;
  userSignature: string;
}

async function setup(server: TestServer, transport: string): Promise<Setup> {
  const p = await newParty(server, transport);
  const user = await newHolder(p);
  const issuerDid = unwrap(await p.fa.issuerDid(p.issuerKey));
  const schemaName = `Badge${randomBytes(3).toString('hex')}`;
  unwrap(await p.fa.createSchema(p.issuerKey, schemaBody(schemaName)));
  const headers = await consent(p, user, issuerDid, subject());
  const r = unwrap(await p.fa.issue(p.issuerKey, headers, { schemaName: `${schemaName}:1`, credentialSubject: subject() }));
  return { p, user, issuerDid, vc: r.verifiableCredential, userSignature: r.userSignature };
}

/** A cryptograph that names the real issuer key but is signed by the attacker. */
const forgedCryptograph = (s: Setup, credential: Doc): string =>
  encodeCryptograph(credential, { seed: randomBytes(32), kid: `${s.issuerDid}#did-root-key` });

describe('with the default budgets', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  describe.each(FAMILY_A_TRANSPORTS)('/verifier/verify through %s', (name) => {
    let s: Setup;
    beforeAll(async () => {
      s = await setup(server, name);
    });
    const verify = (body: Doc) => s.p.fa.verify(s.p.verifierKey, { publicKey: s.user.publicKey, userSignature: s.userSignature }, body);

    test('a QR-sized cryptograph inflating to thousands of blank nodes is refused with 413 DOCUMENT_TOO_LARGE', async () => {
      const cryptograph = forgedCryptograph(s, hostile(s.vc, 2000));
      expect(cryptograph.length).toBeLessThan(3391); // fits one QR code (alphanumeric, level M)
      expect(await verify({ cryptograph })).toEqual({ ok: false, status: 413, code: 'DOCUMENT_TOO_LARGE' });
    });

    test('the same document sent as credentials is refused with 413 DOCUMENT_TOO_LARGE', async () => {
      expect(await verify({ credentials: hostile(s.vc, 2000) })).toEqual({ ok: false, status: 413, code: 'DOCUMENT_TOO_LARGE' });
    });

    test('a cryptograph whose signature fails is never canonicalised', async () => {
      // An unknown context would make canonicalisation fail with its own reason; it must not be reached.
      const credential = { ...s.vc, '@context': [...s.vc['@context'], 'https://evil.example/ctx'] };
      const r = unwrap(await verify({ cryptograph: forgedCryptograph(s, credential) }));
      expect(r.success).toBe(false);
      expect(r.data.reasons).toContain('cryptograph signature does not verify');
      expect(r.data.reasons.join('; ')).not.toMatch(/canonicali[sz]ed/);
    });

    test('an honest credential still verifies', async () => {
      expect(unwrap(await verify({ credentials: s.vc })).success).toBe(true);
    });
  });

  test('GraphQL: aliases sharing one hostile variable are refused: within the cost limit by DOCUMENT_TOO_LARGE, beyond it by QUERY_TOO_COMPLEX', async () => {
    const s = await setup(server, 'GraphQL');
    const input = { publicKey: s.user.publicKey, userSignature: s.userSignature, cryptograph: forgedCryptograph(s, hostile(s.vc, 1000)) };
    const many = (n: number) =>
      request(server.baseUrl, 'POST', '/graphql', {
        headers: { 'X-API-Key': s.p.verifierKey },
        body: {
          query: `query Many($input: VerifyCredentialInput!) {\n${Array.from({ length: n }, (_, i) => `a${i}: verifyCredential(input: $input) { success }`).join('\n')}\n}`,
          variables: { input },
        },
      });
    // Three aliases fit the default GraphQL cost limit (300 each of 1,000): each document is refused by its budget.
    const within = await many(3);
    // The fields are non-null: the first error nulls `data`, and GraphQL reports only that one.
    const errors = (within.json?.errors ?? []) as { path?: string[]; extensions?: { code?: string } }[];
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.map((e) => e.extensions?.code)).toEqual(errors.map(() => 'DOCUMENT_TOO_LARGE'));
    expect(within.json.data).toBeNull();
    // Ten are refused before any resolver runs.
    const beyond = await many(10);
    expect(((beyond.json?.errors ?? []) as { extensions?: { code?: string } }[]).map((e) => e.extensions?.code)).toEqual(['QUERY_TOO_COMPLEX']);
  });
});

describe('with budgets raised so a hostile document reaches the canonicalisation workers', () => {
  let server: TestServer;
  beforeAll(async () => {
    const canon = { workers: 1, deadlineMs: 300, queueLimit: 16, maxObjects: 1_000_000, maxValues: 1_000_000 };
    server = await startTestServer({ env: { canon } as unknown as Partial<Config> });
  });
  afterAll(async () => {
    await server?.stop();
  });

  describe.each(FAMILY_A_TRANSPORTS)('%s', (name) => {
    test('a canonicalisation over its deadline is killed and answered 422 CANONICALIZATION_BUDGET while /healthz keeps answering', async () => {
      const s = await setup(server, name);
      const verify = (body: Doc): Promise<Outcome<unknown>> => s.p.fa.verify(s.p.verifierKey, { publicKey: s.user.publicKey, userSignature: s.userSignature }, body);
      const { out, answered } = await whileProbing(server, () => verify({ credentials: hostile(s.vc, 8000) }));
      expect(out).toEqual({ ok: false, status: 422, code: 'CANONICALIZATION_BUDGET' });
      expect(answered).toBeGreaterThan(10);
      // The killed worker is replaced: the next honest request is served.
      expect(unwrap(await verify({ credentials: s.vc }))).toMatchObject({ success: true });
    });
  });
});
