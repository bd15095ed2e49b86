/**
 * Issue 21: an issuer revokes ONE credential it issued to a wallet through the revocation route
 * it already has (Family B DELETE /credentials/{id}, GraphQL revokeTemplateCredential), not only
 * the whole offer. The compiled service (dist/main.js), the oid4vc-ts wallet process receiving
 * two SD-JWT VCs in one batch, the issuer-admin list of the offer's credentials (each with its
 * record id), and the wallet presenting each credential to the service's own verifier
 * (test/wallets/oid4vp-presenter.mjs): after the revocation the revoked credential fails with
 * status_invalid and its bit is set in the served statuslist+jwt, the other one still verifies.
 * Attacks: another tenant's key and an unknown id cannot revoke (404, nothing flips).
 */
import { type JsonWebKey, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type RunningService, runCliAsync, startService } from '../support/process';
import { type TestDatabase, createTestDatabase } from '../support/test-db';
import { endpointAt } from '../support/harness';
import { restFamilyA } from '../support/family-a-transports';
import { schemaBody, unwrap } from '../support/family-a-fixtures';
import { type IssuedCredential, type OffersTransport, graphqlOffers, restOffers } from '../support/oid4vci-transports';
import { runIssuanceWallet, stepOf } from '../support/oid4vci-wallet';
import { runWallet } from '../support/oid4vp-wallet';
import { type Oid4vpTransport, oid4vpGraphql, oid4vpRest } from '../support/oid4vp-transports';
import { type FamilyBTransport, graphqlFamilyB, restFamilyB } from '../support/family-b-transports';
import { decodeLst, statusAt } from '../../src/formats/token-status-list';

jest.setTimeout(180_000);

const TENANT = 'revoking-issuer';
const SCHEMA = 'StaffCard';
const SD_JWT = `schema.${SCHEMA}.v1.sd_jwt`;

let db: TestDatabase;
let dir: string;
let svc: RunningService;
let key: string;
let otherKey: string;

beforeAll(async () => {
  db = await createTestDatabase();
  dir = mkdtempSync(path.join(os.tmpdir(), 'credgate-oid4vci-revocation-'));
  const env: Record<string, string> = {
    DATABASE_URL: db.config.kind === 'postgres' ? db.config.url : '',
    CREDGATE_MASTER_KEY: randomBytes(32).toString('hex'),
    CREDGATE_DATA_DIR: db.dataDir,
  };
  // Before the service starts: PGlite admits one process at a time.
  expect((await runCliAsync(['tenant', 'create', TENANT], env)).status).toBe(0);
  const created = await runCliAsync(['api-key', 'create', '--tenant', TENANT, '--scopes', 'issuer,verifier'], env);
  expect(created.status).toBe(0);
  key = (JSON.parse(created.stdout.trim()) as { key: string }).key;
  expect((await runCliAsync(['tenant', 'create', 'someone-else'], env)).status).toBe(0);
  const other = await runCliAsync(['api-key', 'create', '--tenant', 'someone-else', '--scopes', 'issuer'], env);
  expect(other.status).toBe(0);
  otherKey = (JSON.parse(other.stdout.trim()) as { key: string }).key;
  svc = await startService(env);
  unwrap(await restFamilyA(endpointAt(svc.url), '').createSchema(key, schemaBody(SCHEMA)));
}, 180_000);

