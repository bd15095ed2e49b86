import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import type { Config } from '../../src/config';
import { DB_TIMEOUT_DEFAULTS } from '../../src/config/limits';
import { CredgateGraphQLError } from '../../src/sdk';
import { type TestServer, startTestServer } from '../support/harness';
import { request } from '../support/http';
import { unwrap } from '../support/family-a-fixtures';
import { type FamilyBTransport, graphqlFamilyB, restFamilyB } from '../support/family-b-transports';
import { type Transport, graphqlTransport, restTransport } from '../support/transports';
import { createTestDatabase } from '../support/test-db';

/**
 * Attack: all tenants share one database pool. One tenant's burst of issuances (each waiting on
 * its issuer's status-list row lock inside a transaction) takes every connection, and another
 * tenant's simple read waits behind the whole burst. And one held row lock pins a connection for
 * a minute, then fails with 500. Now: each tenant holds at most a share of the write slots, its
 * excess waits in its own queue (or gets 503 + Retry-After when that is full), reads are never
 * queued behind writes, and a lock wait ends after lock_timeout with 503 + Retry-After.
 * Issuances wait in their issuer's sequencer lane (bounded by the tenant write queue) and each
 * batch holds one of its tenant's slots; other writes hold a slot per request.
 */
const FAIRNESS: Config['fairness'] = { writeConcurrency: 4, tenantWriteConcurrency: 2, tenantWriteQueue: 30, faceTenantShare: undefined };
// No batching window and small batches: the flood queues in A's lane while A's batches commit.
const BATCH: Config['batch'] = { windowMs: 0, max: 10 };
const FLOOD = 60;

type Attempt = { status: number; retryAfter?: string | null; code?: string };

interface Tenant {
  key: string;
  templateId: string;
  credentialId: string;
  issuer: string;
}

async function newTenant(server: TestServer, t: FamilyBTransport, slice: Transport, label: string): Promise<Tenant> {
  const key = await server.apiKey(`${label}-${randomBytes(3).toString('hex')}`, ['issuer']);
  const kp = unwrap(await slice.generateKeypair(key));
  const issuer = unwrap(await slice.createDid(key, { method: 'credgate', publicKey: kp.publicKey })).document.id;
  const template = unwrap(
    await t.createTemplate(key, { templateName: 'Flood', description: 'flood', issuer, attributes: [{ attributeName: 'n', type: 'integer', description: 'n' }], expiration: { value: 1, unit: 'days' } }),
  );
  const first = unwrap(await t.issue(key, { templateId: template.templateId, credentialSubject: { n: 0 } }));
  return { key, templateId: template.templateId, credentialId: String(first['id']), issuer };
}

/** One issuance, with what a client needs to back off (REST header or GraphQL extension). */
async function issueRaw(server: TestServer, transport: string, key: string, templateId: string, n: number): Promise<Attempt> {
  const input = { templateId, credentialSubject: { n } };
  if (transport === 'REST') {
    const res = await request(server.baseUrl, 'POST', '/credentials', { headers: { 'X-API-Key': key }, body: input });
    return { status: res.status, retryAfter: res.headers.get('retry-after') };
  }
  try {
    await server.sdk(key).issueTemplateCredential({ input });
    return { status: 201 };
  } catch (e) {
    if (!(e instanceof CredgateGraphQLError)) throw e;
    const ext = e.errors[0]?.extensions as Record<string, unknown>;
    return { status: Number(ext['status']), code: String(ext['code']), retryAfter: ext['retryAfter'] === undefined ? null : String(ext['retryAfter']) };
  }
}

// PostgreSQL in both describes: fairness is about a shared pool of connections and row locks.
// (Embedded PGlite has one connection that serialises every query, gate or no gate.)
describe('per-tenant write fairness (PostgreSQL)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ db: await createTestDatabase('postgres'), env: { fairness: FAIRNESS, batch: BATCH } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  describe.each(['REST', 'GraphQL'])('through %s', (name) => {
    let t: FamilyBTransport;
    let slice: Transport;
    let a: Tenant;
    let b: Tenant;
    beforeAll(async () => {
      t = name === 'REST' ? restFamilyB(server) : graphqlFamilyB(server);
      slice = name === 'REST' ? restTransport(server, '') : graphqlTransport(server);
      a = await newTenant(server, t, slice, 'flood-a');
      b = await newTenant(server, t, slice, 'quiet-b');
    });

    test("tenant B's read and write are answered while tenant A's flood is still queued; A's overflow gets 503 + Retry-After", async () => {
      // A's status list row is held by another session while the flood arrives, as a slow batch of
      // another instance would hold it: A's first batch waits on it and the rest of the flood piles
      // up in A's lane, however fast batches commit on this machine (a tick is 6 statements since
      // issue 19, which used to outrun the flood). Released once B has been served.
      const row = await server.app.db.prisma.credential.findUniqueOrThrow({ where: { id: a.credentialId }, select: { statusListId: true } });
      const holder = new Client({ connectionString: (server.db.config as { url: string }).url });
      await holder.connect();
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM status_lists WHERE id = $1 FOR UPDATE', [row.statusListId]);
      let aIssued = 0;
      const flood = Array.from({ length: FLOOD }, (_, n) =>
        issueRaw(server, name, a.key, a.templateId, n + 1).then((r) => {
          if (r.status === 201) aIssued++;
          return r;
        }),
      );
      // B starts once A's burst is in: the first of A's answers has come back.
      await Promise.race(flood);
      const bRead = t.get(b.key, b.credentialId).then((r) => ({ r, aIssuedBefore: aIssued }));
      const bWrite = issueRaw(server, name, b.key, b.templateId, 1).then((r) => ({ r, aIssuedBefore: aIssued }));
      const [read, write] = await Promise.all([bRead, bWrite]);
      await holder.query('COMMIT');
      await holder.end();
      const outcomes = await Promise.all(flood);
      const issued = outcomes.filter((o) => o.status === 201).length;
      const refused = outcomes.filter((o) => o.status === 503);

      // A's excess beyond its queue was refused, with a retry hint; everything else was issued.
      expect(refused.length).toBeGreaterThan(0);
      expect(issued + refused.length).toBe(FLOOD);
      // Ordering, not wall clock: B's read was answered while most of A's accepted burst was still
      // waiting, and B's issuance (its own sequencer lane and write slot) while at least one whole
      // batch of A's was still to come; A's batches commit one after another, B's does not queue
      // behind them.
      expect(unwrap(read.r)['id']).toBe(b.credentialId);
      expect(read.aIssuedBefore).toBeLessThan(issued / 2);
      expect(write.r.status).toBe(201);
      expect(write.aIssuedBefore).toBeLessThanOrEqual(issued - BATCH.max);
      for (const o of refused) {
        expect(Number(o.retryAfter)).toBeGreaterThanOrEqual(1);
        if (name === 'GraphQL') expect(o.code).toBe('SERVICE_UNAVAILABLE');
      }
      // After the burst, A is served again.
      expect((await issueRaw(server, name, a.key, a.templateId, 999)).status).toBe(201);
    });
  });
});

