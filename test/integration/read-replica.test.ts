import { randomBytes, randomUUID } from 'node:crypto';
import { type TestServer, startTestServer } from '../support/harness';
import { FB_ATTRIBUTES, type FbParty, fbParty } from '../support/family-b-fixtures';
import { consent, newHolder, newParty, schemaBody, subject, unwrap } from '../support/family-a-fixtures';
import { type ReplicaCluster, startReplicaCluster } from '../support/pg-replica';
import { request } from '../support/http';
import { graphqlFamilyB, restFamilyB } from '../support/family-b-transports';
import { type VcApiTransport, graphqlVcApi, restVcApi } from '../support/vc-api-transports';
import type { ReadStats } from '../../src/db/read-replica';

/**
 * Read scale-out on a real PostgreSQL streaming replica (issue 19). The file starts its own
 * primary and a hot standby of it (`pg_basebackup -R`, as the postgres user), so it runs the
 * same whatever CREDGATE_TEST_DB says: the shared test server is not involved. Nothing is mocked.
 *
 * How a read is shown to come from the replica: WAL replay is paused there, so the replica keeps
 * answering from the past. A verification must still see every commit acknowledged before it
 * (a new credential, a revocation), so it is answered by the primary; a template read without
 * Credgate-LSN is answered by the replica (the old name still resolves there), and the same read
 * with the position the update answered with is answered by the primary. The router's counters
 * say where each read went.
 */
jest.setTimeout(180_000);

const LSN = /^[0-9A-F]{1,8}\/[0-9A-F]{1,8}$/;
const statusOf = (v: { checks: { check: string; ok: boolean; detail?: string | null }[] }) => v.checks.find((c) => c.check === 'status');
const templateBody = (p: FbParty, name: string) => ({ templateName: name, description: 'Badge', issuer: p.issuer.did, attributes: FB_ATTRIBUTES, expiration: { value: 2, unit: 'years' } });

let cluster: ReplicaCluster;
let server: TestServer;
/** A second instance on the same cluster whose lag bound is short: a paused replica soon counts as lagging. */
let strict: TestServer;

// Every request the transports make (REST through fetch, GraphQL through the SDK's fetch) passes
// here: the position to send, and the position the last answer carried.
const realFetch = globalThis.fetch;
let sendLsn: string | undefined;
let answeredLsn: string | null = null;
async function lsnAware(input: Parameters<typeof fetch>[0], init?: RequestInit): Promise<Response> {
  const headers = new Headers(init?.headers);
  if (sendLsn !== undefined) headers.set('Credgate-LSN', sendLsn);
  const res = await realFetch(input, { ...init, headers });
  answeredLsn = res.headers.get('credgate-lsn');
  return res;
}
async function withLsn<T>(lsn: string | undefined, fn: () => Promise<T>): Promise<T> {
  sendLsn = lsn;
  try {
    return await fn();
  } finally {
    sendLsn = undefined;
  }
}
/** The position the last write answered with (asserted present). */
function lastPosition(): string {
  expect(answeredLsn).toMatch(LSN);
  return answeredLsn!;
}

const stats = (s: TestServer): ReadStats => ({ ...s.app.readRouter!.stats });
const delta = (before: ReadStats, s: TestServer): ReadStats => {
  const now = s.app.readRouter!.stats;
  return { replica: now.replica - before.replica, primary: now.primary - before.primary, fallbacks: now.fallbacks - before.fallbacks };
};

async function readiness(s: TestServer): Promise<{ status: string; readReplica: { state: string; lagMs: number | null } }> {
  return (await request(s.baseUrl, 'GET', '/readyz')).json;
}
/** Polls /readyz until the replica is in `state`; bounded by tries, never asserted on time. */
async function replicaState(s: TestServer, state: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if ((await readiness(s)).readReplica.state === state) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`the replica never became ${state}: ${JSON.stringify(await readiness(s))}`);
}

