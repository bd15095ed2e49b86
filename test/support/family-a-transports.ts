import type { Endpoint } from './harness';
import { request, type HttpResponse } from './http';
import { type Outcome, gqlOutcome } from './transports';

/**
 * Family A operations through REST (bare or /api) and GraphQL (generated SDK), normalised so a
 * scenario states its expectations once. REST also checks the documented envelope and messages.
 */
export interface HolderHeaders {
  did: string;
  publicKey: string;
  userSignature: string;
}

export interface Issued {
  verifiableCredential: Record<string, any>;
  userSignature: string;
  cryptograph?: string;
  png?: Buffer;
}

export interface Verification {
  success: boolean;
  message: string;
  data: {
    isVCValid: string;
    isIssuerDIDValid: string;
    biometricMatchScore: string;
    zkpMessage: Record<string, boolean> | null;
    reasons: string[];
    zkpConditionsMet?: boolean | null;
    holderProof?: string;
    zkpResult?: Record<string, any> | null;
  };
}

/** Headers of a verification; `userSignature` may be left out when the body carries a challenge-bound holderProof. */
export interface VerifyHeaders {
  publicKey: string;
  userSignature?: string;
}

/** Input of POST /user/holderProof (mutation signHolderProof). */
export interface HolderProofRequest {
  credentialId: string;
  purpose: 'verify' | 'revoke';
  nonce?: string;
}

export interface SchemaCreatedOut {
  name: string;
  message: { operation: string; versionContol: string; schemaDocumentBase64: string; timestamp: string };
}

export interface SchemaViewOut {
  name: string;
  body: Record<string, any>;
  timestamp: string;
}

export interface ZkpOut {
  certificate: Record<string, boolean>;
  userSignature: string;
  publicKey: string;
  statement?: Record<string, any>;
}

export interface CreateSchemaBody {
  schemaName: string;
  description: string;
  attributes: { attributes: readonly Record<string, unknown>[] };
  expiration: { value: number; unit: string };
  dependantSchemas: string[];
}

export interface IssueBody {
  schemaName: string;
  isEncrypted?: boolean;
  dependantVerifiableCredential?: Record<string, unknown>[];
  credentialSubject: Record<string, unknown>;
}

export interface FamilyATransport {
  readonly name: string;
  issuerDid(key: string): Promise<Outcome<string>>;
  deleteIssuerDid(key: string, did: string): Promise<Outcome<true>>;
  createSchema(key: string, body: CreateSchemaBody): Promise<Outcome<SchemaCreatedOut>>;
  schemas(key: string): Promise<Outcome<SchemaViewOut[]>>;
  schema(key: string, name: string): Promise<Outcome<SchemaViewOut>>;
  sign(key: string, privateKey: string, issuerDid: string, payload: Record<string, unknown>, schemaName?: string): Promise<Outcome<string>>;
  holderProof(key: string, privateKey: string, req: HolderProofRequest): Promise<Outcome<string>>;
  issue(key: string, holder: HolderHeaders, body: IssueBody, opts?: { isCryptograph?: boolean; downloadCryptograph?: boolean }): Promise<Outcome<Issued>>;
  reissue(key: string, holder: HolderHeaders, body: IssueBody, vc: Record<string, unknown>): Promise<Outcome<Issued>>;
  revoke(key: string, proof: { publicKey: string; userSignature: string }, vc: Record<string, unknown>): Promise<Outcome<{ message: string }>>;
  createZkp(key: string, body: Record<string, unknown>): Promise<Outcome<ZkpOut>>;
  verify(key: string, headers: VerifyHeaders, body: Record<string, unknown>, zkpValidation?: boolean): Promise<Outcome<Verification>>;
  decrypt(key: string, privateKey: string, vc: Record<string, unknown>): Promise<Outcome<Record<string, unknown>>>;
}

function envelope<T>(res: HttpResponse, status: number, message?: string): Outcome<T> {
  if (res.status >= 400) {
    expect(res.json).toMatchObject({ success: false, status: res.status, code: expect.any(String), message: expect.any(String) });
    return { ok: false, status: res.status, code: res.json.code };
  }
  expect(res.status).toBe(status);
  expect(res.json).toMatchObject({ success: true, status });
  if (message !== undefined) expect(res.json.message).toBe(message);
  return { ok: true, data: res.json.data as T };
}

