/**
 * Issue 20, item 1: a tenant moved with `credgate export` / `credgate import` answers every read
 * exactly as it did before the move. Deployment A gets one of every kind of tenant data (Family A
 * and B credentials, revocations, VC-API issuer instances of eddsa-rdfc-2022 and bbs-2023 with
 * status bits set by a VC-API revoke, an OpenID4VCI offer a wallet redeemed (its Token Status List
 * and delivered-credential records, one revoked alone), another offer by reference, an OID4VP
 * request, API keys, an answered Idempotency-Key, heads cosigned by a `credgate witness` process and
 * anchored on a local anvil chain). Then the tenant is exported, imported into a
 * fresh deployment B (another database, another master key, so another log key), and every read
 * route of the REST route table and every query operation of the SDK (GraphQL) is asked the same
 * questions on both; the answers must be equal up to the differences listed in `normalise`.
 * A GET route or SDK query that this file does not know how to ask fails the test as "not
 * compared", so a read added later is compared or noticed. Runs on PostgreSQL and on PGlite
 * (CREDGATE_TEST_DB=pglite).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { NOT_ARCHIVED, ARCHIVE_TABLES } from '../../src/cli/archive-format';
import { publicKeyOf } from '../../src/domain/merkle';
import { deriveLedgerSeed } from '../../src/ledger';
import { CredgateGraphQLError } from '../../src/sdk';
import { cliDatabase } from '../support/cli-database';
import { consent, newHolder, newParty, schemaBody, subject, unwrap } from '../support/family-a-fixtures';
import { restFamilyA, graphqlFamilyA } from '../support/family-a-transports';
import { type FbParty, fbParty } from '../support/family-b-fixtures';
import { graphqlFamilyB, restFamilyB } from '../support/family-b-transports';
import type { TestServer } from '../support/harness';
import { request } from '../support/http';
import { restOffers } from '../support/oid4vci-transports';
import { runIssuanceWallet, stepOf } from '../support/oid4vci-wallet';
import { oid4vpRest } from '../support/oid4vp-transports';
import { freePort, runCliAsync } from '../support/process';
import { getRoutePatterns, queryFields, sdkQueries } from '../support/read-surface';
import { TEST_DB_KIND } from '../support/test-db';
import { readArchive, writeArchive } from '../support/tenant-archive';
import { graphqlVcApi, restVcApi } from '../support/vc-api-transports';
import { type RunningWitness, logVerifierKey, spawnWitness } from '../support/witness-process';
import { ANVIL_KEY, Anvil } from '../support/anvil';
import { deployAnchorContract } from '../../src/anchor/evm/deploy';
import type { Config } from '../../src/config';

jest.setTimeout(600_000);

type Json = Record<string, any>;

const source = cliDatabase(TEST_DB_KIND);
const target = cliDatabase(TEST_DB_KIND);
/** A third deployment, for the same tenant from a version 1 archive (what an older release wrote). */
const older = cliDatabase(TEST_DB_KIND);
const PASS = { ARCHIVE_PASS: `correct horse ${randomBytes(4).toString('hex')}` };
const V2 = 'https://www.w3.org/ns/credentials/v2';
const UNDEFINED_TERMS = 'https://www.w3.org/ns/credentials/undefined-terms/v2';
const REVOCABLE = { credentialStatus: { type: 'BitstringStatusListEntry', statusPurpose: 'revocation' } };
const SCHEMA = `StaffCard${randomBytes(2).toString('hex')}`;
const SD_JWT = `schema.${SCHEMA}.v1.sd_jwt`;

/** What a deployment answered to one question: the status (REST) or error code (GraphQL), and the body. */
interface Answer {
  readonly status: number | string;
  readonly body: unknown;
}

/** What the questions are asked about: ids and documents made on A, read from its answers and tables. */
interface Ctx {
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
  idempotent: { body: Json; key: string; first: Answer };
  /** Family B presentations (of a valid and of the revoked credential) as verify-vp takes them. */
  vps: { input: Json; refused: boolean }[];
  zkpToken: Json;
  signature: { signature: string; data: Json; publicKey: string };
  /** A VC-API presentation holding a valid and the revoked credential, without a holder proof. */
  vcPresentation: Json;
}

/**
 * The differences a move makes, each on purpose (see README, export / import):
 * - B signs the tenant's log heads with its own log key: the signature line of a checkpoint note,
 *   the log's public key and verifier key differ; the checkpoint body (origin, size, root) does not.
 * - Freshly generated key pairs are random on every call.
 * - Probes and the deployment's own OAuth signing key are of the deployment, not of the tenant.
 */
