import { randomBytes } from 'node:crypto';
import { type TestServer, startTestServer } from '../support/harness';
import { request } from '../support/http';
import { FB_ATTRIBUTES, FB_VALUES, type FbParty, fbParty } from '../support/family-b-fixtures';
import { createTestDatabase } from '../support/test-db';

/**
 * `Idempotency-Key` on issuing requests: a repeat replays the first answer and never issues
 * twice, a different request with the same key is 422, a repeat while the first runs is 409, and
 * the records live in the database so two instances agree. Family B issuance is the subject
 * (REST POST /credentials and its GraphQL twin issueTemplateCredential).
 */

interface Outcome {
  status: number;
  replayed: boolean;
  retryAfter: string | null;
  id: string | undefined;
  code: string | undefined;
  message: string | undefined;
  text: string;
}

type Issue = (baseUrl: string, apiKey: string, idemKey: string | undefined, body: Record<string, unknown>) => Promise<Outcome>;

const ISSUE_MUTATION = 'mutation IssueTemplateCredential($input: IssueTemplateCredentialInput!) { issueTemplateCredential(input: $input) }';

const restIssue: Issue = async (baseUrl, apiKey, idemKey, body) => {
  const res = await request(baseUrl, 'POST', '/credentials', { headers: { 'x-api-key': apiKey, ...(idemKey !== undefined ? { 'Idempotency-Key': idemKey } : {}) }, body });
  return {
    status: res.status,
    replayed: res.headers.get('idempotent-replayed') === 'true',
    retryAfter: res.headers.get('retry-after'),
    id: res.status < 300 ? res.json?.id : undefined,
    code: undefined,
    message: res.json?.error,
    text: res.text,
  };
};

const graphqlIssue: Issue = async (baseUrl, apiKey, idemKey, body) => {
  const res = await request(baseUrl, 'POST', '/graphql', {
    headers: { 'x-api-key': apiKey, ...(idemKey !== undefined ? { 'Idempotency-Key': idemKey } : {}) },
    body: { query: ISSUE_MUTATION, variables: { input: body } },
  });
  const error = res.json?.errors?.[0];
  return {
    status: typeof error?.extensions?.status === 'number' ? error.extensions.status : res.status,
    replayed: res.headers.get('idempotent-replayed') === 'true',
    retryAfter: res.headers.get('retry-after') ?? (error?.extensions?.retryAfter !== undefined ? String(error.extensions.retryAfter) : null),
    id: res.json?.data?.issueTemplateCredential?.id,
    code: error?.extensions?.code,
    message: error?.message,
    text: res.text,
  };
};

const TRANSPORTS: [string, Issue, number][] = [
  ['REST', restIssue, 201],
  ['GraphQL', graphqlIssue, 200],
];

async function credentialCount(server: TestServer): Promise<number> {
  const [row] = await server.app.db.prisma.$queryRawUnsafe<{ n: bigint }[]>('SELECT count(*) AS n FROM credentials');
  return Number(row!.n);
}

const newKey = (): string => `idem-${randomBytes(8).toString('hex')}`;

let server: TestServer;
let party: FbParty;
let body: Record<string, unknown>;

beforeAll(async () => {
  server = await startTestServer();
  party = await fbParty(server, 'REST');
  body = { templateId: party.template['templateId'], credentialSubject: FB_VALUES, holder: party.holder.did };
});
afterAll(async () => {
  await server?.stop();
});

