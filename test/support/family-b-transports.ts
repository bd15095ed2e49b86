import type { Endpoint } from './harness';
import { request, type HttpResponse } from './http';
import { CredgateGraphQLError } from '../../src/sdk';
import { type Outcome, gqlOutcome } from './transports';

type Json = Record<string, any>;

/** An outcome whose failure also carries the reason the service gave (REST `error`, GraphQL message). */
export type FbOutcome<T> =
  | { ok: true; data: T }
  | { ok: false; status: number; code?: string; message?: string; details?: { field: string; message: string }[] };

/** One page of templates, normalised: REST `?first&after` object form, GraphQL connection. */
export interface TemplatePageDoc {
  items: TemplateDoc[];
  hasMore: boolean;
  next: string | null;
  total: number;
}

export interface TemplateDoc {
  _id: string;
  templateId: string;
  name: string;
  description: string;
  context: string[];
  type: string[];
  issuer: string;
  issuanceDate: string;
  expirationDate: string;
  credentialSubject: { attributeName: string; type: string; description: string }[];
  __v: number;
}

export interface CredentialVerification {
  verified: boolean;
  checks: { check: string; ok: boolean; detail?: string | null }[];
  anchor?: { logId: string; leafIndex: number; treeSize: number; entryHash: string; inclusionProof: string[]; checkpoint: string; logPublicKey: string; anchoring?: Json } | null;
}

/** Family B operations through REST or GraphQL (SDK), normalised to the REST shapes. */
export interface FamilyBTransport {
  readonly name: string;
  listTemplatesPage(key: string, page: { first?: number; after?: string }): Promise<FbOutcome<TemplatePageDoc>>;
  createTemplate(key: string, body: Json): Promise<FbOutcome<TemplateDoc>>;
  listTemplates(key: string): Promise<FbOutcome<TemplateDoc[]>>;
  getTemplate(key: string, name: string): Promise<FbOutcome<TemplateDoc>>;
  updateTemplate(key: string, templateId: string, body: Json): Promise<FbOutcome<TemplateDoc>>;
  deleteTemplate(key: string, templateId: string): Promise<FbOutcome<true>>;
  issue(key: string, body: Json): Promise<FbOutcome<Json>>;
  get(key: string, id: string): Promise<FbOutcome<Json>>;
  revoke(key: string, id: string): Promise<FbOutcome<{ id: string; status: string; revokedAt: string }>>;
  verify(key: string, credential: Json): Promise<FbOutcome<CredentialVerification>>;
  createVp(key: string, body: Json): Promise<FbOutcome<Json>>;
  verifyVp(key: string, body: Json): Promise<FbOutcome<{ message: string }>>;
  sign(key: string, data: unknown, privateKey: string): Promise<FbOutcome<string>>;
  verifySignature(key: string, body: { signature: string; data: unknown; publicKey: string }): Promise<FbOutcome<true>>;
  createZkpToken(key: string, body: Json): Promise<FbOutcome<{ zkpToken: string; zkpData: Json; publicKey: string }>>;
  verifyZkpToken(key: string, body: Json): Promise<FbOutcome<{ success: boolean; conditionMet: boolean; calculatedAge: number; message: string }>>;
}

function familyB<T>(res: HttpResponse, okStatus = 200): FbOutcome<T> {
  if (res.status >= 400) {
    // Family B errors: `error` first (the interface reference's shape), then `code` and the
    // per-field `details` GraphQL also returns.
    expect(typeof res.json?.error).toBe('string');
    expect(Object.keys(res.json).slice(0, 2)).toEqual(['error', 'code']);
    expect(typeof res.json.code).toBe('string');
    return {
      ok: false,
      status: res.status,
      code: res.json.code as string,
      message: res.json.error as string,
      ...(res.json.details !== undefined ? { details: res.json.details } : {}),
    };
  }
  expect(res.status).toBe(okStatus);
  return { ok: true, data: res.json as T };
}