function normalise(value: unknown, logKeys: readonly string[], host: string): unknown {
  if (typeof value === 'string') {
    let s = value;
    for (const k of logKeys) s = s.split(k).join('<log verifier key>');
    return s.replace(new RegExp(`^— ${host.replace(/[.:]/g, '\\$&')}/ledger [A-Za-z0-9+/=]+$`, 'gm'), '— <log key signature>');
  }
  if (Array.isArray(value)) return value.map((v) => normalise(v, logKeys, host));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalise(v, logKeys, host)]));
  return value;
}

/** JSON with object keys sorted: stored documents come back from jsonb in its key order, which carries no meaning. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

/** The shape of an answer whose values are random or of the deployment: its field names. */
const shapeOf = (a: Answer): Answer => ({ status: a.status, body: a.body !== null && typeof a.body === 'object' ? Object.keys(a.body).sort() : typeof a.body });

interface RestProbe {
  readonly path: string;
  /** The API key to send (default: the tenant's every-scope key); null: none. */
  readonly key?: string | null;
  readonly headers?: Record<string, string>;
}

/**
 * How to ask each GET route. A route of the table missing here and from NOT_TENANT_READS fails the
 * test as not compared. Routes listed in SHAPE_ONLY compare field names, not values.
 */
const REST: Record<string, (c: Ctx) => RestProbe[]> = {
  '/': () => [{ path: '/', key: null }],
  '/.well-known/oauth-authorization-server': () => [{ path: '/.well-known/oauth-authorization-server', key: null }],
  '/.well-known/oauth-authorization-server/oid4vc/:tenant': (c) => [{ path: `/.well-known/oauth-authorization-server/oid4vc/${c.tenant}`, key: null }],
  '/.well-known/openid-credential-issuer/oid4vc/:tenant': (c) => [{ path: `/.well-known/openid-credential-issuer/oid4vc/${c.tenant}`, key: null }],
  '/oid4vc/:tenant/.well-known/oauth-authorization-server': (c) => [{ path: `/oid4vc/${c.tenant}/.well-known/oauth-authorization-server`, key: null }],
  '/oid4vc/:tenant/.well-known/openid-credential-issuer': (c) => [{ path: `/oid4vc/${c.tenant}/.well-known/openid-credential-issuer`, key: null }],
  '/oid4vc/:tenant/credential-offer/:handle': (c) => [{ path: `/oid4vc/${c.tenant}/credential-offer/${c.offerHandle}`, key: null }],
  '/oid4vc/:tenant/vct/:configurationId': (c) => c.configurations.map((id) => ({ path: `/oid4vc/${c.tenant}/vct/${encodeURIComponent(id)}`, key: null })),
  '/1.0/identifiers/:did': (c) => c.didDocs.map((d) => ({ path: `/1.0/identifiers/${encodeURIComponent(d)}` })),
  '/resolve/:did': (c) => c.didDocs.map((d) => ({ path: `/resolve/${encodeURIComponent(d)}` })),
  '/dids': (c) => c.dids.map((did) => ({ path: '/dids', headers: { did } })),
  '/dids/:did': (c) => c.dids.map((d) => ({ path: `/dids/${encodeURIComponent(d)}` })),
  '/zk/issuer-key/:did': (c) => c.didDocs.map((d) => ({ path: `/zk/issuer-key/${encodeURIComponent(d)}` })),
  '/issuer/did': () => [{ path: '/issuer/did' }],
  '/api/issuer/did': () => [{ path: '/api/issuer/did' }],
  '/issuer/schemas': () => [{ path: '/issuer/schemas' }],
  '/api/issuer/schemas': () => [{ path: '/api/issuer/schemas' }],
  '/issuer/schema/:schemaName': (c) => c.faSchemas.map((n) => ({ path: `/issuer/schema/${encodeURIComponent(n)}` })),
  '/api/issuer/schema/:schemaName': (c) => c.faSchemas.map((n) => ({ path: `/api/issuer/schema/${encodeURIComponent(n)}` })),
  '/schema/:name': (c) => c.faSchemas.map((n) => ({ path: `/schema/${encodeURIComponent(n)}`, key: null })),
  '/t/:tenant/schema/:name': (c) => c.faSchemas.map((n) => ({ path: `/t/${c.tenant}/schema/${encodeURIComponent(n)}`, key: null })),
  '/credentials/:credentialId': (c) => c.fb.map((f) => ({ path: `/credentials/${encodeURIComponent(String(f.vc['id']))}` })),
  '/status/:listId': (c) => c.statusLists.map((id) => ({ path: `/status/${id}`, key: null })),
  '/vc-api/status-lists/:listId': (c) => c.vcStatusLists.map((id) => ({ path: `/vc-api/status-lists/${id}`, key: null })),
  '/token-status-lists/:listId': (c) => c.tokenStatusLists.map((id) => ({ path: `/token-status-lists/${id}`, key: null })),
  '/vc-templates': () => [{ path: '/vc-templates' }, { path: '/vc-templates?first=10' }],
  '/vc-templates/:templateName': (c) => c.templates.map((n) => ({ path: `/vc-templates/${encodeURIComponent(n)}` })),
  '/vc-api/issuers': () => [{ path: '/vc-api/issuers' }],
  '/oid4vci/offers': () => [{ path: '/oid4vci/offers' }],
  '/oid4vci/offers/:offerId': (c) => c.offers.map((id) => ({ path: `/oid4vci/offers/${id}` })),
  '/oid4vci/offers/:offerId/credentials': (c) => c.offers.map((id) => ({ path: `/oid4vci/offers/${id}/credentials` })),
  '/oid4vp/requests/:requestId': (c) => c.requests.map((id) => ({ path: `/oid4vp/requests/${id}` })),
  '/oid4vp/requests/:requestId/result': (c) => c.requests.map((id) => ({ path: `/oid4vp/requests/${id}/result` })),
  '/oid4vp/request-objects/:requestId': (c) => c.requests.map((id) => ({ path: `/oid4vp/request-objects/${id}`, key: null })),
  '/wallets/api/configurations': () => [{ path: '/wallets/api/configurations' }],
  '/wallets/api/presentation-requests/:requestId/qr': (c) => c.requests.map((id) => ({ path: `/wallets/api/presentation-requests/${id}/qr` })),
  '/ledger/:logId/checkpoint': (c) => c.logs.map((l) => ({ path: `/ledger/${l.id}/checkpoint` })),
  '/ledger/:logId/anchors/:treeSize': (c) => c.logs.map((l) => ({ path: `/ledger/${l.id}/anchors/${l.size}` })),
  '/ledger/:logId/entries/:entryHash': (c) => c.logs.map((l) => ({ path: `/ledger/${l.id}/entries/${l.entryHash}` })),
  '/ledger/:logId/leaves': (c) => c.logs.map((l) => ({ path: `/ledger/${l.id}/leaves?start=0&end=${l.size}` })),
  '/ledger/:logId/proof/consistency': (c) => c.logs.map((l) => ({ path: `/ledger/${l.id}/proof/consistency?from=1&to=${l.size}` })),
  '/ledger/:logId/proof/inclusion': (c) => c.logs.map((l) => ({ path: `/ledger/${l.id}/proof/inclusion?leafIndex=0&treeSize=${l.size}` })),
  '/generate-keypair': () => [{ path: '/generate-keypair' }],
  '/user/generateKeyPair': () => [{ path: '/user/generateKeyPair' }],
  '/api/user/generateKeyPair': () => [{ path: '/api/user/generateKeyPair' }],
  '/user/did': (c) => [{ path: '/user/did', headers: { publicKey: c.fa[0]!.publicKey } }],
  '/api/user/did': (c) => [{ path: '/api/user/did', headers: { publicKey: c.fa[0]!.publicKey } }],
  '/oauth/jwks': () => [{ path: '/oauth/jwks', key: null }],
  '/healthz': () => [{ path: '/healthz', key: null }],
  '/readyz': () => [{ path: '/readyz', key: null }],
  '/openapi.json': () => [{ path: '/openapi.json', key: null }],
  '/docs': () => [{ path: '/docs', key: null }],
  '/graphql': () => [{ path: '/graphql', key: null, headers: { Accept: 'text/html' } }],
  '/wallets': () => [{ path: '/wallets', key: null }],
};

