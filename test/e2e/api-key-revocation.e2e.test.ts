import { randomBytes } from 'node:crypto';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import type { Config } from '../../src/config';
import { bytesToHex } from '../../src/domain/encoding/hex';
import { signData } from '../../src/domain/signatures/data-signature';
import { hashApiKey, newApiKey } from '../../src/domain/tenancy/api-key-format';
import { CredgateGraphQLError } from '../../src/sdk';
import { type TestServer, startTestServer, useTestServer } from '../support/harness';
import { request } from '../support/http';
import { createTestDatabase } from '../support/test-db';

/**
 * API keys are served from memory (src/cache/api-key-cache.ts). Attack: a leaked key is revoked,
 * and the attacker keeps using it against an instance that still holds it. A revocation must
 * stop the key on every instance within the documented bound: at once where the revocation
 * ran, as soon as the NOTIFY arrives elsewhere, and CREDGATE_API_KEY_CACHE_TTL_MS at the latest
 * when no notice arrives at all. Each probe is an authenticated call through REST and GraphQL:
 * a verified signature (200 / true) while the key works, UNAUTHENTICATED (401) once it does not.
 */
jest.setTimeout(120_000);

const LIMITS: Config['rateLimits'] = { windowSeconds: 60, perApiKey: 0, perCredential: 0, perIp: 0 };
/** How long the tests poll before failing (generous: the machine is shared). */
const TEST_DEADLINE_MS = 20_000;

const sk = secp256k1.utils.randomSecretKey();
const signed = (() => {
  const data = { probe: 'api-key-cache' };
  return { data, signature: signData(data, bytesToHex(sk)), publicKey: bytesToHex(secp256k1.getPublicKey(sk, true)) };
})();

type Probe = 'accepted' | 'refused';

async function viaRest(s: TestServer, key: string): Promise<Probe> {
  const res = await request(s.baseUrl, 'POST', '/signature/verify', { headers: { 'X-API-Key': key }, body: signed });
  if (res.status === 200) return 'accepted';
  expect(res.status).toBe(401);
  expect(res.json.error?.code ?? res.json.code).toBe('UNAUTHENTICATED');
  return 'refused';
}

async function viaGraphql(s: TestServer, key: string): Promise<Probe> {
  try {
    expect(await s.sdk(key).verifySignature(signed)).toBeTruthy();
    return 'accepted';
  } catch (e) {
    if (!(e instanceof CredgateGraphQLError)) throw e;
    expect(e.code).toBe('UNAUTHENTICATED');
    return 'refused';
  }
}

async function both(s: TestServer, key: string): Promise<[Probe, Probe]> {
  return [await viaRest(s, key), await viaGraphql(s, key)];
}

/** Polls both transports until both refuse; fails at the test deadline. */
async function refusedWithin(s: TestServer, key: string): Promise<void> {
  const deadline = Date.now() + TEST_DEADLINE_MS;
  let seen = await both(s, key);
  while (!(seen[0] === 'refused' && seen[1] === 'refused') && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    seen = await both(s, key);
  }
  expect(seen).toEqual(['refused', 'refused']);
}

/** The id of a key, from the administration listing. */
async function idOf(s: TestServer, tenant: string): Promise<string> {
  const [view] = await s.app.services.auth.listApiKeys(tenant);
  return view!.id;
}

describe('one instance (PostgreSQL or PGlite)', () => {
  const server = useTestServer(() => ({ env: { rateLimits: LIMITS } }));

  test('a key in use is refused at once after its revocation, REST and GraphQL', async () => {
    const tenant = `akc-${randomBytes(3).toString('hex')}`;
    const key = await server.apiKey(tenant, ['verifier']);
    // Used on both transports, so it is in the cache.
    expect(await both(server, key)).toEqual(['accepted', 'accepted']);
    expect(await both(server, key)).toEqual(['accepted', 'accepted']);
    await server.app.services.auth.revokeApiKey(tenant, await idOf(server, tenant));
    expect(await both(server, key)).toEqual(['refused', 'refused']);
  });
});

describe('two instances on one PostgreSQL database', () => {
  let a: TestServer;
  let b: TestServer;
  let c: TestServer;
  beforeAll(async () => {
    const db = await createTestDatabase('postgres');
    // A and B would serve a key a whole minute without notices: what stops it on B is the NOTIFY.
    a = await startTestServer({ db, env: { rateLimits: LIMITS, apiKeyCacheTtlMs: 60_000 } });
    const masterKey = a.config.masterKey ? { masterKey: a.config.masterKey } : {};
    b = await startTestServer({ db, env: { rateLimits: LIMITS, apiKeyCacheTtlMs: 60_000 }, ...masterKey });
    // C keeps a key one second without hearing of it: the safety net when a notice is lost.
    c = await startTestServer({ db, env: { rateLimits: LIMITS, apiKeyCacheTtlMs: 1_000 }, ...masterKey });
  });
  afterAll(async () => {
    await c?.close();
    await b?.close();
    await a?.stop();
  });

  test('revoked through instance A, the key stops on instance B through the notice (REST and GraphQL)', async () => {
    const tenant = `akc-ab-${randomBytes(3).toString('hex')}`;
    const key = await a.apiKey(tenant, ['verifier']);
    expect(await both(b, key)).toEqual(['accepted', 'accepted']);
    expect(await both(b, key)).toEqual(['accepted', 'accepted']);
    await a.app.services.auth.revokeApiKey(tenant, await idOf(a, tenant));
    expect(await both(a, key)).toEqual(['refused', 'refused']);
    // B's TTL is 60 s and the test gives up after 20: only the notice can make this pass.
    await refusedWithin(b, key);
  });

  test('a revocation that sends no notice (a row changed by hand) still stops the key within the TTL', async () => {
    const tenant = `akc-ttl-${randomBytes(3).toString('hex')}`;
    const key = await a.apiKey(tenant, ['verifier']);
    expect(await both(a, key)).toEqual(['accepted', 'accepted']);
    expect(await both(c, key)).toEqual(['accepted', 'accepted']);
    await a.app.db.prisma.$executeRaw`UPDATE api_keys SET revoked_at = now() WHERE id = ${await idOf(a, tenant)}::uuid`;
    // Nothing was announced: A (60 s) still serves its copy, which shows the copy is what C serves too.
    expect(await both(a, key)).toEqual(['accepted', 'accepted']);
    await refusedWithin(c, key);
  });

  test('no negative caching: a key refused as unknown on B is accepted there as soon as it exists', async () => {
    const tenant = `akc-new-${randomBytes(3).toString('hex')}`;
    const { id, text } = newApiKey();
    expect(await both(b, text)).toEqual(['refused', 'refused']);
    const owner = await a.app.services.auth.ensureTenant(tenant);
    await a.app.db.prisma.$executeRaw`
      INSERT INTO api_keys (id, tenant_id, name, secret_hash, scopes) VALUES (${id}::uuid, ${owner.id}::uuid, 'fresh', ${hashApiKey(text)}, ARRAY['verifier'])`;
    expect(await both(b, text)).toEqual(['accepted', 'accepted']);
  });
});