const strip = <T extends Record<string, unknown>>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

export function restFamilyA(server: Endpoint, prefix: '' | '/api'): FamilyATransport {
  const call = (method: string, path: string, key: string, headers: Record<string, string> = {}, body?: unknown) =>
    request(server.baseUrl, method, prefix + path, { headers: { 'X-API-Key': key, ...headers }, ...(body !== undefined ? { body } : {}) });
  const holderHeaders = (h: HolderHeaders) => ({ did: h.did, publicKey: h.publicKey, userSignature: h.userSignature });
  const issued = (res: HttpResponse): Outcome<Issued> => envelope<Issued>(res, 201, 'Verifiable Credential created and submited successfully');
  return {
    name: prefix === '' ? 'REST' : 'REST /api',
    issuerDid: async (key) => envelope(await call('GET', '/issuer/did', key), 200),
    deleteIssuerDid: async (key, did) => {
      const out = envelope<true>(await call('DELETE', `/issuer/did/${encodeURIComponent(did)}`, key), 200, 'Issuer DID deleted successfully');
      return out;
    },
    createSchema: async (key, body) => envelope(await call('POST', '/issuer/createSchema', key, {}, body), 201, 'Schema created and submited successfully'),
    schemas: async (key) => envelope(await call('GET', '/issuer/schemas', key), 200, 'Schema collection retrieved'),
    schema: async (key, name) => envelope(await call('GET', `/issuer/schema/${encodeURIComponent(name)}`, key), 200),
    sign: async (key, privateKey, issuerDid, payload, schemaName) => {
      const schemaQuery = schemaName === undefined ? '' : `&schemaName=${encodeURIComponent(schemaName)}`;
      const res = await call('POST', `/user/sign?issuerDID=${encodeURIComponent(issuerDid)}${schemaQuery}`, key, { privateKey }, { payload });
      if (res.status >= 400) return envelope(res, 200);
      expect(res.json).toEqual({ success: true, Signature: expect.any(String), status: 200 });
      return { ok: true, data: res.json.Signature };
    },
    holderProof: async (key, privateKey, req) => {
      const out = envelope<{ signature: string }>(await call('POST', '/user/holderProof', key, { privateKey }, req), 200);
      return out.ok ? { ok: true, data: out.data.signature } : out;
    },
    issue: async (key, holder, body, opts = {}) => {
      const q = new URLSearchParams();
      if (opts.isCryptograph !== undefined) q.set('isCryptograph', String(opts.isCryptograph));
      if (opts.downloadCryptograph !== undefined) q.set('downloadCryptograph', String(opts.downloadCryptograph));
      const path = `/issuer/verifiableCredential${q.size ? `?${q}` : ''}`;
      if (opts.downloadCryptograph) {
        const res = await fetch(server.baseUrl + prefix + path, {
          method: 'POST',
          headers: { 'X-API-Key': key, 'content-type': 'application/json', ...holderHeaders(holder) },
          body: JSON.stringify(body),
        });
        if (res.status !== 201) return { ok: false, status: res.status };
        expect(res.headers.get('content-type')).toMatch(/^image\/png/);
        return { ok: true, data: { verifiableCredential: {}, userSignature: holder.userSignature, png: Buffer.from(await res.arrayBuffer()) } };
      }
      return issued(await call('POST', path, key, holderHeaders(holder), body));
    },
    reissue: async (key, holder, body, vc) => issued(await call('PUT', '/issuer/verifiableCredential', key, holderHeaders(holder), { ...body, vc })),
    revoke: async (key, proof, vc) => {
      const res = await call('DELETE', '/issuer/verifiableCredential', key, proof, { vc });
      const out = envelope<boolean>(res, 202);
      if (!out.ok) return out;
      expect(out.data).toBe(true);
      return { ok: true, data: { message: res.json.message } };
    },
    createZkp: async (key, body) => envelope(await call('POST', '/issuer/createZkp', key, {}, body), 200),
    verify: async (key, headers, body, zkpValidation) => {
      const res = await call('POST', `/verifier/verify${zkpValidation === undefined ? '' : `?zkpValidation=${zkpValidation}`}`, key, strip({ ...headers }) as Record<string, string>, body);
      if (res.status >= 400) return envelope(res, 200);
      expect(res.status).toBe(200);
      expect(res.json.status).toBe(200);
      return { ok: true, data: { success: res.json.success, message: res.json.message, data: res.json.data } };
    },
    decrypt: async (key, privateKey, vc) => {
      const out = envelope<{ credentialSubject: Record<string, unknown> }>(await call('POST', '/user/decrypt', key, { privateKey }, { vc }), 200);
      return out.ok ? { ok: true, data: out.data.credentialSubject } : out;
    },
  };
}