/** GET routes that hold no tenant data and need input this file cannot sensibly make up. */
const NOT_TENANT_READS: Record<string, string> = {
  '/docs/assets/:file': 'static files of the build (Swagger UI), the same on every deployment of a release',
  '/graphql/assets/:file': 'static files of the build (GraphiQL)',
  '/wallets/assets/:file': 'static files of the build (wallet console)',
  '/oid4vc/:tenant/authorize': 'the authorization endpoint answers a pushed authorization request of minutes (not carried: oid4vci_authorizations)',
};

/**
 * A request object is signed when a wallet fetches it (iat, exp of that moment), with the tenant's
 * request-signing key (which moves) under a certificate chain from the deployment's CA (which B
 * issues anew, as README says): compared as its header without x5c and its payload without times.
 */
function requestObjectContent(a: Answer): Answer {
  if (a.status !== 200 || typeof a.body !== 'string') return a;
  const [header, payload] = a.body.split('.').slice(0, 2).map((p) => JSON.parse(Buffer.from(p, 'base64url').toString()) as Json);
  const { x5c, ...h } = header!;
  const { iat, exp, ...claims } = payload!;
  return { status: a.status, body: { header: h, x5cLength: (x5c as unknown[]).length, payload: claims, validFor: Number(exp) - Number(iat) } };
}
const SIGNED_AT_READ: Record<string, (a: Answer) => Answer> = { '/oid4vp/request-objects/:requestId': requestObjectContent };