describe('clients that leave while their write is queued (PostgreSQL)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ db: await createTestDatabase('postgres'), env: { fairness: FAIRNESS, batch: BATCH } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  test('every write slot comes back when clients abort queued requests', async () => {
    const t = restFamilyB(server);
    const tenant = await newTenant(server, t, restTransport(server, ''), 'leaver');
    const aborts = Array.from({ length: 20 }, () => new AbortController());
    // Template creation holds a write slot per request (issuance batches hold theirs per batch).
    const sent = aborts.map((c, n) =>
      fetch(`${server.baseUrl}/vc-templates`, {
        method: 'POST',
        headers: { 'X-API-Key': tenant.key, 'content-type': 'application/json' },
        body: JSON.stringify({ templateName: `Leaver ${n}`, description: 'left', issuer: tenant.issuer, attributes: [{ attributeName: 'n', type: 'integer', description: 'n' }], expiration: { value: 1, unit: 'days' } }),
        signal: c.signal,
      }).then(
        async (r) => (await r.arrayBuffer(), r.status),
        () => 'aborted' as const,
      ),
    );
    // Wait until some are queued behind the tenant's two running slots, then everyone leaves.
    for (let i = 0; i < 500 && server.app.services.writes.queued() === 0; i++) await new Promise((r) => setTimeout(r, 5));
    expect(server.app.services.writes.queued()).toBeGreaterThan(0);
    for (const c of aborts) c.abort();
    await Promise.all(sent);
    // The gate drains to zero (polled by count, with a generous bound).
    for (let i = 0; i < 400 && server.app.services.writes.holding() + server.app.services.writes.queued() > 0; i++) await new Promise((r) => setTimeout(r, 25));
    expect(server.app.services.writes.holding()).toBe(0);
    expect(server.app.services.writes.queued()).toBe(0);
    // And the tenant can still write.
    expect((await issueRaw(server, 'REST', tenant.key, tenant.templateId, 100)).status).toBe(201);
  });
});

describe('lock timeouts (PostgreSQL)', () => {
  let server: TestServer;
  let holder: Client;
  beforeAll(async () => {
    const db = await createTestDatabase('postgres');
    server = await startTestServer({ db, env: { dbTimeouts: { ...DB_TIMEOUT_DEFAULTS, lockTimeoutMs: 300 } } });
    holder = new Client({ connectionString: (db.config as { url: string }).url });
    await holder.connect();
  });
  afterAll(async () => {
    await holder?.end();
    await server?.stop();
  });

  test.each(['REST', 'GraphQL'])('an issuance blocked by a held status-list lock answers 503 + Retry-After through %s, not 500', async (name) => {
    const t = name === 'REST' ? restFamilyB(server) : graphqlFamilyB(server);
    const slice = name === 'REST' ? restTransport(server, '') : graphqlTransport(server);
    const tenant = await newTenant(server, t, slice, `locked-${name.toLowerCase()}`);
    // Another session holds the issuer's status-list row for 4 s (an operator, a stuck transaction).
    await holder.query('BEGIN');
    await holder.query('SELECT 1 FROM status_lists sl JOIN credentials c ON c.status_list_id = sl.id WHERE c.id = $1 FOR UPDATE OF sl', [tenant.credentialId]);
    const release = setTimeout(() => void holder.query('ROLLBACK'), 4000);
    try {
      const blocked = await issueRaw(server, name, tenant.key, tenant.templateId, 1);
      expect(blocked.status).toBe(503);
      expect(Number(blocked.retryAfter)).toBeGreaterThanOrEqual(1);
      if (name === 'GraphQL') expect(blocked.code).toBe('SERVICE_UNAVAILABLE');
    } finally {
      clearTimeout(release);
      await holder.query('ROLLBACK');
    }
    expect(server.logs.text()).not.toMatch(/55P03|lock timeout|PrismaClient/i);
    expect((await issueRaw(server, name, tenant.key, tenant.templateId, 2)).status).toBe(201);
  });
});
