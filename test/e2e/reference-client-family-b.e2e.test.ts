import { randomBytes } from 'node:crypto';
import { useTestServer } from '../support/harness';
import { graphqlFamilyB } from '../support/family-b-transports';
import { graphqlTransport } from '../support/transports';
import { ReferenceClient, type RefResponse, isFamilyBError } from '../support/reference-client';

/**
 * The regression guard of issue 17, Family B: every operation of the interface reference (§4.2
 * fully, §4.3 with the inputs it names) driven as the reference writes it, with no Credgate-only
 * field, through REST and the same flow through GraphQL via the SDK, one set of assertions.
 * Where §4.3 does not show field names the client uses the service's (documented in docs/API.md)
 * for exactly the inputs the reference names, and nothing else.
 */
const server = useTestServer();

type Json = Record<string, any>;
type Result<T> = { ok: true; data: T } | { ok: false; status: number };

const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;
const ATTRIBUTES = [
  { attributeName: 'name', type: 'string', description: 'Full name' },
  { attributeName: 'birthDate', type: 'date', description: 'Date of birth' },
  { attributeName: 'employeeNo', type: 'integer', description: 'Employee number' },
];
const VALUES = { name: 'Grace Hopper', birthDate: '1990-12-09', employeeNo: 7 };

/** §2.10 members only a stored DID has (a did:key document leaves them out). */
const STORED_ONLY = ['_id', 'topicId', 'templateTopicId', 'created', 'updated', 'ledgerFileId'];

interface Fetched {
  credential: Json;
  /** REST: the Credential-Status header; GraphQL: templateCredentialStatus. */
  status: string;
  revokedAt: string | null;
}

/** Every Family B operation, answering the shapes REST shows. */
interface ReferenceB {
  generateKeypair(): Promise<{ publicKey: string; privateKey: string }>;
  createDid(method: string, publicKey: string): Promise<Json>;
  getDid(did: string, spelling: 'header' | 'path'): Promise<Result<Json>>;
  resolve(did: string): Promise<Result<Json>>;
  createTemplate(body: Json): Promise<Result<Json>>;
  listTemplates(): Promise<Json[]>;
  getTemplate(name: string): Promise<Result<Json>>;
  updateTemplate(templateId: string, body: Json): Promise<Result<Json>>;
  deleteTemplate(templateId: string): Promise<Result<unknown>>;
  issue(body: Json): Promise<Result<Json>>;
  getCredential(id: string): Promise<Result<Fetched>>;
  revoke(id: string): Promise<Result<Json>>;
  verify(credential: Json): Promise<{ verified: boolean }>;
  createVp(body: Json): Promise<Json>;
  verifyVp(body: Json): Promise<Result<{ message: string }>>;
  sign(data: unknown, privateKey: string): Promise<string>;
  verifySignature(body: Json): Promise<Result<unknown>>;
  createZkpToken(body: Json): Promise<{ zkpToken: string; zkpData: Json; publicKey: string }>;
  verifyZkpToken(body: Json): Promise<Result<{ success: boolean; conditionMet: boolean; calculatedAge: number; message: string }>>;
}

