import type { Endpoint } from './harness';
import { request, type HttpResponse } from './http';
import { type Outcome, gqlOutcome } from './transports';

type Json = Record<string, any>;

export interface VcResult {
  verified: boolean;
  checks: string[];
  warnings: { type: string; title: string; detail?: string | null }[];
  errors: { type: string; title: string; detail?: string | null }[];
}

export interface VcIssuerDoc {
  id: string;
  issuer: string;
  issueEndpoint: string;
  cryptosuite: string;
  keyType: string;
  default: boolean;
}

/** The VC-API through REST (problem details checked on every error) or GraphQL (generated SDK). */
export interface VcApiTransport {
  readonly name: string;
  createIssuer(key: string, body: { cryptosuite: string; keyType?: string }): Promise<Outcome<VcIssuerDoc>>;
  listIssuers(key: string): Promise<Outcome<VcIssuerDoc[]>>;
  issue(key: string, body: { credential: Json; options?: Json }, issuerId?: string): Promise<Outcome<{ verifiableCredential: Json }>>;
  /** A failed verification is data (verified false); REST checks its 422/400 problem body on the way. */
  verify(key: string, body: { verifiableCredential: unknown; options?: Json }): Promise<Outcome<VcResult>>;
  verifyPresentation(key: string, body: { verifiablePresentation?: unknown; presentation?: Json; options?: Json }): Promise<Outcome<VcResult>>;
  updateStatus(key: string, body: { credentialId: string; statusPurpose: string; status: boolean }): Promise<Outcome<{ credentialId: string; credentialStatus: Json; status: boolean }>>;
}

const headers = (key: string) => ({ 'X-API-Key': key });

/** RFC 9457: application/problem+json, type/title/status/detail, status matching the HTTP status. */
export function expectProblem(res: HttpResponse): void {
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(typeof res.json.type).toBe('string');
  expect(typeof res.json.title).toBe('string');
  expect(typeof res.json.detail).toBe('string');
  expect(res.json.status).toBe(res.status);
  expect(res.text).not.toMatch(/\n\s+at /);
}

function rest<T>(res: HttpResponse, okStatus: number): Outcome<T> {
  if (res.status === okStatus) return { ok: true, data: res.json as T };
  expect(res.status).toBeGreaterThanOrEqual(400);
  expect(res.status).toBeLessThan(500);
  expectProblem(res);
  return { ok: false, status: res.status, code: res.json.code };
}

function restVerification(res: HttpResponse): Outcome<VcResult> {
  if (res.status === 200) {
    expect(res.json.verified).toBe(true);
    expect(Object.keys(res.json).sort()).toEqual(['checks', 'errors', 'verified', 'warnings']);
    return { ok: true, data: res.json };
  }
  expectProblem(res);
  if (res.json.verified === false) {
    expect([400, 422]).toContain(res.status);
    const { verified, checks, warnings, errors } = res.json;
    return { ok: true, data: { verified, checks, warnings, errors } };
  }
  return { ok: false, status: res.status, code: res.json.code };
}

export function restVcApi(server: Endpoint, base = '/vc-api'): VcApiTransport {
  const url = server.baseUrl;
  return {
    name: 'REST',
    createIssuer: async (key, body) => rest(await request(url, 'POST', `${base}/issuers`, { headers: headers(key), body }), 201),
    listIssuers: async (key) => rest(await request(url, 'GET', `${base}/issuers`, { headers: headers(key) }), 200),
    issue: async (key, body, issuerId) =>
      rest(await request(url, 'POST', issuerId ? `${base}/issuers/${issuerId}/credentials/issue` : `${base}/credentials/issue`, { headers: headers(key), body }), 201),
    verify: async (key, body) => restVerification(await request(url, 'POST', `${base}/credentials/verify`, { headers: headers(key), body })),
    verifyPresentation: async (key, body) => restVerification(await request(url, 'POST', `${base}/presentations/verify`, { headers: headers(key), body })),
    updateStatus: async (key, b) =>
      rest(
        await request(url, 'POST', `${base}/credentials/status`, {
          headers: headers(key),
          body: { credentialId: b.credentialId, credentialStatus: { type: 'BitstringStatusListEntry', statusPurpose: b.statusPurpose }, status: b.status },
        }),
        200,
      ),
  };
}

export function graphqlVcApi(server: Endpoint): VcApiTransport {
  return {
    name: 'GraphQL',
    createIssuer: (key, body) => gqlOutcome(async () => (await server.sdk(key).vcCreateIssuer({ input: body })).vcCreateIssuer),
    listIssuers: (key) => gqlOutcome(async () => (await server.sdk(key).vcIssuers()).vcIssuers),
    issue: (key, body, issuerId) =>
      gqlOutcome(async () => (await server.sdk(key).vcIssueCredential({ input: { credential: body.credential, ...(body.options ? { options: body.options } : {}), ...(issuerId ? { issuerId } : {}) } })).vcIssueCredential as { verifiableCredential: Json }),
    verify: (key, body) => gqlOutcome(async () => (await server.sdk(key).vcVerifyCredential({ input: { verifiableCredential: body.verifiableCredential, ...(body.options ? { options: body.options } : {}) } })).vcVerifyCredential),
    verifyPresentation: (key, body) =>
      gqlOutcome(async () => (await server.sdk(key).vcVerifyPresentation({ input: { ...(body.verifiablePresentation !== undefined ? { verifiablePresentation: body.verifiablePresentation } : {}), ...(body.presentation ? { presentation: body.presentation } : {}), ...(body.options ? { options: body.options } : {}) } })).vcVerifyPresentation),
    updateStatus: (key, body) => gqlOutcome(async () => (await server.sdk(key).vcUpdateCredentialStatus({ input: body })).vcUpdateCredentialStatus),
  };
}

export const vcTransports = (server: Endpoint): VcApiTransport[] => [restVcApi(server), graphqlVcApi(server)];

/**
 * A VC-API credential names its issuer: the DID of the instance that signs it. For scenarios about
 * something else, this fills `credential.issuer` in when the test left it out — the default
 * instance's DID (GET /issuers creates the default) or the named instance's. A key that may not
 * list instances, or an unknown instance, goes through unchanged, so the service's answer is seen.
 */
export function namingIssuer(t: VcApiTransport): VcApiTransport {
  const dids = new Map<string, string>();
  const didOf = async (key: string, issuerId?: string): Promise<string | undefined> => {
    const slot = `${key}|${issuerId ?? ''}`;
    if (!dids.has(slot)) {
      const listed = await t.listIssuers(key);
      const found = listed.ok ? listed.data.find((i) => (issuerId === undefined ? i.default : i.id === issuerId)) : undefined;
      if (found) dids.set(slot, found.issuer);
    }
    return dids.get(slot);
  };
  return {
    ...t,
    issue: async (key, body, issuerId) => {
      const did = body.credential['issuer'] === undefined ? await didOf(key, issuerId) : undefined;
      return t.issue(key, did === undefined ? body : { ...body, credential: { ...body.credential, issuer: did } }, issuerId);
    },
  };
}