afterAll(async () => {
  await svc?.stop();
  await db?.drop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Held {
  readonly compact: string;
  readonly holderPrivateJwk: JsonWebKey;
  readonly status: { uri: string; idx: number };
}

/** The SD-JWT VC's issuer-signed payload (its signature is the verifier's business below). */
const payloadOf = (compact: string): Record<string, any> => JSON.parse(Buffer.from(compact.split('~')[0]!.split('.')[1]!, 'base64url').toString());

/** The status of an entry as any verifier reads it: the signed statuslist+jwt at its URI, decoded. */
async function statusBit(ref: { uri: string; idx: number }): Promise<number | undefined> {
  const res = await fetch(ref.uri);
  expect(res.status).toBe(200);
  const payload = JSON.parse(Buffer.from((await res.text()).split('.')[1]!, 'base64url').toString());
  return statusAt(decodeLst(payload.status_list.lst, 1 << 20), payload.status_list.bits, ref.idx);
}

/** The wallet presents one credential (only `name`) to a new request of the service's own verifier. */
async function present(verifier: Oid4vpTransport, held: Held): Promise<{ walletError: string | undefined; status: string; failedChecks: string[] }> {
  const vct = payloadOf(held.compact)['vct'] as string;
  const req = unwrap(await verifier.create(key, { dcqlQuery: { credentials: [{ id: 'card', format: 'dc+sd-jwt', meta: { vct_values: [vct] }, claims: [{ path: ['name'] }] }] }, clientIdPrefix: 'redirect_uri' }));
  const out = await runWallet({ authorizationRequest: req['authorizationRequest'], credentials: { card: { compact: held.compact } }, holderPrivateJwk: held.holderPrivateJwk, walletAnchorsPem: [] });
  if (out.error === 'wallet_failed') throw new Error(`the wallet failed: ${out.message}`);
  const { status, result } = unwrap(await verifier.result(key, req['id']));
  const checks = (result?.['credentials']?.[0]?.['checks'] ?? []) as { check: string; passed: boolean }[];
  return { walletError: out.submissions?.[0]?.body?.['error'], status, failedChecks: checks.filter((c) => !c.passed).map((c) => c.check) };
}

const TRANSPORTS: [string, () => OffersTransport, () => FamilyBTransport, () => Oid4vpTransport][] = [
  ['REST', () => restOffers(endpointAt(svc.url)), () => restFamilyB(endpointAt(svc.url)), () => oid4vpRest(svc.url)],
  ['GraphQL', () => graphqlOffers(endpointAt(svc.url)), () => graphqlFamilyB(endpointAt(svc.url)), () => oid4vpGraphql(svc.url)],
];

describe.each(TRANSPORTS)('%s: one credential a wallet received is revoked through the Family B route', (_name, offers, familyB, verifier) => {
  test('listed with its id, revoked alone (idempotently), its status bit set, its presentation refused; the other one still verifies', async () => {
    const o = unwrap(await offers().create(key, { credentialConfigurationIds: [SD_JWT], claims: { name: 'Alice', email: 'alice@example.com', age: 30 }, txCodeLength: 6 }));
    const out = await runIssuanceWallet({ offerUri: o.offerUri, txCode: o.txCode, batch: 2, exportHolderKeys: true });
    expect(stepOf(out, 'credentials')).toMatchObject({ ok: true, count: 2 });
    const held: Held[] = out.credentials.map((c) => {
      const compact = c as string;
      const payload = payloadOf(compact);
      // Each credential is bound to the key of its own proof: present it with that key.
      const index = out.holderJwks.findIndex((k) => k.x === payload['cnf']['jwk']['x']);
      return { compact, holderPrivateJwk: out.holderPrivateJwks![index]!, status: payload['status']['status_list'] };
    });

    const listed = unwrap(await offers().credentials(key, o.id));
    expect(listed).toHaveLength(2);
    for (const c of listed) expect(c).toMatchObject({ offerId: o.id, configurationId: SD_JWT, format: 'dc+sd-jwt', status: 'issued', revokedAt: null });
    expect(new Set(listed.map((c) => c.id)).size).toBe(2);
    for (const h of held) expect(await statusBit(h.status)).toBe(0);

    const target = listed[0]!;
    const revoked = unwrap(await familyB().revoke(key, target.id));
    expect(revoked).toMatchObject({ id: target.id, status: 'revoked', revokedAt: expect.any(String) });
    // Idempotent: a retry answers the first revocation's time.
    expect(unwrap(await familyB().revoke(key, target.id))).toEqual(revoked);

    const after = unwrap(await offers().credentials(key, o.id));
    expect(after.find((c) => c.id === target.id)).toMatchObject({ status: 'revoked', revokedAt: revoked.revokedAt });
    expect(after.find((c) => c.id !== target.id)).toMatchObject({ status: 'issued', revokedAt: null });
    // The offer itself is not revoked: only that one credential is.
    expect(unwrap(await offers().get(key, o.id)).revokedAt).toBeNull();

    // Exactly one of the two status list entries flipped, in the token any verifier fetches.
    const bits = await Promise.all(held.map((h) => statusBit(h.status)));
    expect([...bits].sort()).toEqual([0, 1]);
    const gone = held[bits.indexOf(1)]!;
    const kept = held[bits.indexOf(0)]!;

    expect(await present(verifier(), gone)).toMatchObject({ walletError: 'access_denied', status: 'failed', failedChecks: expect.arrayContaining(['status_invalid']) });
    expect(await present(verifier(), kept)).toMatchObject({ walletError: undefined, status: 'verified', failedChecks: [] });
  });

  test('attacks: another tenant cannot revoke or list it, an unknown id is 404; nothing flips', async () => {
    const o = unwrap(await offers().create(key, { credentialConfigurationIds: [SD_JWT], claims: { name: 'Bob', email: 'bob@example.com', age: 41 }, txCodeLength: 6 }));
    const out = await runIssuanceWallet({ offerUri: o.offerUri, txCode: o.txCode });
    expect(stepOf(out, 'credentials')).toMatchObject({ ok: true, count: 1 });
    const status = payloadOf(out.credentials[0] as string)['status']['status_list'] as { uri: string; idx: number };
    const [issued] = unwrap(await offers().credentials(key, o.id)) as [IssuedCredential];

    expect(await familyB().revoke(otherKey, issued.id)).toMatchObject({ ok: false, status: 404 });
    expect(await offers().credentials(otherKey, o.id)).toMatchObject({ ok: false, status: 404 });
    expect(await familyB().revoke(key, randomUUID())).toMatchObject({ ok: false, status: 404 });
    expect(await offers().credentials(key, 'not-an-offer')).toMatchObject({ ok: false, status: 404 });

    expect(await statusBit(status)).toBe(0);
    expect(unwrap(await offers().credentials(key, o.id))).toEqual([issued]);
  });
});
