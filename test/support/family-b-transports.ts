import type { TestServer } from './harness';
import { request, type HttpResponse } from './http';
import { type Outcome, gqlOutcome } from './transports';

type Json = Record<string, any>;

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
  anchor?: { logId: string; leafIndex: number; treeSize: number; entryHash: string; inclusionProof: string[]; checkpoint: string; logPublicKey: string } | null;
}

/** Family B operations through REST or GraphQL (SDK), normalised to the REST shapes. */
export interface FamilyBTransport {
  readonly name: string;
  createTemplate(key: string, body: Json): Promise<Outcome<TemplateDoc>>;
  listTemplates(key: string): Promise<Outcome<TemplateDoc[]>>;
  getTemplate(key: string, name: string): Promise<Outcome<TemplateDoc>>;
  updateTemplate(key: string, templateId: string, body: Json): Promise<Outcome<TemplateDoc>>;
  deleteTemplate(key: string, templateId: string): Promise<Outcome<true>>;
  issue(key: string, body: Json): Promise<Outcome<Json>>;
  get(key: string, id: string): Promise<Outcome<Json>>;
  revoke(key: string, id: string): Promise<Outcome<{ id: string; status: string; revokedAt: string }>>;
  verify(key: string, credential: Json): Promise<Outcome<CredentialVerification>>;
  createVp(key: string, body: Json): Promise<Outcome<Json>>;
  verifyVp(key: string, body: Json): Promise<Outcome<{ message: string }>>;
  sign(key: string, data: unknown, privateKey: string): Promise<Outcome<string>>;
  verifySignature(key: string, body: { signature: string; data: unknown; publicKey: string }): Promise<Outcome<true>>;
  createZkpToken(key: string, body: Json): Promise<Outcome<{ zkpToken: string; zkpData: Json; publicKey: string }>>;
  verifyZkpToken(key: string, body: Json): Promise<Outcome<{ success: boolean; conditionMet: boolean; calculatedAge: number; message: string }>>;
}

function familyB<T>(res: HttpResponse, okStatus = 200): Outcome<T> {
  if (res.status >= 400) {
    expect(typeof res.json?.error).toBe('string');
    return { ok: false, status: res.status };
  }
  expect(res.status).toBe(okStatus);
  return { ok: true, data: res.json as T };
}

export function restFamilyB(server: TestServer): FamilyBTransport {
  const call = (method: string, path: string, key: string, body?: unknown) =>
    request(server.baseUrl, method, path, { headers: { 'x-api-key': key }, ...(body !== undefined ? { body } : {}) });
  return {
    name: 'REST',
    createTemplate: async (key, body) => familyB(await call('POST', '/vc-templates', key, body), 201),
    listTemplates: async (key) => familyB(await call('GET', '/vc-templates', key)),
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

const strip = <T extends Json>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null)) as T;

function fromGraphqlTemplate(t: Json): TemplateDoc {
  const { recordId, version, ...rest } = t;
  return { _id: recordId, __v: version, ...rest } as TemplateDoc;
}

export function graphqlFamilyB(server: TestServer): FamilyBTransport {
  const sdk = (key: string) => server.sdk(key) as any;
  return {
    name: 'GraphQL',
    createTemplate: (key, input) => gqlOutcome(async () => fromGraphqlTemplate((await sdk(key).CreateVcTemplate({ input })).createVcTemplate)),
    listTemplates: (key) =>
      gqlOutcome(async () => {
        const c = (await sdk(key).VcTemplates({ first: 500 })).vcTemplates;
        expect(c.totalCount).toBe(c.edges.length);
        return c.edges.map((e: Json) => fromGraphqlTemplate(e['node']));
      }),
    getTemplate: (key, templateName) => gqlOutcome(async () => fromGraphqlTemplate((await sdk(key).VcTemplate({ templateName })).vcTemplate)),
    updateTemplate: (key, templateId, input) => gqlOutcome(async () => fromGraphqlTemplate((await sdk(key).UpdateVcTemplate({ templateId, input })).updateVcTemplate)),
    deleteTemplate: (key, templateId) => gqlOutcome(async () => (await sdk(key).DeleteVcTemplate({ templateId })).deleteVcTemplate as true),
    issue: (key, input) => gqlOutcome(async () => (await sdk(key).IssueTemplateCredential({ input: strip(input) })).issueTemplateCredential),
    get: (key, credentialId) => gqlOutcome(async () => (await sdk(key).TemplateCredential({ credentialId })).templateCredential),
    revoke: (key, credentialId) => gqlOutcome(async () => (await sdk(key).RevokeTemplateCredential({ credentialId })).revokeTemplateCredential),
    verify: (key, credential) =>
      gqlOutcome(async () => {
        const r = (await sdk(key).VerifyTemplateCredential({ credential })).verifyTemplateCredential;
        return { ...r, checks: r.checks.map((c: Json) => strip(c)), ...(r.anchor ? {} : { anchor: undefined }) };
      }),
    createVp: (key, input) => gqlOutcome(async () => (await sdk(key).CreatePresentation({ input: strip(input) })).createPresentation),
    verifyVp: (key, input) => gqlOutcome(async () => (await sdk(key).VerifyPresentation({ input: strip(input) })).verifyPresentation),
    sign: (key, data, privateKey) => gqlOutcome(async () => (await sdk(key).CreateSignature({ data, privateKey })).createSignature),
    verifySignature: (key, v) => gqlOutcome(async () => (await sdk(key).VerifySignature(v)).verifySignature as true),
    createZkpToken: (key, input) => gqlOutcome(async () => (await sdk(key).CreateZkpToken({ input: strip(input) })).createZkpToken),
    verifyZkpToken: (key, input) => gqlOutcome(async () => (await sdk(key).VerifyZkpToken({ input })).verifyZkpToken),
  };
}