export function graphqlFamilyA(server: Endpoint): FamilyATransport {
  const sdk = (key: string) => server.sdk(key);
  const toIssued = (p: { verifiableCredential: Record<string, unknown>; userSignature: string; cryptograph?: string | null; cryptographPng?: string | null }): Issued => ({
    verifiableCredential: p.verifiableCredential as Record<string, any>,
    userSignature: p.userSignature,
    ...(p.cryptograph ? { cryptograph: p.cryptograph } : {}),
    ...(p.cryptographPng ? { png: Buffer.from(p.cryptographPng, 'base64') } : {}),
  });
  return {
    name: 'GraphQL',
    issuerDid: (key) => gqlOutcome(async () => (await sdk(key).issuerDid()).issuerDid),
    deleteIssuerDid: (key, did) => gqlOutcome(async () => (await sdk(key).deleteIssuerDid({ did })).deleteIssuerDid as true),
    createSchema: (key, body) =>
      gqlOutcome(async () => (await sdk(key).createSchema({ input: { ...body, attributes: body.attributes.attributes as never } })).createSchema as SchemaCreatedOut),
    schemas: (key) => gqlOutcome(async () => (await sdk(key).schemas()).schemas as SchemaViewOut[]),
    schema: (key, name) => gqlOutcome(async () => (await sdk(key).schema({ name })).schema as SchemaViewOut),
    sign: (key, privateKey, issuerDid, payload, schemaName) =>
      gqlOutcome(async () => (await sdk(key).signUserData({ privateKey, issuerDid, payload, ...(schemaName === undefined ? {} : { schemaName }) } as never)).signUserData),
    holderProof: (key, privateKey, req) => gqlOutcome(async () => (await sdk(key).signHolderProof({ privateKey, ...req } as never)).signHolderProof),
    issue: (key, holder, body, opts = {}) =>
      gqlOutcome(async () => toIssued((await sdk(key).issueCredential({ holder, input: strip({ ...body }) as never, ...opts })).issueCredential)),
    reissue: (key, holder, body, vc) => gqlOutcome(async () => toIssued((await sdk(key).reissueCredential({ holder, input: strip({ ...body }) as never, vc })).reissueCredential)),
    revoke: (key, proof, vc) =>
      gqlOutcome(async () => {
        const r = (await sdk(key).revokeCredential({ vc, ...proof })).revokeCredential;
        expect(r.revoked).toBe(true);
        expect(r.credentialId).toBe(vc['id']);
        return { message: r.message };
      }),
    createZkp: (key, body) =>
      gqlOutcome(async () => {
        const { credentials, verifyParams, ...conditions } = body;
        return (await sdk(key).createZkpCertificate({ input: strip({ credentials: credentials as Record<string, unknown>, conditions, verifyParams: verifyParams as string[] | undefined }) })).createZkpCertificate as ZkpOut;
      }),
    verify: (key, headers, body, zkpValidation) =>
      gqlOutcome(async () => {
        const r = (await sdk(key).verifyCredential({ input: strip({ ...headers, ...(body as object), zkpValidation }) as never })).verifyCredential;
        const { biometricMatch, proofSystem, ...data } = r.data;
        return {
          success: r.success,
          message: r.message,
          // proofSystem is null in GraphQL where REST leaves it out (it is set for bbs-bulletproofs only).
          data: { ...data, zkpMessage: (data.zkpMessage ?? null) as Record<string, boolean> | null, ...(biometricMatch ? { biometricMatch } : {}), ...(proofSystem != null ? { proofSystem } : {}) },
        };
      }),
    decrypt: (key, privateKey, vc) => gqlOutcome(async () => (await sdk(key).decryptCredential({ privateKey, vc })).decryptCredential),
  };
}