/** Answers that are random or of the deployment itself (key material, probes): compared by shape. */
const SHAPE_ONLY = new Set(['/generate-keypair', '/user/generateKeyPair', '/api/user/generateKeyPair', '/oauth/jwks', '/healthz', '/readyz']);

/** How to call each SDK query operation (GraphQL); one missing here fails the test as not compared. */
const GQL: Record<string, (c: Ctx) => Json[]> = {
  Did: (c) => c.dids.map((did) => ({ did })),
  DidDocument: (c) => c.didDocs.map((did) => ({ did })),
  DidResolution: (c) => c.didDocs.map((did) => ({ did })),
  IssuerDid: () => [{}],
  Schemas: () => [{}],
  Schema: (c) => c.faSchemas.map((name) => ({ name })),
  VerifyCredential: (c) => c.fa.map((f) => ({ input: { publicKey: f.publicKey, userSignature: f.userSignature, credentials: f.vc } })),
  DecryptCredential: () => [],
  VcTemplates: () => [{}, { first: 10 }],
  VcTemplate: (c) => c.templates.map((templateName) => ({ templateName })),
  TemplateCredential: (c) => c.fb.map((f) => ({ credentialId: f.vc['id'] })),
  TemplateCredentialStatus: (c) => c.fb.map((f) => ({ credentialId: f.vc['id'] })),
  VerifyTemplateCredential: (c) => c.fb.map((f) => ({ credential: f.vc })),
  VerifyPresentation: (c) => c.vps.map((v) => ({ input: v.input })),
  VerifySignature: (c) => [c.signature],
  VerifyZkpToken: (c) => [{ input: c.zkpToken }],
  ZkIssuerKey: (c) => c.didDocs.map((did) => ({ did })),
  LedgerCheckpoint: (c) => c.logs.map((l) => ({ logId: l.id })),
  LedgerInclusionProof: (c) => c.logs.map((l) => ({ logId: l.id, leafIndex: 0, treeSize: l.size })),
  LedgerConsistencyProof: (c) => c.logs.map((l) => ({ logId: l.id, from: 1, to: l.size })),
  LedgerEntry: (c) => c.logs.map((l) => ({ logId: l.id, entryHash: l.entryHash })),
  LedgerLeaves: (c) => c.logs.map((l) => ({ logId: l.id, start: 0, end: l.size })),
  LedgerAnchor: (c) => c.logs.map((l) => ({ logId: l.id, treeSize: l.size })),
  credentialOffers: () => [{}],
  credentialOffer: (c) => c.offers.map((id) => ({ id })),
  credentialOfferCredentials: (c) => c.offers.map((id) => ({ id })),
  PresentationRequest: (c) => c.requests.map((id) => ({ id })),
  presentationRequestQr: (c) => c.requests.map((id) => ({ id })),
  vcIssuers: () => [{}],
  vcVerifyCredential: (c) => c.vcs.map((v) => ({ input: { verifiableCredential: v.vc } })),
  vcVerifyPresentation: (c) => [{ input: { presentation: c.vcPresentation } }],
  offerableConfigurations: () => [{}],
};

/**
 * Queries that answer from their input alone and are not asked: DecryptCredential opens an
 * encrypted Family A credential with the holder's private key given in the request, reading
 * nothing stored, so an empty list above is deliberate for it.
 */
