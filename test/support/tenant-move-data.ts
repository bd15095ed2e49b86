import { randomBytes, randomUUID } from 'node:crypto';
import { consent, newHolder, newParty, schemaBody, subject, unwrap } from './family-a-fixtures';
import { type FbParty, fbParty } from './family-b-fixtures';
import type { TestServer } from './harness';
import { request } from './http';
import { restOffers } from './oid4vci-transports';
import { runIssuanceWallet, stepOf } from './oid4vci-wallet';
import { oid4vpRest } from './oid4vp-transports';
import { restVcApi } from './vc-api-transports';

/**
 * One of every kind of tenant data on a deployment, made through its public interfaces, and what
 * test/e2e/tenant-move-roundtrip.e2e.test.ts then asks about it before and after the tenant moves.
 */

type Json = Record<string, any>;

const V2 = 'https://www.w3.org/ns/credentials/v2';
const UNDEFINED_TERMS = 'https://www.w3.org/ns/credentials/undefined-terms/v2';
const REVOCABLE = { credentialStatus: { type: 'BitstringStatusListEntry', statusPurpose: 'revocation' } };
const SCHEMA = `StaffCard${randomBytes(2).toString('hex')}`;
const SD_JWT = `schema.${SCHEMA}.v1.sd_jwt`;

/** What the questions are asked about: ids and documents made on A, read from its answers and tables. */
export interface Ctx {
  tenant: string;
  tenantId: string;
  /** A key of the tenant with every scope: it travels with the tenant, so B knows it too. */
  all: string;
  party: FbParty;
  logs: { id: string; size: number; entryHash: string }[];
  dids: string[];
  didDocs: string[];
  faSchemas: string[];
  fa: { vc: Json; userSignature: string; publicKey: string; refused: boolean }[];
  fb: { vc: Json; refused: boolean }[];
  vcs: { vc: Json; refused: boolean }[];
  statusLists: string[];
  vcStatusLists: string[];
  tokenStatusLists: string[];
  offers: string[];
  offerHandle: string;
  requests: string[];
  templates: string[];
  configurations: string[];
  idempotent: { body: Json; key: string; first: { status: number; body: unknown } };
  /** Family B presentations (of a valid and of the revoked credential) as verify-vp takes them. */
  vps: { input: Json; refused: boolean }[];
  zkpToken: Json;
  signature: { signature: string; data: Json; publicKey: string };
  /** A VC-API presentation holding a valid and the revoked credential, without a holder proof. */
  vcPresentation: Json;
}

/**
 * Waits until every signed head of the tenant's logs is anchored on the chain and the latest one
 * of each log cosigned by the witness (both happen in the background), so what A answers is
 * final and there is witness and anchor state to move.
 */
export async function settled(a: TestServer, c: Ctx): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const [pending] = await a.app.db.sql.query<{ n: string }>(
      "SELECT count(*)::text AS n FROM anchor_outbox WHERE status <> 'anchored' AND log_id IN (SELECT '0.0.' || seq::text FROM ledger_logs WHERE tenant_id = $1)",
      [c.tenantId],
    );
    const [uncosigned] = await a.app.db.sql.query<{ n: string }>(
      'SELECT count(*)::text AS n FROM ledger_heads h JOIN ledger_logs l ON l.seq = h.log_seq WHERE l.tenant_id = $1 AND NOT EXISTS (SELECT 1 FROM ledger_cosignatures s WHERE s.log_seq = h.log_seq AND s.tree_size = h.tree_size)',
      [c.tenantId],
    );
    if (pending!.n === '0' && uncosigned!.n === '0') break;
    if (Date.now() > deadline) throw new Error(`not settled: ${pending!.n} heads not anchored, ${uncosigned!.n} not cosigned`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const [rows] = await a.app.db.sql.query<{ anchored: string; cosignatures: string }>(
    `SELECT (SELECT count(*) FROM anchor_outbox WHERE log_id IN (SELECT '0.0.' || seq::text FROM ledger_logs WHERE tenant_id = $1))::text AS anchored,
            (SELECT count(*) FROM ledger_cosignatures WHERE log_seq IN (SELECT seq FROM ledger_logs WHERE tenant_id = $1))::text AS cosignatures`,
    [c.tenantId],
  );
  expect(Number(rows!.anchored)).toBeGreaterThan(0);
  expect(Number(rows!.cosignatures)).toBeGreaterThan(0);
}