describe.each(TRANSPORTS)('%s', (_name, issue, okStatus) => {
  test('a repeat with the same key replays the first answer and issues once', async () => {
    const before = await credentialCount(server);
    const key = newKey();
    const first = await issue(server.baseUrl, party.keys.issuer, key, body);
    expect(first.status).toBe(okStatus);
    expect(first.replayed).toBe(false);
    expect(typeof first.id).toBe('string');
    const again = await issue(server.baseUrl, party.keys.issuer, key, body);
    expect(again.status).toBe(okStatus);
    expect(again.replayed).toBe(true);
    expect(again.id).toBe(first.id);
    expect(again.text).toBe(first.text);
    expect(await credentialCount(server)).toBe(before + 1);
  });

  test('without a key every request issues (the header is opt-in)', async () => {
    const before = await credentialCount(server);
    const a = await issue(server.baseUrl, party.keys.issuer, undefined, body);
    const b = await issue(server.baseUrl, party.keys.issuer, undefined, body);
    expect([a.status, b.status]).toEqual([okStatus, okStatus]);
    expect(a.id).not.toBe(b.id);
    expect(await credentialCount(server)).toBe(before + 2);
  });

  test('the same key with a different body is 422 IDEMPOTENCY_KEY_REUSED and issues nothing more', async () => {
    const key = newKey();
    expect((await issue(server.baseUrl, party.keys.issuer, key, body)).status).toBe(okStatus);
    const before = await credentialCount(server);
    const other = await issue(server.baseUrl, party.keys.issuer, key, { ...body, credentialSubject: { ...FB_VALUES, employeeNo: 8 } });
    expect(other.status).toBe(422);
    expect(other.message).toMatch(/Idempotency-Key was already used for a different request/);
    if (other.code !== undefined) expect(other.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await credentialCount(server)).toBe(before);
  });

  test('keys are scoped to the API key: another key of the tenant with the same string issues its own', async () => {
    const otherIssuer = await server.apiKey(await tenantOf(), ['issuer']);
    const key = newKey();
    const a = await issue(server.baseUrl, party.keys.issuer, key, body);
    const b = await issue(server.baseUrl, otherIssuer, key, body);
    expect([a.status, b.status]).toEqual([okStatus, okStatus]);
    expect(b.replayed).toBe(false);
    expect(b.id).not.toBe(a.id);
  });

  test.each([
    ['empty', ''],
    ['longer than 255 characters', 'k'.repeat(256)],
    ['with a space', 'two words'],
    ['with a control character', 'tab\there'],
  ])('a malformed key (%s) is 400 and issues nothing', async (_what, bad) => {
    const before = await credentialCount(server);
    const res = await issue(server.baseUrl, party.keys.issuer, bad, body);
    expect(res.status).toBe(400);
    expect(res.message).toMatch(/Idempotency-Key/);
    expect(await credentialCount(server)).toBe(before);
  });

  test('20 concurrent requests with one key issue exactly once; the others replay or get 409 + Retry-After', async () => {
    const before = await credentialCount(server);
    const key = newKey();
    const outcomes = await Promise.all(Array.from({ length: 20 }, () => issue(server.baseUrl, party.keys.issuer, key, body)));
    expect(await credentialCount(server)).toBe(before + 1);
    const ok = outcomes.filter((o) => o.status === okStatus);
    const busy = outcomes.filter((o) => o.status === 409);
    expect(ok.length + busy.length).toBe(20);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(new Set(ok.map((o) => o.id)).size).toBe(1);
    expect(ok.filter((o) => !o.replayed)).toHaveLength(1);
    for (const b of busy) {
      expect(Number(b.retryAfter)).toBeGreaterThanOrEqual(1);
      if (b.code !== undefined) expect(b.code).toBe('IDEMPOTENCY_IN_PROGRESS');
    }
    const later = await issue(server.baseUrl, party.keys.issuer, key, body);
    expect(later).toMatchObject({ status: okStatus, replayed: true, id: ok[0]!.id });
  });

  test('an expired key is forgotten: the same key with another body issues anew', async () => {
    const key = newKey();
    expect((await issue(server.baseUrl, party.keys.issuer, key, body)).status).toBe(okStatus);
    await server.app.db.prisma.$executeRaw`UPDATE idempotency_keys SET expires_at = clock_timestamp() - interval '1 second' WHERE key = ${key}`;
    const before = await credentialCount(server);
    const next = await issue(server.baseUrl, party.keys.issuer, key, { ...body, credentialSubject: { ...FB_VALUES, employeeNo: 9 } });
    expect(next).toMatchObject({ status: okStatus, replayed: false });
    expect(await credentialCount(server)).toBe(before + 1);
  });

  test('in flight: a repeat is 409 + Retry-After; once the lease of a dead instance is over, the repeat runs', async () => {
    const key = newKey();
    const first = await issue(server.baseUrl, party.keys.issuer, key, body);
    // Make the record look like a request still running on another instance.
    await server.app.db.prisma.$executeRaw`UPDATE idempotency_keys SET status = NULL, body = NULL, headers = NULL, locked_until = clock_timestamp() + interval '1 hour' WHERE key = ${key}`;
    const busy = await issue(server.baseUrl, party.keys.issuer, key, body);
    expect(busy.status).toBe(409);
    expect(Number(busy.retryAfter)).toBeGreaterThanOrEqual(1);
    if (busy.code !== undefined) expect(busy.code).toBe('IDEMPOTENCY_IN_PROGRESS');
    await server.app.db.prisma.$executeRaw`UPDATE idempotency_keys SET locked_until = clock_timestamp() - interval '1 second' WHERE key = ${key}`;
    const taken = await issue(server.baseUrl, party.keys.issuer, key, body);
    expect(taken).toMatchObject({ status: okStatus, replayed: false });
    expect(taken.id).not.toBe(first.id);
    expect(await issue(server.baseUrl, party.keys.issuer, key, body)).toMatchObject({ status: okStatus, replayed: true, id: taken.id });
  });

  test('a refused request that a retry could fix (403, wrong scope) is not stored: the key stays free', async () => {
    const key = newKey();
    const refused = await issue(server.baseUrl, party.keys.holder, key, body);
    expect(refused.status).toBe(403);
    const again = await issue(server.baseUrl, party.keys.holder, key, body);
    expect(again.status).toBe(403);
    expect(again.replayed).toBe(false);
  });

  test('a deterministic client error (400) is stored and replayed', async () => {
    const key = newKey();
    const bad = { ...body, credentialSubject: { unknownAttribute: 1 } };
    const first = await issue(server.baseUrl, party.keys.issuer, key, bad);
    expect(first.status).toBe(400);
    const again = await issue(server.baseUrl, party.keys.issuer, key, bad);
    expect(again).toMatchObject({ status: 400, replayed: true, text: first.text });
  });
});