const STATELESS_QUERIES = new Set(['DecryptCredential']);

async function askRest(s: TestServer, c: Ctx, probe: RestProbe): Promise<Answer> {
  const key = probe.key === undefined ? c.all : probe.key;
  const res = await request(s.baseUrl, 'GET', probe.path, { headers: { ...probe.headers, ...(key ? { 'X-API-Key': key } : {}) } });
  return { status: res.status, body: res.json ?? res.text };
}

async function askGraphql(s: TestServer, c: Ctx, method: string, vars: Json): Promise<Answer> {
  const sdk = s.sdk(c.all) as unknown as Record<string, (v: Json) => Promise<unknown>>;
  try {
    return { status: 'ok', body: await sdk[method]!(vars) };
  } catch (e) {
    if (e instanceof CredgateGraphQLError) return { status: e.code ?? 'error', body: e.errors.map((x) => x.message) };
    throw e;
  }
}

/** Verification of every credential through REST and GraphQL: revoked ones must stay revoked. */
async function verifications(s: TestServer, c: Ctx): Promise<Record<string, Answer>> {
  const out: Record<string, Answer> = {};
  for (const [name, fa, fb, vc] of [
    ['REST', restFamilyA(s, ''), restFamilyB(s), restVcApi(s)],
    ['GraphQL', graphqlFamilyA(s), graphqlFamilyB(s), graphqlVcApi(s)],
  ] as const) {
    for (const [i, f] of c.fa.entries()) {
      const r = unwrap(await fa.verify(c.all, { publicKey: f.publicKey, userSignature: f.userSignature }, { credentials: f.vc }));
      out[`${name} verify Family A #${i}`] = { status: r.success ? 'verified' : 'refused', body: r };
    }
    for (const [i, f] of c.fb.entries()) {
      const r = await fb.verify(c.all, f.vc);
      out[`${name} verify Family B #${i}`] = { status: r.ok ? (r.data.verified ? 'verified' : 'refused') : `error ${r.status}`, body: r.ok ? r.data : r };
    }
    for (const [i, v] of c.vcs.entries()) {
      const r = unwrap(await vc.verify(c.all, { verifiableCredential: v.vc }));
      out[`${name} verify VC-API #${i}`] = { status: r.verified ? 'verified' : 'refused', body: r };
    }
    for (const [i, v] of c.vps.entries()) {
      const r = await fb.verifyVp(c.all, v.input);
      out[`${name} verify Family B presentation #${i}`] = { status: r.ok ? 'verified' : 'refused', body: r };
    }
    const z = await fb.verifyZkpToken(c.all, c.zkpToken);
    out[`${name} verify ZKP token`] = { status: z.ok && z.data.success ? 'verified' : 'refused', body: z };
    const p = unwrap(await vc.verifyPresentation(c.all, { presentation: c.vcPresentation }));
    out[`${name} verify VC-API presentation`] = { status: p.verified ? 'verified' : 'refused', body: p };
  }
  return out;
}

/** Asks every question; the list of what could not be asked is returned beside the answers. */
async function readEverything(s: TestServer, c: Ctx): Promise<{ answers: Map<string, Answer>; notCompared: string[]; answered: Set<string> }> {
  const answers = new Map<string, Answer>();
  const notCompared: string[] = [];
  /** GET patterns that answered 2xx at least once. */
  const answered = new Set<string>();
  for (const pattern of getRoutePatterns(s.app)) {
    const probes = REST[pattern];
    if (!probes) {
      if (!(pattern in NOT_TENANT_READS)) notCompared.push(`GET ${pattern}`);
      continue;
    }
    const list = probes(c);
    if (list.length === 0) notCompared.push(`GET ${pattern} (nothing to ask it about)`);
    for (const p of list) {
      const a = await askRest(s, c, p);
      if (typeof a.status === 'number' && a.status < 300) answered.add(pattern);
      answers.set(`GET ${p.path}`, SHAPE_ONLY.has(pattern) ? shapeOf(a) : (SIGNED_AT_READ[pattern]?.(a) ?? a));
    }
  }
  const ops = sdkQueries();
  const covered = new Set(ops.flatMap((o) => o.fields));
  for (const f of queryFields()) if (!covered.has(f)) notCompared.push(`query ${f} (no SDK operation selects it)`);
  for (const op of ops) {
    const calls = GQL[op.name];
    if (!calls) {
      notCompared.push(`query ${op.name}`);
      continue;
    }
    const list = calls(c);
    if (list.length === 0 && !STATELESS_QUERIES.has(op.name)) notCompared.push(`query ${op.name} (nothing to ask it about)`);
    for (const vars of list) answers.set(`query ${op.name} ${JSON.stringify(vars).slice(0, 200)}`, await askGraphql(s, c, op.method, vars));
  }
  for (const [k, v] of Object.entries(await verifications(s, c))) answers.set(k, v);
  return { answers, notCompared, answered };
}