beforeAll(async () => {
  globalThis.fetch = lsnAware as typeof fetch;
  cluster = await startReplicaCluster();
  const readReplica = (maxLagMs: number) => ({ url: cluster.replicaUrl, maxLagMs, waitMs: 50, checkMs: 25 });
  server = await startTestServer({ db: cluster.db, env: { readReplica: readReplica(600_000) } });
  strict = await startTestServer({ db: cluster.db, masterKey: server.config.masterKey!, env: { readReplica: readReplica(100) } });
});
afterAll(async () => {
  globalThis.fetch = realFetch;
  await strict?.close();
  await server?.close();
  await cluster?.close();
});

describe.each(['REST', 'GraphQL'])('reads on a streaming replica, through %s', (name) => {
  let p: FbParty;
  beforeAll(async () => {
    p = await fbParty(server, name);
    await cluster.caughtUp();
    await replicaState(server, 'ok');
  });

  test('a write answers with Credgate-LSN; a verification is read from the replica once it has replayed it', async () => {
    const credential = await p.issue();
    const issuedAt = lastPosition();
    const before = stats(server);
    const v = await withLsn(issuedAt, async () => unwrap(await p.t.verify(p.keys.verifier, credential)));
    expect(v.verified).toBe(true);
    expect(delta(before, server).replica).toBeGreaterThan(0);
    expect(delta(before, server).primary).toBe(0);
    expect(await readiness(server)).toMatchObject({ status: 'ok', readReplica: { state: 'ok' } });
  });

  describe('while the replica replays nothing', () => {
    let replicated: Record<string, any>;
    beforeAll(async () => {
      replicated = await p.issue();
      await cluster.caughtUp();
      await cluster.pauseReplay();
    });
    afterAll(async () => {
      await cluster.resumeReplay();
      await cluster.caughtUp();
    });

    test('a credential issued after the pause verifies, with and without its Credgate-LSN (the primary answers)', async () => {
      const credential = await p.issue();
      const issuedAt = lastPosition();
      // The replica does not have it: a replica answer would be "not found".
      expect(await cluster.queryReplica('SELECT id FROM credentials WHERE id = $1', [credential['id']])).toEqual([]);
      for (const lsn of [issuedAt, undefined]) {
        const before = stats(server);
        const v = await withLsn(lsn, async () => unwrap(await p.t.verify(p.keys.verifier, credential)));
        expect(v.verified).toBe(true);
        expect(delta(before, server)).toMatchObject({ replica: 0 });
        expect(delta(before, server).primary).toBeGreaterThan(0);
      }
    });

    test('a credential revoked after the pause never verifies, though the replica still holds it unrevoked', async () => {
      expect(unwrap(await p.t.verify(p.keys.verifier, replicated)).verified).toBe(true);
      unwrap(await p.t.revoke(p.keys.issuer, replicated['id']));
      lastPosition();
      expect(await cluster.queryReplica('SELECT revoked_at FROM credentials WHERE id = $1', [replicated['id']])).toEqual([{ revoked_at: null }]);
      const v = unwrap(await p.t.verify(p.keys.verifier, replicated));
      expect(v.verified).toBe(false);
      expect(statusOf(v)).toMatchObject({ ok: false, detail: 'credential has been revoked' });
    });

    test('a template read without Credgate-LSN comes from the replica; with the update\'s position, from the primary', async () => {
      const oldName = p.template['name'] as string;
      const renamed = `Renamed ${randomBytes(3).toString('hex')}`;
      unwrap(await p.t.updateTemplate(p.keys.issuer, p.template['templateId'] as string, templateBody(p, renamed)));
      const updatedAt = lastPosition();
      p.template = { ...p.template, name: renamed };

      // Without the position: the replica's past, within the lag bound the operator set.
      let before = stats(server);
      expect(unwrap(await p.t.getTemplate(p.keys.issuer, oldName))).toMatchObject({ name: oldName });
      expect(delta(before, server)).toMatchObject({ primary: 0, fallbacks: 0 });
      expect(delta(before, server).replica).toBeGreaterThan(0);
      // A name the replica does not know yet is asked of the primary, never answered 404.
      before = stats(server);
      expect(unwrap(await p.t.getTemplate(p.keys.issuer, renamed))).toMatchObject({ name: renamed });
      expect(delta(before, server).fallbacks).toBeGreaterThan(0);

      // With it: the replica has not replayed it, so the primary answers, as it is now.
      before = stats(server);
      expect(await withLsn(updatedAt, () => p.t.getTemplate(p.keys.issuer, oldName))).toMatchObject({ ok: false, status: 404 });
      expect(unwrap(await withLsn(updatedAt, () => p.t.getTemplate(p.keys.issuer, renamed)))).toMatchObject({ name: renamed });
      expect(delta(before, server)).toMatchObject({ replica: 0 });
    });

    test('an instance with a short lag bound stops reading from the paused replica and answers from the primary', async () => {
      const fresh = await p.issue();
      await replicaState(strict, 'lagging');
      const other = name === 'REST' ? restFamilyB(strict) : graphqlFamilyB(strict);
      const before = stats(strict);
      expect(unwrap(await other.verify(p.keys.verifier, fresh)).verified).toBe(true);
      expect(unwrap(await other.getTemplate(p.keys.issuer, p.template['name'] as string))).toMatchObject({ name: p.template['name'] });
      expect(delta(before, strict)).toMatchObject({ replica: 0 });
      expect(await readiness(strict)).toMatchObject({ status: 'ok', readReplica: { state: 'lagging' } });
    });
  });

  test('a Credgate-LSN that is not a WAL position is refused with 400, and nothing is read', async () => {
    const before = stats(server);
    const out = await withLsn('not-a-position', () => p.t.getTemplate(p.keys.issuer, p.template['name'] as string));
    expect(out).toMatchObject({ ok: false, status: 400, code: 'INVALID_INPUT' });
    expect(delta(before, server)).toEqual({ replica: 0, primary: 0, fallbacks: 0 });
  });

  describe('VC-API verification', () => {
    let vc: VcApiTransport;
    let issuerKey: string;
    let verifierKey: string;
    let did: string;
    const issueRevocable = async () => {
      const id = `urn:uuid:${randomUUID()}`;
      const credential = { '@context': ['https://www.w3.org/ns/credentials/v2'], id, type: ['VerifiableCredential'], issuer: did, credentialSubject: { id: 'did:example:subject' } };
      return { id, vc: unwrap(await vc.issue(issuerKey, { credential, options: { credentialStatus: { type: 'BitstringStatusListEntry' } } })).verifiableCredential };
    };
    beforeAll(async () => {
      vc = name === 'REST' ? restVcApi(server) : graphqlVcApi(server);
      const tenant = `replica-vc-${randomUUID().slice(0, 8)}`;
      issuerKey = await server.apiKey(tenant, ['issuer']);
      verifierKey = await server.apiKey(tenant, ['verifier']);
      did = unwrap(await vc.listIssuers(issuerKey)).find((i) => i.default)!.issuer;
    });

    test('is read from the replica once it caught up; a status set while replay is paused is never missed', async () => {
      const { id, vc: credential } = await issueRevocable();
      await cluster.caughtUp();
      let before = stats(server);
      expect(unwrap(await vc.verify(verifierKey, { verifiableCredential: credential })).verified).toBe(true);
      expect(delta(before, server).replica).toBeGreaterThan(0);

      await cluster.pauseReplay();
      try {
        unwrap(await vc.updateStatus(issuerKey, { credentialId: id, statusPurpose: 'revocation', status: true }));
        before = stats(server);
        expect(unwrap(await vc.verify(verifierKey, { verifiableCredential: credential })).verified).toBe(false);
        expect(delta(before, server).replica).toBe(0);
      } finally {
        await cluster.resumeReplay();
      }
      await cluster.caughtUp();
      before = stats(server);
      expect(unwrap(await vc.verify(verifierKey, { verifiableCredential: credential })).verified).toBe(false);
      expect(delta(before, server).replica).toBeGreaterThan(0);
    });
  });

  test('Family A verification and DID documents: what was written while replay is paused is answered by the primary, never missed; once caught up, by the replica', async () => {
    const a = await newParty(server, name);
    const user = await newHolder(a);
    const issuerDid = unwrap(await a.fa.issuerDid(a.issuerKey));
    const schemaName = `Replica${name}${randomBytes(2).toString('hex')}`;
    unwrap(await a.fa.createSchema(a.issuerKey, schemaBody(schemaName)));
    await cluster.caughtUp();
    await cluster.pauseReplay();
    let verify: () => Promise<{ success: boolean; data: { isIssuerDIDValid: string } }>;
    let did: string;
    try {
      const values = subject();
      const issued = unwrap(await a.fa.issue(a.issuerKey, await consent(a, user, issuerDid, values), { schemaName: `${schemaName}:1`, isEncrypted: false, dependantVerifiableCredential: [], credentialSubject: values }));
      verify = async () => unwrap(await a.fa.verify(a.verifierKey, { publicKey: user.publicKey, userSignature: issued.userSignature }, { credentials: issued.verifiableCredential }));
      const kp = unwrap(await a.slice.generateKeypair(a.issuerKey));
      did = unwrap(await a.slice.createDid(a.issuerKey, { method: 'credgate', publicKey: kp.publicKey })).document.id;
      const before = stats(server);
      expect(await verify()).toMatchObject({ success: true, data: { isIssuerDIDValid: 'Success' } });
      expect(delta(before, server).replica).toBe(0);
      // A DID the replica does not have yet is found (DID records come from the record cache,
      // which loads from the primary; a replica miss would be asked of the primary too).
      expect(unwrap(await a.slice.getDid(a.issuerKey, did)).id).toBe(did);
    } finally {
      await cluster.resumeReplay();
    }
    await cluster.caughtUp();
    const before = stats(server);
    expect(await verify()).toMatchObject({ success: true, data: { isIssuerDIDValid: 'Success' } });
    expect(unwrap(await a.slice.getDid(a.issuerKey, did)).id).toBe(did);
    expect(delta(before, server)).toMatchObject({ primary: 0, fallbacks: 0 });
    expect(delta(before, server).replica).toBeGreaterThan(0);
  });

  describe('when the replica dies', () => {
    afterAll(async () => {
      await cluster.startReplica();
      await cluster.caughtUp();
      await replicaState(server, 'ok');
    });

    test('verification and reads are answered correctly by the primary, and /readyz says the replica is down', async () => {
      const good = await p.issue();
      const revoked = await p.issue();
      unwrap(await p.t.revoke(p.keys.issuer, revoked['id']));
      await cluster.killReplica();
      // The first read after the crash may be the one that finds it: it is answered by the primary.
      for (let i = 0; i < 3; i++) {
        expect(unwrap(await p.t.verify(p.keys.verifier, good)).verified).toBe(true);
        const v = unwrap(await p.t.verify(p.keys.verifier, revoked));
        expect(statusOf(v)).toMatchObject({ ok: false, detail: 'credential has been revoked' });
        expect(unwrap(await p.t.getTemplate(p.keys.issuer, p.template['name'] as string))).toMatchObject({ name: p.template['name'] });
      }
      await replicaState(server, 'down');
      expect((await readiness(server)).status).toBe('ok');
      const before = stats(server);
      expect(unwrap(await p.t.verify(p.keys.verifier, good)).verified).toBe(true);
      expect(delta(before, server)).toMatchObject({ replica: 0 });
    });

    test('once it is back and caught up, reads go to it again', async () => {
      await cluster.startReplica();
      await cluster.caughtUp();
      await replicaState(server, 'ok');
      const credential = await p.issue();
      await cluster.caughtUp();
      const before = stats(server);
      expect(unwrap(await p.t.verify(p.keys.verifier, credential)).verified).toBe(true);
      expect(delta(before, server).replica).toBeGreaterThan(0);
    });
  });
});
