import { randomBytes } from 'node:crypto';
import type { Config } from '../../src/config/config';
import { CredgateGraphQLError } from '../../src/sdk';
import { unwrap } from '../support/family-a-fixtures';
import { type FbParty, fbParty } from '../support/family-b-fixtures';
import { type TestServer, startTestServer } from '../support/harness';

/*
 * Issue 18, part Z2, operations: the WASM loads only when a ZK feature is used; a proof over its
 * deadline answers 503 + Retry-After without hurting other tenants; an installation without the
 * optional package answers FEATURE_OFF (501). Through REST and GraphQL.
 */

jest.setTimeout(180_000);

type Json = Record<string, any>;
const challenge = () => ({ verifierId: 'https://bar.example', nonce: randomBytes(16).toString('hex') });

/** POST /createZkpToken over HTTP, keeping the status, the code and Retry-After. */
async function restCreate(server: TestServer, key: string, body: Json): Promise<{ status: number; code: unknown; retryAfter: string | null }> {
  const res = await fetch(`${server.baseUrl}/createZkpToken`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = (await res.json()) as Json;
  return { status: res.status, code: json['code'], retryAfter: res.headers.get('retry-after') };
}

/** The same through the SDK: the HTTP status, the code and extensions.retryAfter. */
async function gqlCreate(server: TestServer, key: string, body: Json): Promise<{ status: number; code: unknown; retryAfter: string | null }> {
  try {
    await server.sdk(key).createZkpToken({ input: body as never });
    return { status: 200, code: undefined, retryAfter: null };
  } catch (e) {
    if (!(e instanceof CredgateGraphQLError)) throw e;
    const ext = e.errors[0]?.extensions as Json | undefined;
    const status = typeof ext?.['status'] === 'number' ? (ext['status'] as number) : e.httpStatus;
    return { status, code: e.code, retryAfter: ext?.['retryAfter'] === undefined ? null : String(ext['retryAfter']) };
  }
}

const create = (name: string) => (name === 'REST' ? restCreate : gqlCreate);

describe('without the optional package', () => {
  let server: TestServer;
  beforeAll(async () => {
    // The loader seam: the package "is not installed".
    server = await startTestServer({ env: { zk: { workers: 1, deadlineMs: 30_000, capacity: 8, library: null } } as unknown as Partial<Config> });
  });
  afterAll(async () => server.stop());

  test.each(['REST', 'GraphQL'])('%s: bbs-bulletproofs answers FEATURE_OFF (501); the attestation still works', async (name) => {
    const party = await fbParty(server, name);
    const cred = await party.issue();
    const out = await create(name)(server, party.keys.issuer, { credentialId: cred['id'], condition: { age: 18 }, proofSystem: 'bbs-bulletproofs', verifierChallenge: challenge() });
    expect(out.code).toBe('FEATURE_OFF');
    if (name === 'REST') expect(out.status).toBe(501);
    unwrap(await party.t.createZkpToken(party.keys.issuer, { credentialId: cred['id'], condition: { age: 18 } }));
    expect(server.app.services.zk.workersStarted).toBe(0);
  });
});

describe('with a tiny deadline', () => {
  let server: TestServer;
  let slow: FbParty;
  beforeAll(async () => {
    server = await startTestServer({ env: { zk: { workers: 1, deadlineMs: 10, capacity: 8 } } as unknown as Partial<Config> });
    slow = await fbParty(server, 'REST');
  });
  afterAll(async () => server.stop());

  test('nothing loads the WASM until a ZK feature is used', async () => {
    const cred = await slow.issue();
    unwrap(await slow.t.createZkpToken(slow.keys.issuer, { credentialId: cred['id'], condition: { age: 18 } }));
    expect(server.app.services.zk.workersStarted).toBe(0);
  });

  test.each(['REST', 'GraphQL'])('%s: a proof over its deadline is 503 with Retry-After; another tenant is served meanwhile and after', async (name) => {
    const cred = await slow.issue();
    const other = await fbParty(server, name);
    const otherCred = await other.issue();
    const [timedOut, otherToken] = await Promise.all([
      create(name)(server, slow.keys.issuer, { credentialId: cred['id'], condition: { age: 18 }, proofSystem: 'bbs-bulletproofs', verifierChallenge: challenge() }),
      other.t.createZkpToken(other.keys.issuer, { credentialId: otherCred['id'], condition: { age: 18 } }),
    ]);
    expect(timedOut.code).toBe('SERVICE_UNAVAILABLE');
    if (name === 'REST') expect(timedOut.status).toBe(503);
    expect(Number(timedOut.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(server.app.services.zk.workersStarted).toBeGreaterThanOrEqual(1);
    // The other tenant's requests are not held up by the stopped worker, and the service still answers.
    const token = unwrap(otherToken);
    expect(unwrap(await other.t.verifyZkpToken(other.keys.verifier, token))).toMatchObject({ success: true, conditionMet: true });
  });
});