/** The tenant slug of the party (its keys were created for it by fbParty). */
async function tenantOf(): Promise<string> {
  const actor = await server.app.services.auth.authenticate(party.keys.issuer);
  return actor.tenantSlug;
}

describe('GraphQL: one mutation field per keyed request', () => {
  test('a keyed request with two mutation fields is refused with 400 and runs neither', async () => {
    const before = await credentialCount(server);
    const res = await request(server.baseUrl, 'POST', '/graphql', {
      headers: { 'x-api-key': party.keys.issuer, 'Idempotency-Key': newKey() },
      body: { query: 'mutation Two($input: IssueTemplateCredentialInput!) { a: issueTemplateCredential(input: $input) b: issueTemplateCredential(input: $input) }', variables: { input: body } },
    });
    expect(res.status).toBe(400);
    expect(res.json.errors[0].extensions.code).toBe('INVALID_INPUT');
    expect(await credentialCount(server)).toBe(before);
  });

  test('a keyed query is answered as usual (the key only applies to mutations)', async () => {
    const res = await request(server.baseUrl, 'POST', '/graphql', {
      headers: { 'x-api-key': party.keys.issuer, 'Idempotency-Key': newKey() },
      body: { query: '{ __typename }' },
    });
    expect(res.status).toBe(200);
    expect(res.json.data.__typename).toBe('Query');
  });
});

describe('two instances on one PostgreSQL database', () => {
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    const db = await createTestDatabase('postgres');
    a = await startTestServer({ db });
    b = await startTestServer({ db, ...(a.config.masterKey ? { masterKey: a.config.masterKey } : {}) });
  });
  afterAll(async () => {
    await b?.close();
    await a?.stop();
  });

  test.each(TRANSPORTS)('%s: concurrent repeats spread over both instances issue exactly once', async (_name, issue, okStatus) => {
    const p = await fbParty(a, 'REST');
    const input = { templateId: p.template['templateId'], credentialSubject: FB_VALUES, holder: p.holder.did };
    const before = await credentialCount(a);
    const key = newKey();
    const outcomes = await Promise.all(Array.from({ length: 10 }, (_, i) => issue((i % 2 === 0 ? a : b).baseUrl, p.keys.issuer, key, input)));
    expect(await credentialCount(a)).toBe(before + 1);
    const ok = outcomes.filter((o) => o.status === okStatus);
    expect(ok.length + outcomes.filter((o) => o.status === 409).length).toBe(10);
    expect(new Set(ok.map((o) => o.id)).size).toBe(1);
    const onA = await issue(a.baseUrl, p.keys.issuer, key, input);
    const onB = await issue(b.baseUrl, p.keys.issuer, key, input);
    expect(onA).toMatchObject({ status: okStatus, replayed: true });
    expect(onB).toMatchObject({ status: okStatus, replayed: true, id: onA.id });
    expect((await issue(b.baseUrl, p.keys.issuer, key, { ...input, holder: p.issuer.did })).status).toBe(422);
  });
});