/** REST as §4.2-4.3 and §7 write it: success statuses, and `{ error }` bodies on failure. */
function restReference(c: ReferenceClient): ReferenceB {
  const result = <T>(res: RefResponse, okStatus: number, failures: number[]): Result<T> => {
    if (res.status === okStatus) return { ok: true, data: res.body as T };
    expect(failures).toContain(res.status);
    expect(isFamilyBError(res, res.status)).toBe(true);
    return { ok: false, status: res.status };
  };
  const ok = <T>(res: RefResponse, status: number): T => {
    expect({ status: res.status, body: res.body }).toEqual({ status, body: expect.anything() });
    return res.body as T;
  };
  return {
    generateKeypair: async () => ok(await c.call('GET', '/generate-keypair'), 200),
    createDid: async (method, publicKey) => ok(await c.call('POST', '/dids', { json: { method, publicKey } }), 201),
    getDid: async (did, spelling) => result(spelling === 'header' ? await c.call('GET', '/dids', { headers: { did } }) : await c.call('GET', `/dids/${encodeURIComponent(did)}`), 200, [404]),
    resolve: async (did) => result(await c.call('GET', `/resolve/${encodeURIComponent(did)}`), 200, [404]),
    createTemplate: async (body) => result(await c.call('POST', '/vc-templates', { json: body }), 201, [409]),
    listTemplates: async () => ok(await c.call('GET', '/vc-templates'), 200),
    // §4.2: the reference labels this success 201.
    getTemplate: async (name) => result(await c.call('GET', `/vc-templates/${encodeURIComponent(name)}`), 201, [404]),
    updateTemplate: async (id, body) => result(await c.call('PUT', `/vc-templates/${encodeURIComponent(id)}`, { json: body }), 200, [404]),
    deleteTemplate: async (id) => result(await c.call('DELETE', `/vc-templates/${encodeURIComponent(id)}`), 200, [404]),
    issue: async (body) => result(await c.call('POST', '/credentials', { json: body }), 201, [400]),
    getCredential: async (id) => {
      const r = result<Json>(await c.call('GET', `/credentials/${encodeURIComponent(id)}`), 200, [404]);
      if (!r.ok) return r;
      const res = await c.call('GET', `/credentials/${encodeURIComponent(id)}`);
      return { ok: true, data: { credential: r.data, status: res.headers.get('Credential-Status') ?? '', revokedAt: res.headers.get('Credential-Revoked-At') } };
    },
    revoke: async (id) => result(await c.call('DELETE', `/credentials/${encodeURIComponent(id)}`), 200, [404]),
    verify: async (credential) => {
      const res = await c.call('POST', '/credentials/verify', { json: { credential } });
      // §7: failed verification is a 400 with `error`.
      if (res.status === 400) {
        expect(isFamilyBError(res, 400)).toBe(true);
        return { verified: false };
      }
      return { verified: ok<Json>(res, 200)['verified'] === true };
    },
    createVp: async (body) => ok<Json>(await c.call('POST', '/create-vp', { json: body }), 200)['vpToken'],
    verifyVp: async (body) => result(await c.call('POST', '/verify-vp', { json: body }), 200, [400, 500]),
    sign: async (data, privateKey) => ok<Json>(await c.call('POST', '/signature/create', { json: { data, privateKey } }), 200)['signature'],
    verifySignature: async (body) => result(await c.call('POST', '/signature/verify', { json: body }), 200, [400, 500]),
    createZkpToken: async (body) => ok(await c.call('POST', '/createZkpToken', { json: body }), 200),
    verifyZkpToken: async (body) => result(await c.call('POST', '/verifyZkpToken', { json: body }), 200, [400, 500]),
  };
}

/** The same operations through the GraphQL SDK (the project's GraphQL transports, normalised to REST shapes). */
function graphqlReference(key: string): ReferenceB {
  const b = graphqlFamilyB(server);
  const s = graphqlTransport(server);
  const must = <T>(o: { ok: true; data: T } | { ok: false; status: number }): T => {
    if (!o.ok) throw new Error(`expected success, got ${o.status}`);
    return o.data;
  };
  const plain = <T>(o: { ok: true; data: T } | { ok: false; status: number }): Result<T> => (o.ok ? o : { ok: false, status: o.status });
  /** GraphQL answers null where REST leaves a did:key member out. */
  const didDoc = (d: Json): Json => Object.fromEntries(Object.entries(d).filter(([, v]) => v !== null));
  return {
    generateKeypair: async () => must(await s.generateKeypair(key)),
    createDid: async (method, publicKey) => {
      const r = must(await s.createDid(key, { method, publicKey }));
      expect(r.created).toBe(true);
      return didDoc(r.document);
    },
    getDid: async (did) => {
      const r = await s.getDid(key, did);
      return r.ok ? { ok: true, data: didDoc(r.data) } : { ok: false, status: r.status };
    },
    resolve: async (did) => plain(await s.resolveDocument(key, did)),
    createTemplate: async (body) => plain(await b.createTemplate(key, body)),
    listTemplates: async () => must(await b.listTemplates(key)),
    getTemplate: async (name) => plain(await b.getTemplate(key, name)),
    updateTemplate: async (id, body) => plain(await b.updateTemplate(key, id, body)),
    deleteTemplate: async (id) => plain(await b.deleteTemplate(key, id)),
    issue: async (body) => plain(await b.issue(key, body)),
    getCredential: async (id) => {
      const r = await b.get(key, id);
      if (!r.ok) return { ok: false, status: r.status };
      const st = (await server.sdk(key).templateCredentialStatus({ credentialId: id })).templateCredentialStatus;
      expect(st.id).toBe(id);
      return { ok: true, data: { credential: r.data, status: st.status, revokedAt: st.revokedAt ?? null } };
    },
    revoke: async (id) => plain(await b.revoke(key, id)),
    verify: async (credential) => ({ verified: must(await b.verify(key, credential)).verified }),
    createVp: async (body) => must(await b.createVp(key, body)),
    verifyVp: async (body) => plain(await b.verifyVp(key, body)),
    sign: async (data, privateKey) => must(await b.sign(key, data, privateKey)),
    verifySignature: async (body) => plain(await b.verifySignature(key, body as { signature: string; data: unknown; publicKey: string })),
    createZkpToken: async (body) => must(await b.createZkpToken(key, body)),
    verifyZkpToken: async (body) => plain(await b.verifyZkpToken(key, body)),
  };
}