export function restFamilyB(server: Endpoint): FamilyBTransport {
  const call = (method: string, path: string, key: string, body?: unknown) =>
    request(server.baseUrl, method, path, { headers: { 'x-api-key': key }, ...(body !== undefined ? { body } : {}) });
  return {
    name: 'REST',
    createTemplate: async (key, body) => familyB(await call('POST', '/vc-templates', key, body), 201),
    listTemplates: async (key) => familyB(await call('GET', '/vc-templates', key)),
    listTemplatesPage: async (key, page) => {
      const q = new URLSearchParams({ ...(page.first !== undefined ? { first: String(page.first) } : {}), ...(page.after !== undefined ? { after: page.after } : {}) });
      return familyB(await call('GET', `/vc-templates?${q.toString()}`, key));
    },
    getTemplate: async (key, name) => familyB(await call('GET', `/vc-templates/${encodeURIComponent(name)}`, key), 201),
    updateTemplate: async (key, id, body) => familyB(await call('PUT', `/vc-templates/${id}`, key, body)),
    deleteTemplate: async (key, id) => {
      const out = familyB<Json>(await call('DELETE', `/vc-templates/${id}`, key));
      return out.ok ? { ok: true, data: true } : out;
    },
    issue: async (key, body) => familyB(await call('POST', '/credentials', key, body), 201),
    get: async (key, id) => familyB(await call('GET', `/credentials/${encodeURIComponent(id)}`, key)),
    revoke: async (key, id) => familyB(await call('DELETE', `/credentials/${encodeURIComponent(id)}`, key)),
    verify: async (key, credential) => {
      const res = await call('POST', '/credentials/verify', key, { credential });
      if (res.status === 400 && Array.isArray(res.json?.checks)) {
        expect(Object.keys(res.json).slice(0, 2)).toEqual(['error', 'code']);
        expect(res.json.code).toBe('VERIFICATION_FAILED');
        // A failed verification names the failed checks in `error`.
        for (const c of res.json.checks.filter((x: { ok: boolean }) => !x.ok)) expect(res.json.error).toContain(c.check);
        return { ok: true, data: { verified: false, checks: res.json.checks, anchor: res.json.anchor } };
      }
      const out = familyB<CredentialVerification>(res);
      if (out.ok) expect(out.data.verified).toBe(true);
      return out;
    },
    createVp: async (key, body) => {
      const out = familyB<{ vpToken: Json }>(await call('POST', '/create-vp', key, body));
      return out.ok ? { ok: true, data: out.data.vpToken } : out;
    },
    verifyVp: async (key, body) => familyB(await call('POST', '/verify-vp', key, body)),
    sign: async (key, data, privateKey) => {
      const out = familyB<{ signature: string }>(await call('POST', '/signature/create', key, { data, privateKey }));
      return out.ok ? { ok: true, data: out.data.signature } : out;
    },
    verifySignature: async (key, body) => {
      const out = familyB<{ valid: boolean }>(await call('POST', '/signature/verify', key, body));
      if (!out.ok) return out;
      expect(out.data).toEqual({ valid: true });
      return { ok: true, data: true };
    },
    createZkpToken: async (key, body) => familyB(await call('POST', '/createZkpToken', key, body)),
    verifyZkpToken: async (key, body) => familyB(await call('POST', '/verifyZkpToken', key, body)),
  };
}

/** gqlOutcome, keeping the error message as the failure reason. */
async function gqlB<T>(fn: () => Promise<T>): Promise<FbOutcome<T>> {
  let message: string | undefined;
  let details: { field: string; message: string }[] | undefined;
  const out: Outcome<T> = await gqlOutcome(async () => {
    try {
      return await fn();
    } catch (e) {
      if (e instanceof CredgateGraphQLError) {
        message = e.message;
        details = e.errors[0]?.extensions?.details as typeof details;
      }
      throw e;
    }
  });
  return out.ok ? out : { ...out, ...(message !== undefined ? { message } : {}), ...(details !== undefined ? { details } : {}) };
}