describe.each(['REST', 'GraphQL'])('template creation through %s (POST /vc-templates, createVcTemplate)', (name) => {
  test('a repeat replays the first template instead of refusing or creating another', async () => {
    const input = { templateName: `Idem ${randomBytes(3).toString('hex')}`, description: 'Idempotent', issuer: party.issuer.did, attributes: FB_ATTRIBUTES, expiration: { value: 1, unit: 'years' } };
    const key = newKey();
    const call = async () => {
      const res =
        name === 'REST'
          ? await request(server.baseUrl, 'POST', '/vc-templates', { headers: { 'x-api-key': party.keys.issuer, 'Idempotency-Key': key }, body: input })
          : await request(server.baseUrl, 'POST', '/graphql', {
              headers: { 'x-api-key': party.keys.issuer, 'Idempotency-Key': key },
              body: { query: 'mutation T($input: VcTemplateInput!) { createVcTemplate(input: $input) { templateId } }', variables: { input } },
            });
      return { status: res.status, replayed: res.headers.get('idempotent-replayed') === 'true', id: name === 'REST' ? res.json?.templateId : res.json?.data?.createVcTemplate?.templateId };
    };
    const count = async () => Number((await server.app.db.prisma.$queryRawUnsafe<{ n: bigint }[]>('SELECT count(*) AS n FROM vc_templates'))[0]!.n);
    const before = await count();
    const first = await call();
    expect(first).toMatchObject({ status: name === 'REST' ? 201 : 200, replayed: false });
    expect(typeof first.id).toBe('string');
    expect(await call()).toEqual({ ...first, replayed: true });
    expect(await count()).toBe(before + 1);
  });
});

describe.each(['REST', 'GraphQL'])('presentations and ZKP tokens through %s', (name) => {
  test('a keyed repeat of create-vp / createZkpToken replays the first answer byte for byte', async () => {
    const credential = await party.issue();
    const vpInput = { credentialIds: [credential['id']], sharedAttributes: { [String(credential['id'])]: ['name'] }, holderDID: party.holder.did, challenge: 'nonce-idem', domain: 'verifier.example' };
    const zkpInput = { credentialId: credential['id'], condition: { age: 18 } };
    const ops: [string, string, string, unknown, string][] =
      name === 'REST'
        ? [
            ['POST', '/create-vp', party.keys.holder, vpInput, ''],
            ['POST', '/createZkpToken', party.keys.issuer, zkpInput, ''],
          ]
        : [
            ['POST', '/graphql', party.keys.holder, { query: 'mutation P($input: CreatePresentationInput!) { createPresentation(input: $input) }', variables: { input: vpInput } }, 'createPresentation'],
            ['POST', '/graphql', party.keys.issuer, { query: 'mutation Z($input: CreateZkpTokenInput!) { createZkpToken(input: $input) { zkpToken } }', variables: { input: zkpInput } }, 'createZkpToken'],
          ];
    for (const [method, path, apiKey, payload, field] of ops) {
      const key = newKey();
      const call = (k?: string) => request(server.baseUrl, method, path, { headers: { 'x-api-key': apiKey, ...(k ? { 'Idempotency-Key': k } : {}) }, body: payload });
      const first = await call(key);
      expect({ path, status: first.status }).toEqual({ path, status: 200 });
      if (field) expect(first.json.data[field]).toBeTruthy();
      const again = await call(key);
      expect(again.status).toBe(200);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.text).toBe(first.text);
    }
  });
});