describe.each(['REST', 'GraphQL'])('the reference client, Family B, through %s', (transport) => {
  let ref: ReferenceB;
  let issuer: { did: string; doc: Json; publicKey: string };
  let holder: { did: string; publicKey: string; privateKey: string };
  let template: Json;
  let templateBody: Json;
  let credential: Json;
  let vpToken: Json;
  const plainDid = (documentId: string) => documentId.slice(0, documentId.lastIndexOf(':'));

  beforeAll(async () => {
    const key = await server.apiKey(`ref-b-${transport.toLowerCase()}-${randomBytes(3).toString('hex')}`, ['issuer', 'holder', 'verifier']);
    ref = transport === 'GraphQL' ? graphqlReference(key) : restReference(new ReferenceClient(server.baseUrl, key, 'B'));
  });

  test('GET /generate-keypair, POST /dids, GET /dids (did header) and GET /dids/{did}: the §2.10 document', async () => {
    const ik = await ref.generateKeypair();
    expect(ik).toMatchObject({ publicKey: expect.stringMatching(/^[0-9a-f]+$/), privateKey: expect.stringMatching(/^[0-9a-f]+$/) });
    const doc = await ref.createDid(server.config.didMethod, ik.publicKey);
    expect(doc).toEqual({
      _id: expect.any(String),
      id: expect.stringMatching(new RegExp(`^did:${server.config.didMethod}:[a-z0-9]+:[A-Za-z0-9]+:[0-9.]+$`)),
      topicId: expect.any(String),
      templateTopicId: expect.any(String),
      publicKey: [{ id: expect.stringMatching(/#keys-1$/), type: 'Secp256k1VerificationKey2018', publicKeyHex: ik.publicKey, _id: expect.any(String) }],
      authentication: expect.any(Array),
      service: [],
      created: expect.stringMatching(ISO_UTC),
      updated: expect.stringMatching(ISO_UTC),
      ledgerFileId: expect.any(String),
      __v: 0,
    });
    expect(doc['id'].endsWith(`:${doc['ledgerFileId']}`)).toBe(true);
    issuer = { did: plainDid(doc['id']), doc, publicKey: ik.publicKey };
    // §4.2: the DID header in the form did:method:id.
    expect(await ref.getDid(issuer.did, 'header')).toEqual({ ok: true, data: doc });
    expect(await ref.getDid(issuer.did, 'path')).toEqual({ ok: true, data: doc });
    expect(await ref.getDid(`did:${server.config.didMethod}:${server.config.network}:1111111111111111111111`, 'header')).toEqual({ ok: false, status: 404 });
    const hk = await ref.generateKeypair();
    holder = { did: plainDid((await ref.createDid(server.config.didMethod, hk.publicKey))['id']), publicKey: hk.publicKey, privateKey: hk.privateKey };
  });

  test('POST /dids with method key: a did:key document without the members only a stored DID has', async () => {
    const k = await ref.generateKeypair();
    const doc = await ref.createDid('key', k.publicKey);
    expect(doc).toEqual({
      id: expect.stringMatching(/^did:key:z[1-9A-HJ-NP-Za-km-z]+$/),
      publicKey: [{ id: `${doc['id']}#keys-1`, type: 'Secp256k1VerificationKey2018', publicKeyHex: k.publicKey, _id: expect.any(String) }],
      authentication: [`${doc['id']}#keys-1`],
      service: [],
      __v: 0,
    });
    for (const member of STORED_ONLY) expect(Object.keys(doc)).not.toContain(member);
    expect(Object.values(doc)).not.toContain(null);
    expect(await ref.getDid(doc['id'], 'header')).toEqual({ ok: true, data: doc });
  });

  test('GET /resolve/{did}: the DID document; unknown DID 404', async () => {
    const r = await ref.resolve(issuer.did);
    expect(r).toMatchObject({ ok: true, data: { id: issuer.did } });
    expect(await ref.resolve(`did:${server.config.didMethod}:${server.config.network}:1111111111111111111111`)).toEqual({ ok: false, status: 404 });
  });

  test('POST /vc-templates (409 on a used name), GET /vc-templates, GET /vc-templates/{templateName}, PUT /vc-templates/{templateId}: the §2.9 template', async () => {
    templateBody = { templateName: `RefBadge ${randomBytes(3).toString('hex')}`, description: 'Badge', issuer: issuer.did, attributes: ATTRIBUTES, expiration: { value: 2, unit: 'years' } };
    const created = await ref.createTemplate(templateBody);
    if (!created.ok) throw new Error(`template not created: ${created.status}`);
    template = created.data;
    expect(template).toEqual({
      _id: expect.any(String),
      templateId: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
      name: templateBody['templateName'],
      description: 'Badge',
      context: expect.arrayContaining(['https://www.w3.org/2018/credentials/v1']),
      type: ['VerifiableCredential', templateBody['templateName']],
      issuer: issuer.did,
      issuanceDate: expect.stringMatching(ISO_UTC),
      expirationDate: expect.stringMatching(ISO_UTC),
      credentialSubject: ATTRIBUTES,
      __v: 0,
    });
    expect(await ref.createTemplate(templateBody)).toEqual({ ok: false, status: 409 });
    expect((await ref.listTemplates()).map((t) => t['templateId'])).toContain(template['templateId']);
    expect(await ref.getTemplate(templateBody['templateName'])).toEqual({ ok: true, data: template });
    expect(await ref.getTemplate('No such template')).toEqual({ ok: false, status: 404 });

    const updated = await ref.updateTemplate(template['templateId'], { ...templateBody, description: 'Badge v2' });
    if (!updated.ok) throw new Error(`template not updated: ${updated.status}`);
    expect(updated.data).toMatchObject({ templateId: template['templateId'], description: 'Badge v2', __v: 1 });
    // §2.9: expirationDate is issuanceDate plus the expiration period.
    const issued = new Date(updated.data['issuanceDate']);
    const expires = new Date(updated.data['expirationDate']);
    expect([expires.getUTCFullYear() - issued.getUTCFullYear(), expires.getUTCMonth(), expires.getUTCDate()]).toEqual([2, issued.getUTCMonth(), issued.getUTCDate()]);
    template = updated.data;
    expect(await ref.updateTemplate('00000000-0000-4000-8000-000000000000', templateBody)).toEqual({ ok: false, status: 404 });
  });

  test('POST /credentials, GET /credentials/{id} (status issued), POST /credentials/verify', async () => {
    const r = await ref.issue({ templateId: template['templateId'], credentialSubject: { id: holder.did, ...VALUES } });
    if (!r.ok) throw new Error(`not issued: ${r.status}`);
    credential = r.data;
    expect(credential).toMatchObject({ id: expect.any(String), issuer: issuer.did, credentialSubject: [expect.objectContaining({ id: holder.did, ...VALUES })], proof: expect.any(Object) });
    expect(await ref.getCredential(credential['id'])).toEqual({ ok: true, data: { credential, status: 'issued', revokedAt: null } });
    expect(await ref.getCredential('urn:uuid:00000000-0000-4000-8000-000000000000')).toEqual({ ok: false, status: 404 });
    // What GET answers is the credential itself: it verifies as fetched.
    const fetched = await ref.getCredential(credential['id']);
    expect(await ref.verify(fetched.ok ? fetched.data.credential : {})).toEqual({ verified: true });
    expect(await ref.issue({ templateId: template['templateId'], credentialSubject: { ...VALUES, employeeNo: 'seven' } })).toEqual({ ok: false, status: 400 });
  });

  test('POST /create-vp, then POST /verify-vp with vpToken, sharedAttributes, holderDID, holderPublicKey (§2.11)', async () => {
    const sharedAttributes = { [credential['id']]: ['name'] };
    vpToken = await ref.createVp({ credentials: [credential], sharedAttributes, holderDID: holder.did });
    expect(vpToken).toMatchObject({
      '@context': expect.any(Array),
      type: ['VerifiablePresentation'],
      holder: holder.did,
      presentationAttributes: sharedAttributes,
      issuanceDate: expect.stringMatching(ISO_UTC),
      proof: { type: 'EcdsaSecp256k1Signature2019', created: expect.any(String), verificationMethod: expect.stringContaining(holder.did), signatureValue: expect.stringMatching(/^[0-9a-f]+$/) },
    });
    expect(vpToken['verifiableCredential'][0].credentialSubject).toEqual([{ id: holder.did, name: VALUES.name }]);
    expect(await ref.verifyVp({ vpToken, sharedAttributes, holderDID: holder.did, holderPublicKey: holder.publicKey })).toEqual({ ok: true, data: { message: 'VP and attributes verified' } });
    const other = await ref.generateKeypair();
    expect(await ref.verifyVp({ vpToken, sharedAttributes, holderDID: holder.did, holderPublicKey: other.publicKey })).toMatchObject({ ok: false });
  });

  test('POST /signature/create and POST /signature/verify', async () => {
    const data = { message: 'hello', n: 1 };
    const signature = await ref.sign(data, holder.privateKey);
    expect(signature).toMatch(/^[0-9a-f]+$/);
    expect(await ref.verifySignature({ signature, data, publicKey: holder.publicKey })).toMatchObject({ ok: true });
    expect(await ref.verifySignature({ signature, data: { ...data, n: 2 }, publicKey: holder.publicKey })).toMatchObject({ ok: false });
  });

  test('POST /createZkpToken and POST /verifyZkpToken with zkpToken, zkpData, publicKey (§2.12)', async () => {
    const z = await ref.createZkpToken({ credential, condition: { age: 18 } });
    expect(z).toMatchObject({ zkpToken: expect.stringMatching(/^[0-9a-f]+$/), publicKey: expect.stringMatching(/^[0-9a-f]+$/), zkpData: { condition: { age: 18 }, conditionMet: true, calculatedAge: expect.any(Number) } });
    const v = await ref.verifyZkpToken({ zkpToken: z.zkpToken, zkpData: z.zkpData, publicKey: z.publicKey });
    expect(v).toEqual({ ok: true, data: expect.objectContaining({ success: true, conditionMet: true, calculatedAge: z.zkpData['calculatedAge'], message: expect.any(String) }) });
    expect(await ref.verifyZkpToken({ zkpToken: z.zkpToken, zkpData: { ...z.zkpData, calculatedAge: 17 }, publicKey: z.publicKey })).toMatchObject({ ok: false });
  });

  test('DELETE /credentials/{id}: revoked; GET shows its status and time; it no longer verifies; unknown id 404', async () => {
    const r = await ref.revoke(credential['id']);
    expect(r).toEqual({ ok: true, data: expect.objectContaining({ id: credential['id'] }) });
    const fetched = await ref.getCredential(credential['id']);
    // The status is additive: the credential itself is unchanged.
    expect(fetched).toEqual({ ok: true, data: { credential, status: 'revoked', revokedAt: expect.stringMatching(ISO_UTC) } });
    expect(await ref.verify(credential)).toEqual({ verified: false });
    expect(await ref.verifyVp({ vpToken, sharedAttributes: { [credential['id']]: ['name'] }, holderDID: holder.did, holderPublicKey: holder.publicKey })).toMatchObject({ ok: false });
    expect(await ref.revoke('urn:uuid:00000000-0000-4000-8000-000000000000')).toEqual({ ok: false, status: 404 });
  });

  test('DELETE /vc-templates/{templateId}: it can no longer issue; deleting again 404', async () => {
    expect(await ref.deleteTemplate(template['templateId'])).toMatchObject({ ok: true });
    expect(await ref.deleteTemplate(template['templateId'])).toEqual({ ok: false, status: 404 });
    expect(await ref.issue({ templateId: template['templateId'], credentialSubject: { id: holder.did, ...VALUES } })).toEqual({ ok: false, status: 400 });
    expect(await ref.getTemplate(templateBody['templateName'])).toEqual({ ok: false, status: 404 });
  });
});
