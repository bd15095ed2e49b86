import { CredgateGraphQLError } from '../../src/sdk';
import { unwrap } from './family-a-fixtures';
import { graphqlFamilyA, restFamilyA } from './family-a-transports';
import { graphqlFamilyB, restFamilyB } from './family-b-transports';
import type { TestServer } from './harness';
import { request } from './http';
import { getRoutePatterns, queryFields, sdkQueries } from './read-surface';
import type { Ctx } from './tenant-move-data';
import { graphqlVcApi, restVcApi } from './vc-api-transports';

/**
 * The questions test/e2e/tenant-move-roundtrip.e2e.test.ts asks two deployments about a tenant:
 * how to ask each GET route of the route table and each SDK query, which answers differ on
 * purpose and how they are normalised, and which refusals are the answer.
 */

type Json = Record<string, any>;

/** What a deployment answered to one question: the status (REST) or error code (GraphQL), and the body. */
export interface Answer {
  readonly status: number | string;
  readonly body: unknown;
}

/**
 * The differences a move makes, each on purpose (see README, export / import):
 * - B signs the tenant's log heads with its own log key: the signature line of a checkpoint note,
 *   the log's public key and verifier key differ; the checkpoint body (origin, size, root) does not.
 * - Freshly generated key pairs are random on every call.
 * - Probes and the deployment's own OAuth signing key are of the deployment, not of the tenant.
 */
export function normalise(value: unknown, logKeys: readonly string[], host: string): unknown {
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
export function canonical(value: unknown): string {
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
export const REST: Record<string, (c: Ctx) => RestProbe[]> = {
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
  '/status/:listId/bbs-2023': (c) => c.statusLists.map((id) => ({ path: `/status/${id}/bbs-2023`, key: null })),
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
export const NOT_TENANT_READS: Record<string, string> = {
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
/**
 * The bbs-2023 publication of a status list is signed when first read on each deployment: a BBS
 * proof is randomised and validFrom is the signing time, so it is compared without them (issuer,
 * the DID's BBS did:key, and the bits must be equal).
 */
function bbsListContent(a: Answer): Answer {
  if (a.status !== 200 || a.body === null || typeof a.body !== 'object') return a;
  const { proof, validFrom, ...content } = a.body as Json;
  return { status: a.status, body: { ...content, proofType: (proof as Json)?.['cryptosuite'], hasValidFrom: typeof validFrom === 'string' } };
}
const SIGNED_AT_READ: Record<string, (a: Answer) => Answer> = { '/oid4vp/request-objects/:requestId': requestObjectContent, '/status/:listId/bbs-2023': bbsListContent };

/** Answers that are random or of the deployment itself (key material, probes): compared by shape. */
const SHAPE_ONLY = new Set(['/generate-keypair', '/user/generateKeyPair', '/api/user/generateKeyPair', '/oauth/jwks', '/healthz', '/readyz']);

/** How to call each SDK query operation (GraphQL); one missing here fails the test as not compared. */
export const GQL: Record<string, (c: Ctx) => Json[]> = {
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
export async function readEverything(s: TestServer, c: Ctx): Promise<{ answers: Map<string, Answer>; notCompared: string[]; answered: Set<string> }> {
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

/** Questions whose refusal on A is the answer to compare (matched on their label and answer), and why. */
export const EXPECTED_REFUSALS: readonly [RegExp, string][] = [
  [/^(GET \/1\.0\/identifiers\/|GET \/resolve\/|query DidDocument |query DidResolution )\S*zUC7.* -> (400|INVALID_DID)$/, 'DID resolution does not resolve BLS12-381 did:keys (the bbs-2023 issuer): refused alike on A and B'],
  [/^(GET \/zk\/issuer-key\/|query ZkIssuerKey ).* -> (404|NOT_FOUND)$/, 'a DID whose key is not a service-held issuer key has no zero-knowledge key document: refused alike'],
  [/^query VerifyPresentation .* -> VERIFICATION_FAILED$/, 'the presentation of the revoked credential (which one is refused is checked with the other verifications)'],
  [/^GET \/oid4vp\/request-objects\/.* -> 404$/, 'the redirect_uri request is passed by value: request objects are served for the x509 one only'],
];

