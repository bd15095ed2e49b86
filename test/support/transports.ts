import { ERROR_STATUS, type ErrorCode } from '../../src/errors';
import { CredgateGraphQLError, type DidRecordDocumentFieldsFragment } from '../../src/sdk';
import type { Endpoint, TestServer } from './harness';
import { request, type HttpResponse } from './http';

/**
 * One scenario, several transports: each method returns the same normalised outcome whether it
 * went through REST (bare or /api for Family A) or GraphQL via the generated SDK, so e2e suites
 * state their expectations once.
 */
export type Outcome<T> = { ok: true; data: T } | { ok: false; status: number; code?: string };

export interface DidRecordDoc {
  _id: string | null;
  id: string;
  topicId: string | null;
  templateTopicId: string | null;
  publicKey: { id: string; type: string; publicKeyHex: string; _id: string }[];
  authentication: string[];
  service: unknown[];
  created: string | null;
  updated: string | null;
  ledgerFileId: string | null;
  __v: number;
}

export interface Resolution {
  didDocument: Record<string, unknown> | null;
  didResolutionMetadata: { contentType?: string | null; error?: string | null };
  didDocumentMetadata: { deactivated?: boolean | null; created?: string | null };
}

export interface Transport {
  readonly name: string;
  generateKeypair(key?: string): Promise<Outcome<{ keyId: string; algorithm: string; publicKey: string; privateKey: string }>>;
  createDid(key: string | undefined, input: { method: string; publicKey: string; keyType?: string }): Promise<Outcome<{ document: DidRecordDoc; created: boolean }>>;
  getDid(key: string | undefined, did: string): Promise<Outcome<DidRecordDoc>>;
  resolveDocument(key: string | undefined, did: string): Promise<Outcome<Record<string, unknown>>>;
  resolution(key: string | undefined, did: string): Promise<Outcome<Resolution>>;
  generateUserKeyPair(key?: string): Promise<Outcome<{ privateKey: string; publicKey: string }>>;
  userDid(key: string | undefined, publicKey: string): Promise<Outcome<string>>;
}

// ---------- REST ----------

const keyHeader = (key?: string): Record<string, string> => (key ? { 'X-API-Key': key } : {});

function restFail(res: HttpResponse, family: 'A' | 'B'): Outcome<never> {
  if (family === 'A') {
    // Family A error envelope: { success: false, status, message, code }
    expect(res.json).toMatchObject({ success: false, status: res.status });
    expect(typeof res.json.message).toBe('string');
    return { ok: false, status: res.status, code: res.json.code };
  }
  // Family B errors: `error` first, then `code` and (when the error has them) per-field
  // `details` (the universal resolver keeps its own result shape).
  expect(Object.keys(res.json).slice(0, 2)).toEqual(['error', 'code']);
  expect(Object.keys(res.json).every((k) => ['error', 'code', 'details'].includes(k))).toBe(true);
  expect(typeof res.json.error).toBe('string');
  return { ok: false, status: res.status, code: res.json.code };
}

function familyA<T>(res: HttpResponse): Outcome<T> {
  if (res.status >= 400) return restFail(res, 'A');
  expect(res.json).toMatchObject({ success: true, status: res.status });
  return { ok: true, data: res.json.data as T };
}

function familyB<T>(res: HttpResponse): Outcome<T> {
  if (res.status >= 400) return restFail(res, 'B');
  return { ok: true, data: res.json as T };
}