/** One of every kind of tenant data, on A, through the public interfaces. */
export async function makeTenantData(a: TestServer, c: Ctx): Promise<void> {
  const q = a.app.db.sql;
  // Family B: a template, its issuer DID, two credentials, one revoked; a third issued with an Idempotency-Key.
  c.party = await fbParty(a, 'REST');
  c.tenant = (await q.query<{ slug: string }>('SELECT t.slug FROM tenants t JOIN dids d ON d.tenant_id = t.id WHERE d.did = $1', [c.party.issuer.did]))[0]!.slug;
  c.tenantId = (await q.query<{ id: string }>('SELECT id FROM tenants WHERE slug = $1', [c.tenant]))[0]!.id;
  c.all = await a.apiKey(c.tenant, ['admin', 'issuer', 'holder', 'verifier']);
  const fb1 = await c.party.issue();
  const fb2 = await c.party.issue();
  // The holder presents both (before one is revoked: a presentation made then must fail after).
  c.vps = [];
  for (const [vc, refused] of [[fb1, false], [fb2, true]] as const) {
    const shared = { [String(vc['id'])]: ['name'] };
    const vp = unwrap(await c.party.t.createVp(c.party.keys.holder, { credentialIds: [vc['id']], sharedAttributes: shared, holderDID: c.party.holder.did, challenge: 'move', domain: 'verifier.example' }));
    c.vps.push({ input: { vpToken: vp, sharedAttributes: shared, holderDID: c.party.holder.did, holderPublicKey: c.party.holder.publicKey, challenge: 'move', domain: 'verifier.example' }, refused });
  }
  unwrap(await c.party.t.revoke(c.party.keys.issuer, String(fb2['id'])));
  const body = { templateId: c.party.template['templateId'], credentialSubject: { name: 'Ada', birthDate: '1985-01-01', employeeNo: 9 }, holder: c.party.holder.did };
  const first = await request(a.baseUrl, 'POST', '/credentials', { headers: { 'X-API-Key': c.party.keys.issuer, 'Idempotency-Key': 'move-1' }, body });
  c.idempotent = { body, key: c.party.keys.issuer, first: { status: first.status, body: first.json } };
  const fb3 = first.json as Json;
  c.fb = [
    { vc: fb1, refused: false },
    { vc: fb2, refused: true },
    { vc: fb3, refused: false },
  ];
  c.templates = [String(c.party.template['name'])];
  // A ZKP token over a valid credential; a payload the holder signed.
  c.zkpToken = unwrap(await c.party.t.createZkpToken(c.party.keys.issuer, { credentialId: fb1['id'], condition: { age: 18 } }));
  const data = { moved: 'tenant' };
  c.signature = { signature: unwrap(await c.party.t.sign(c.party.keys.holder, data, c.party.holder.privateKey)), data, publicKey: c.party.holder.publicKey };
  c.statusLists = [...new Set(c.fb.map((f) => new URL(String(f.vc['credentialStatus']['statusListCredential'])).pathname.split('/').pop()!))];

  // Family A, same tenant: a schema (also the OpenID4VCI configuration below), two credentials, one revoked.
  const p = await newParty(a, 'REST');
  p.issuerKey = c.all;
  p.holderKey = c.all;
  p.verifierKey = c.all;
  const issuerDid = unwrap(await p.fa.issuerDid(p.issuerKey));
  unwrap(await p.fa.createSchema(p.issuerKey, schemaBody(SCHEMA)));
  c.faSchemas = [SCHEMA, `${SCHEMA}:1`];
  c.fa = [];
  for (const revoke of [false, true]) {
    const holder = await newHolder(p);
    const values = subject();
    const headers = await consent(p, holder, issuerDid, values);
    const issued = unwrap(await p.fa.issue(p.issuerKey, headers, { schemaName: `${SCHEMA}:1`, isEncrypted: false, dependantVerifiableCredential: [], credentialSubject: values }));
    if (revoke) unwrap(await p.fa.revoke(p.issuerKey, { publicKey: holder.publicKey, userSignature: issued.userSignature }, issued.verifiableCredential));
    c.fa.push({ vc: issued.verifiableCredential, userSignature: issued.userSignature, publicKey: holder.publicKey, refused: revoke });
  }

  // VC-API: an eddsa-rdfc-2022 and a bbs-2023 instance; revocable credentials, one revoked through the status route.
  const vt = restVcApi(a);
  const eddsa = unwrap(await vt.createIssuer(c.all, { cryptosuite: 'eddsa-rdfc-2022' }));
  const bbs = unwrap(await vt.createIssuer(c.all, { cryptosuite: 'bbs-2023' }));
  const credential = (issuer: string): Json => ({ '@context': [V2, UNDEFINED_TERMS], id: `urn:uuid:${randomUUID()}`, issuer, type: ['VerifiableCredential', 'AlumniCredential'], credentialSubject: { id: 'did:example:ebfeb1f712ebc6f1c276e12ec21', name: 'Ada Lovelace', alumniOf: 'Example University' } });
  const vc1 = unwrap(await vt.issue(c.all, { credential: credential(eddsa.issuer), options: REVOCABLE }, eddsa.id)).verifiableCredential;
  const vc2 = unwrap(await vt.issue(c.all, { credential: credential(eddsa.issuer), options: REVOCABLE }, eddsa.id)).verifiableCredential;
  unwrap(await vt.updateStatus(c.all, { credentialId: String(vc2['id']), statusPurpose: 'revocation', status: true }));
  const vc3 = unwrap(await vt.issue(c.all, { credential: { ...credential(bbs.issuer), credentialSubject: { name: 'Ada Lovelace', alumniOf: 'Example University' } } }, bbs.id)).verifiableCredential;
  // A bbs-2023 base proof is for the holder to derive from: verifiers refuse it, before and after the move alike.
  c.vcs = [
    { vc: vc1, refused: false },
    { vc: vc2, refused: true },
    { vc: vc3, refused: true },
  ];
  c.vcPresentation = { '@context': [V2], type: ['VerifiablePresentation'], verifiableCredential: [vc1, vc2] };
  c.vcStatusLists = [...new Set([vc1, vc2].map((v) => new URL(String(v['credentialStatus']['statusListCredential'])).pathname.split('/').pop()!))];

  // OpenID4VCI: a wallet redeems an offer (two SD-JWT VCs, one revoked alone); another offer waits, by reference.
  const offers = restOffers(a);
  const redeemed = unwrap(await offers.create(c.all, { credentialConfigurationIds: [SD_JWT], claims: { name: 'Alice', email: 'alice@example.com', age: 30 }, txCodeLength: 6 }));
  const wallet = await runIssuanceWallet({ offerUri: redeemed.offerUri, txCode: redeemed.txCode, batch: 2 });
  expect(stepOf(wallet, 'credentials')).toMatchObject({ ok: true, count: 2 });
  const delivered = unwrap(await offers.credentials(c.all, redeemed.id));
  unwrap(await c.party.t.revoke(c.all, delivered[0]!.id));
  const waiting = unwrap(await offers.create(c.all, { credentialConfigurationIds: [SD_JWT], claims: { name: 'Bob', email: 'bob@example.com', age: 41 }, byReference: true }));
  c.offers = [redeemed.id, waiting.id];
  c.offerHandle = new URL(waiting.credentialOfferUri!).pathname.split('/').pop()!;
  c.configurations = [SD_JWT];

  // OID4VP: presentation requests of the tenant as relying party, passed by value and by reference (x509_san_dns).
  const dcqlQuery = { credentials: [{ id: 'card', format: 'dc+sd-jwt', meta: { vct_values: ['https://example.com/card'] }, claims: [{ path: ['name'] }] }] };
  c.requests = [];
  for (const clientIdPrefix of ['redirect_uri', 'x509_san_dns']) c.requests.push(String(unwrap(await oid4vpRest(a.baseUrl).create(c.all, { dcqlQuery, clientIdPrefix }))['id']));

  // What the tables say the tenant now has: its logs (with a leaf each to ask about), DIDs, token status lists.
  const logs = await q.query<{ seq: string; tree_size: number; entry: string }>(
    `SELECT l.seq::text AS seq, l.tree_size, encode((SELECT f.entry_hash FROM ledger_leaves f WHERE f.log_seq = l.seq AND f.index = 0), 'hex') AS entry
       FROM ledger_logs l WHERE l.tenant_id = $1 AND l.tree_size > 0 ORDER BY l.seq`,
    [c.tenantId],
  );
  c.logs = logs.map((l) => ({ id: `0.0.${l.seq}`, size: Number(l.tree_size), entryHash: l.entry }));
  c.dids = (await q.query<{ did: string }>('SELECT did FROM dids WHERE tenant_id = $1 AND deleted_at IS NULL ORDER BY did', [c.tenantId])).map((r) => r.did);
  const vcIssuers = (await q.query<{ did: string }>('SELECT did FROM vc_issuers WHERE tenant_id = $1 ORDER BY did', [c.tenantId])).map((r) => r.did);
  c.didDocs = [...c.dids, ...vcIssuers];
  c.tokenStatusLists = (await q.query<{ id: string }>('SELECT id FROM token_status_lists WHERE tenant_id = $1 ORDER BY id', [c.tenantId])).map((r) => r.id);
  expect(c.tokenStatusLists.length).toBeGreaterThan(0);
  expect(vcIssuers.length).toBeGreaterThanOrEqual(2);
}