describe(`a tenant moved with export / import answers every read as before (${TEST_DB_KIND})`, () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'credgate-move-'));
  const archive = path.join(dir, 'tenant.cgarchive');
  let port = 0;
  let host = '';
  const c = {} as Ctx;
  let before: Map<string, Answer>;
  let after: Map<string, Answer>;
  let notCompared: string[] = [];
  let answeredOnA = new Set<string>();
  let sourceKey = '';
  let targetKey = '';
  /** Both deployments' log verifier keys and log public keys (base64), which the move changes on purpose. */
  let logKeys: string[] = [];

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /**
   * A and B listen on the same port in turn, so their public URL (and the tenant's URLs) are the
   * same; both have the same witness and anchor to the same chain, as a moved tenant's operator
   * would configure the new deployment.
   */
  let outside: Partial<Config> = {};
  const start = (db: typeof source): Promise<TestServer> => db.startServer({ port, env: { publicUrl: `http://${host}`, ...outside } });
  let witness: RunningWitness | undefined;
  const anvil = new Anvil(path.join(dir, 'anvil-state.json'));

  afterAll(async () => {
    await witness?.stop();
    await anvil.stop();
  });

  beforeAll(async () => {
    port = await freePort();
    host = `127.0.0.1:${port}`;
    sourceKey = logVerifierKey(Buffer.from(source.env['CREDGATE_MASTER_KEY']!, 'hex'), host);
    targetKey = logVerifierKey(Buffer.from(target.env['CREDGATE_MASTER_KEY']!, 'hex'), host);
    const publicOf = (db: typeof source): string => Buffer.from(publicKeyOf(deriveLedgerSeed(Buffer.from(db.env['CREDGATE_MASTER_KEY']!, 'hex')))).toString('base64');
    logKeys = [sourceKey, targetKey, publicOf(source), publicOf(target)];
    // The witness knows A's log key only: what it cosigned of A's heads is what must travel.
    witness = await spawnWitness({ logKeys: [sourceKey], dir, name: 'witness.test/w1' });
    await anvil.start();
    const contract = await deployAnchorContract(anvil.url, ANVIL_KEY);
    outside = {
      witness: { witnesses: [{ verifierKey: witness.verifierKey, name: witness.name, url: witness.url }], quorum: 1 },
      anchor: { mode: 'evm', evm: { rpcUrl: anvil.url, contract, privateKey: ANVIL_KEY }, relay: { pollMs: 100, baseDelayMs: 200, maxDelayMs: 1000, leaseMs: 30_000 } },
    };
    const a = await start(source);
    try {
      await makeTenantData(a, c);
      await settled(a, c);
      const read = await readEverything(a, c);
      before = read.answers;
      notCompared = read.notCompared;
      answeredOnA = read.answered;
    } finally {
      await a.close();
    }
    const env = { CREDGATE_PUBLIC_URL: `http://${host}`, ...PASS };
    const exported = await runCliAsync(['export', '--tenant', c.tenant, '--out', archive, '--passphrase-env', 'ARCHIVE_PASS'], { ...source.env, ...env });
    expect({ status: exported.status, stderr: exported.status === 0 ? '' : exported.stderr }).toEqual({ status: 0, stderr: '' });
    expect(JSON.parse(exported.stdout)).toMatchObject({ exported: true, ledgerVerifierKey: sourceKey });
    const imported = await runCliAsync(['import', '--in', archive, '--passphrase-env', 'ARCHIVE_PASS', '--source-log-key', sourceKey], { ...target.env, ...env });
    expect({ status: imported.status, stderr: imported.status === 0 ? '' : imported.stderr }).toEqual({ status: 0, stderr: '' });
    const b = await start(target);
    try {
      after = (await readEverything(b, c)).answers;
      await replayOnB(b, c);
    } finally {
      await b.close();
    }
  });

  test('every table is either carried by the archive or named as staying behind, with a reason', async () => {
    const s = await start(target);
    try {
      const tables = (await s.app.db.sql.query<{ t: string }>("SELECT tablename AS t FROM pg_tables WHERE schemaname = current_schema() ORDER BY 1")).map((r) => r.t);
      const decided = new Set([...ARCHIVE_TABLES.map((t) => t.name), ...Object.keys(NOT_ARCHIVED)]);
      expect(tables.filter((t) => !decided.has(t))).toEqual([]);
      // And nothing decided on that does not exist (a renamed table).
      expect([...decided].filter((t) => !tables.includes(t))).toEqual([]);
    } finally {
      await s.close();
    }
  });

  test('every GET route and every SDK query is asked (none "not compared")', () => {
    expect(notCompared).toEqual([]);
  });

  test('each question about tenant data found it on A: the comparison compares something', () => {
    const refused = [...before]
      .filter(([, a]) => (typeof a.status === 'number' ? a.status >= 400 : a.status !== 'ok' && a.status !== 'verified' && a.status !== 'refused'))
      .map(([k, a]) => `${k} -> ${String(a.status)}`)
      .filter((line) => !EXPECTED_REFUSALS.some(([re]) => re.test(line)));
    expect(refused).toEqual([]);
    // Every GET route asked found something on A, but those whose only answers are the refusals above.
    expect(Object.keys(REST).filter((p) => !answeredOnA.has(p))).toEqual([]);
  });

  test('B answers every question as A did (REST, GraphQL, verification), up to the documented differences', () => {
    const norm = (a: Answer | undefined): unknown => (a === undefined ? 'no answer' : normalise(a, logKeys, host));
    const differences = [...before.keys()]
      .filter((k) => canonical(norm(before.get(k))) !== canonical(norm(after.get(k))))
      .map((k) => ({ question: k, A: norm(before.get(k)), B: norm(after.get(k)) }));
    expect(differences).toEqual([]);
    expect(after.size).toBe(before.size);
  });

  test('revoked stays revoked and valid stays valid after the move, in every family and through both transports', () => {
    // On A first (the revocations took), then on B.
    for (const [side, answers] of [['A', before], ['B', after]] as const) for (const name of ['REST', 'GraphQL']) {
      const outcome = (k: string): unknown => `${side}: ${String(answers.get(k)?.status)}`;
      const want = (refused: boolean): string => `${side}: ${refused ? 'refused' : 'verified'}`;
      c.fa.forEach((f, i) => expect({ k: `${name} Family A #${i}`, s: outcome(`${name} verify Family A #${i}`) }).toEqual({ k: `${name} Family A #${i}`, s: want(f.refused) }));
      c.fb.forEach((f, i) => expect({ k: `${name} Family B #${i}`, s: outcome(`${name} verify Family B #${i}`) }).toEqual({ k: `${name} Family B #${i}`, s: want(f.refused) }));
      c.vcs.forEach((v, i) => expect({ k: `${name} VC-API #${i}`, s: outcome(`${name} verify VC-API #${i}`) }).toEqual({ k: `${name} VC-API #${i}`, s: want(v.refused) }));
      c.vps.forEach((v, i) => expect({ k: `${name} VP #${i}`, s: outcome(`${name} verify Family B presentation #${i}`) }).toEqual({ k: `${name} VP #${i}`, s: want(v.refused) }));
      expect(outcome(`${name} verify ZKP token`)).toBe(want(false));
    }
  });

  test('the VC-API issuers and their status lists moved (the issue as reported)', () => {
    const issuers = after.get('GET /vc-api/issuers')!;
    expect(issuers.status).toBe(200);
    // The default instance (made by the first VC-API use), the eddsa-rdfc-2022 and the bbs-2023 one.
    expect((issuers.body as Json[]).map((i) => `${String(i['cryptosuite'])}${i['default'] ? ' (default)' : ''}`).sort()).toEqual(['bbs-2023', 'eddsa-rdfc-2022', 'eddsa-rdfc-2022 (default)']);
    for (const id of c.vcStatusLists) expect(after.get(`GET /vc-api/status-lists/${id}`)?.status).toBe(200);
  });

  test('the witness and anchor state moved: B serves every head cosigned by the witness and anchored, its receipt re-checked on the chain', () => {
    for (const l of c.logs) {
      expect({ log: l.id, cp: after.get(`GET /ledger/${l.id}/checkpoint`) }).toMatchObject({ log: l.id, cp: { status: 200, body: { witnessCosignatures: 1, witnessQuorum: 1, witnesses: [{ name: 'witness.test/w1', cosigned: true, lastError: null }] } } });
      expect({ log: l.id, a: after.get(`GET /ledger/${l.id}/anchors/${l.size}`) }).toMatchObject({ log: l.id, a: { status: 200, body: { status: 'anchored', check: { status: 'valid' } } } });
    }
  });

  test('an issuance retried with its Idempotency-Key after the move replays the first answer', () => {
    expect(c.idempotent.first.status).toBe(201);
    expect(replayed).toEqual({ status: 201, replayed: 'true', body: c.idempotent.first.body });
  });

  test('a version 1 archive still imports and says what it lacks; the comparison sees the loss issue 20 reported', async () => {
    // What a release before this one wrote: the same header at version 1, without the tables version 2 added.
    const current = readArchive(archive);
    const added = new Set(ARCHIVE_TABLES.filter((t) => (t.since ?? 1) > 1).map((t) => t.name));
    expect(current.lines.filter((l) => added.has(l.table)).length).toBeGreaterThan(0);
    const v1 = path.join(dir, 'v1.cgarchive');
    writeArchive(v1, { header: { ...current.header, version: 1 }, lines: current.lines.filter((l) => !added.has(l.table)) }, PASS.ARCHIVE_PASS);
    const r = await runCliAsync(['import', '--in', v1, '--passphrase-env', 'ARCHIVE_PASS', '--source-log-key', sourceKey], { ...older.env, CREDGATE_PUBLIC_URL: `http://${host}`, ...PASS });
    expect({ status: r.status, stdout: r.status === 0 ? JSON.parse(r.stdout) : r.stderr }).toMatchObject({ status: 0, stdout: { imported: true, version: 1 } });
    expect(r.stderr).toMatch(/archive is of version 1: it carries no VC-API issuers/);
    const s = await start(older);
    try {
      const answers = (await readEverything(s, c)).answers;
      // The VC-API credential that verified on A and B fails here as the issue describes: its status list did not travel.
      const vc = answers.get('REST verify VC-API #0')!;
      expect(vc.status).toBe('refused');
      expect(JSON.stringify(vc.body)).toMatch(/STATUS_RETRIEVAL_ERROR/);
      expect(before.get('REST verify VC-API #0')!.status).toBe('verified');
      expect((answers.get('GET /vc-api/issuers')!.body as Json[]).map((i) => i['id'])).not.toEqual((before.get('GET /vc-api/issuers')!.body as Json[]).map((i) => i['id']));
    } finally {
      await s.close();
    }
  });

  let replayed: { status: number; replayed: string | null; body: unknown } | undefined;
  async function replayOnB(b: TestServer, ctx: Ctx): Promise<void> {
    const res = await request(b.baseUrl, 'POST', '/credentials', { headers: { 'X-API-Key': ctx.idempotent.key, 'Idempotency-Key': 'move-1' }, body: ctx.idempotent.body });
    replayed = { status: res.status, replayed: res.headers.get('idempotent-replayed'), body: res.json };
  }
});