export function restTransport(server: Endpoint, familyAPrefix: '' | '/api'): Transport {
  const call = (method: string, path: string, key?: string, headers: Record<string, string> = {}, body?: unknown) =>
    request(server.baseUrl, method, path, { headers: { ...keyHeader(key), ...headers }, ...(body !== undefined ? { body } : {}) });
  return {
    name: familyAPrefix === '' ? 'REST' : 'REST /api',
    async generateKeypair(key) {
      const res = await call('GET', '/generate-keypair', key);
      if (res.status === 200) expect(res.headers.get('cache-control')).toBe('no-store');
      return familyB(res);
    },
    async createDid(key, input) {
      const res = await call('POST', '/dids', key, {}, input);
      const out = familyB<DidRecordDoc>(res);
      if (!out.ok) return out;
      expect([200, 201]).toContain(res.status);
      return { ok: true, data: { document: out.data, created: res.status === 201 } };
    },
    async getDid(key, did) {
      // Both documented spellings must agree: the `did` header and the path parameter.
      const byHeader = familyB<DidRecordDoc>(await call('GET', '/dids', key, { did }));
      const byPath = familyB<DidRecordDoc>(await call('GET', `/dids/${encodeURIComponent(did)}`, key));
      expect(byPath).toEqual(byHeader);
      return byHeader;
    },
    async resolveDocument(key, did) {
      return familyB(await call('GET', `/resolve/${encodeURIComponent(did)}`, key));
    },
    async resolution(key, did) {
      const res = await call('GET', `/1.0/identifiers/${encodeURIComponent(did)}`, key);
      if (res.status === 401 || res.status === 403) return restFail(res, 'B');
      const expected = { invalidDid: 400, notFound: 404, methodNotSupported: 501 } as Record<string, number>;
      const error = res.json?.didResolutionMetadata?.error as string | undefined;
      expect(res.status).toBe(error ? expected[error] : 200);
      return { ok: true, data: res.json as Resolution };
    },
    async generateUserKeyPair(key) {
      return familyA(await call('GET', `${familyAPrefix}/user/generateKeyPair`, key));
    },
    async userDid(key, publicKey) {
      return familyA(await call('GET', `${familyAPrefix}/user/did`, key, { publicKey }));
    },
  };
}

// ---------- GraphQL (generated SDK) ----------

const APOLLO_STATUS: Record<string, number> = { GRAPHQL_VALIDATION_FAILED: 400, UNAUTHENTICATED: 401 };

export async function gqlOutcome<T>(fn: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, data: await fn() };
  } catch (e) {
    if (!(e instanceof CredgateGraphQLError)) throw e;
    const code = e.code ?? 'INTERNAL';
    const status = e.errors[0]?.extensions?.status ?? APOLLO_STATUS[code] ?? ERROR_STATUS[code as ErrorCode] ?? 500;
    return { ok: false, status, code };
  }
}

function fromGraphql(d: DidRecordDocumentFieldsFragment): DidRecordDoc {
  return {
    _id: d.recordId ?? null,
    id: d.id,
    topicId: d.topicId ?? null,
    templateTopicId: d.templateTopicId ?? null,
    publicKey: d.publicKeys.map(({ recordId, ...k }) => ({ ...k, _id: recordId })),
    authentication: d.authentication,
    service: d.service,
    created: d.created ?? null,
    updated: d.updated ?? null,
    ledgerFileId: d.ledgerFileId ?? null,
    __v: d.version,
  };
}

const strip = <T extends object>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined)) as T;

export function graphqlTransport(server: Endpoint): Transport {
  return {
    name: 'GraphQL',
    generateKeypair: (key) => gqlOutcome(async () => (await server.sdk(key).generateKeypair()).generateKeypair),
    createDid: (key, input) =>
      gqlOutcome(async () => {
        const r = (await server.sdk(key).createDid({ input })).createDid;
        return { document: fromGraphql(r.document), created: r.created };
      }),
    getDid: (key, did) => gqlOutcome(async () => fromGraphql((await server.sdk(key).did({ did })).did)),
    resolveDocument: (key, did) => gqlOutcome(async () => (await server.sdk(key).didDocument({ did })).didDocument),
    resolution: (key, did) =>
      gqlOutcome(async () => {
        const r = (await server.sdk(key).didResolution({ did })).didResolution;
        return {
          didDocument: r.didDocument ?? null,
          didResolutionMetadata: strip(r.didResolutionMetadata),
          didDocumentMetadata: strip(r.didDocumentMetadata),
        } as Resolution;
      }),
    generateUserKeyPair: (key) => gqlOutcome(async () => (await server.sdk(key).generateUserKeyPair()).generateUserKeyPair),
    userDid: (key, publicKey) => gqlOutcome(async () => (await server.sdk(key).registerUserDid({ publicKey })).registerUserDid),
  };
}

export function allTransports(server: TestServer): Transport[] {
  return [restTransport(server, ''), restTransport(server, '/api'), graphqlTransport(server)];
}

export const TRANSPORT_NAMES = ['REST', 'REST /api', 'GraphQL'] as const;