const strip = <T extends Json>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null)) as T;
/** GraphQL answers null where REST omits a field (the anchor status and its receipt's network-specific fields). */
const stripDeep = (v: unknown): unknown =>
  Array.isArray(v) ? v.map(stripDeep) : v !== null && typeof v === 'object' ? Object.fromEntries(Object.entries(strip(v as Json)).map(([k, x]) => [k, stripDeep(x)])) : v;

function fromGraphqlTemplate(t: Json): TemplateDoc {
  // REST leaves proofSuite out for Family B's default suite; GraphQL answers null.
  const { recordId, version, proofSuite, ...rest } = t;
  return { _id: recordId, __v: version, ...rest, ...(proofSuite != null ? { proofSuite } : {}) } as TemplateDoc;
}

export function graphqlFamilyB(server: Endpoint): FamilyBTransport {
  const sdk = (key: string) => server.sdk(key) as any;
  return {
    name: 'GraphQL',
    createTemplate: (key, input) => gqlB(async () => fromGraphqlTemplate((await sdk(key).createVcTemplate({ input })).createVcTemplate)),
    listTemplatesPage: (key, page) =>
      gqlB(async () => {
        const c = (await sdk(key).vcTemplates({ ...(page.first !== undefined ? { first: page.first } : {}), ...(page.after !== undefined ? { after: page.after } : {}) })).vcTemplates;
        return { items: c.edges.map((e: Json) => fromGraphqlTemplate(e['node'])), hasMore: c.pageInfo.hasNextPage, next: c.pageInfo.hasNextPage ? c.pageInfo.endCursor : null, total: c.totalCount };
      }),
    listTemplates: (key) =>
      gqlB(async () => {
        const c = (await sdk(key).vcTemplates({ first: 500 })).vcTemplates;
        expect(c.totalCount).toBe(c.edges.length);
        return c.edges.map((e: Json) => fromGraphqlTemplate(e['node']));
      }),
    getTemplate: (key, templateName) => gqlB(async () => fromGraphqlTemplate((await sdk(key).vcTemplate({ templateName })).vcTemplate)),
    updateTemplate: (key, templateId, input) => gqlB(async () => fromGraphqlTemplate((await sdk(key).updateVcTemplate({ templateId, input })).updateVcTemplate)),
    deleteTemplate: (key, templateId) => gqlB(async () => (await sdk(key).deleteVcTemplate({ templateId })).deleteVcTemplate as true),
    issue: (key, input) => gqlB(async () => (await sdk(key).issueTemplateCredential({ input: strip(input) })).issueTemplateCredential),
    get: (key, credentialId) => gqlB(async () => (await sdk(key).templateCredential({ credentialId })).templateCredential),
    revoke: (key, credentialId) => gqlB(async () => (await sdk(key).revokeTemplateCredential({ credentialId })).revokeTemplateCredential),
    verify: (key, credential) =>
      gqlB(async () => {
        const r = (await sdk(key).verifyTemplateCredential({ credential })).verifyTemplateCredential;
        return { ...r, checks: r.checks.map((c: Json) => strip(c)), anchor: r.anchor ? stripDeep(r.anchor) : undefined };
      }),
    createVp: (key, input) => gqlB(async () => (await sdk(key).createPresentation({ input: strip(input) })).createPresentation),
    verifyVp: (key, input) => gqlB(async () => (await sdk(key).verifyPresentation({ input: strip(input) })).verifyPresentation),
    sign: (key, data, privateKey) => gqlB(async () => (await sdk(key).createSignature({ data, privateKey })).createSignature),
    verifySignature: (key, v) => gqlB(async () => (await sdk(key).verifySignature(v)).verifySignature as true),
    createZkpToken: (key, input) => gqlB(async () => (await sdk(key).createZkpToken({ input: strip(input) })).createZkpToken),
    verifyZkpToken: (key, input) => gqlB(async () => (await sdk(key).verifyZkpToken({ input })).verifyZkpToken),
  };
}