/** Questions whose refusal on A is the answer to compare (matched on their label and answer), and why. */
const EXPECTED_REFUSALS: readonly [RegExp, string][] = [
  [/^(GET \/1\.0\/identifiers\/|GET \/resolve\/|query DidDocument |query DidResolution )\S*zUC7.* -> (400|INVALID_DID)$/, 'DID resolution does not resolve BLS12-381 did:keys (the bbs-2023 issuer): refused alike on A and B'],
  [/^(GET \/zk\/issuer-key\/|query ZkIssuerKey ).* -> (404|NOT_FOUND)$/, 'a DID whose key is not a service-held issuer key has no zero-knowledge key document: refused alike'],
  [/^query VerifyPresentation .* -> VERIFICATION_FAILED$/, 'the presentation of the revoked credential (which one is refused is checked with the other verifications)'],
  [/^GET \/oid4vp\/request-objects\/.* -> 404$/, 'the redirect_uri request is passed by value: request objects are served for the x509 one only'],
];

/**
 * Waits until every signed head of the tenant's logs is anchored on the chain and the latest one
 * of each log cosigned by the witness (both happen in the background), so what A answers is
 * final and there is witness and anchor state to move.
 */
async function settled(a: TestServer, c: Ctx): Promise<void> {
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
async function makeTenantData(a: TestServer, c: Ctx): Promise<void> {
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
