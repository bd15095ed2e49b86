import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { CredgateGraphQLError, CredgateUpload } from '../../src/sdk';
import { useTestServer } from '../support/harness';
import { ReferenceClient, type RefResponse, envelopeA } from '../support/reference-client';
import { sharedPath } from '../support/shared';

/**
 * The regression guard of issue 17: every Family A operation of the interface reference, driven
 * exactly as the reference writes it (headers, query, body, envelope, status) and with no field of
 * Credgate's own, through REST on both path spellings (bare and /api) and the same flow through
 * GraphQL via the SDK, with one set of assertions. A hardening that makes a reference client fail
 * fails here.
 */
const server = useTestServer();

type Json = Record<string, any>;
type Result<T> = { ok: true; data: T } | { ok: false; status: number };

const photo = (name: string): Uint8Array => readFileSync(sharedPath('faces', name));
const B64 = /^[A-Za-z0-9+/]+=*$/;
const HEX_SIGNATURE = /^[0-9a-f]{128}$/i;
const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;
/** §2.1 Family A DID: `did:<method>:<network>:<identifier>;<method>:<network>:fid=<ledger_account_id>`. */
const FAMILY_A_DID = /^did:([a-z0-9]+):([a-z0-9]+):[A-Za-z0-9]+;\1:\2:fid=[0-9.]+$/;

/** §2.3: one attribute of each input type; values as the reference sends them (numbers and dates as strings). */
const ATTRIBUTES = [
  { attributeName: 'name', type: 'alphabet', description: 'Given name', required: true, maxLength: '20' },
  { attributeName: 'email', type: 'email', description: 'Work email', required: true },
  { attributeName: 'age', type: 'number', description: 'Age in years', required: true },
  { attributeName: 'birthDate', type: 'date', description: 'Date of birth', required: true },
  { attributeName: 'employeeId', type: 'alphanumeric', description: 'Badge', required: false },
];
const VALUES = { name: 'Alice', email: 'alice@example.com', age: '30', birthDate: '1990-05-17', employeeId: 'E1' };

interface SchemaCreated {
  name: string;
  message: { operation: string; versionContol: string; schemaDocumentBase64: string; timestamp: string };
}
interface Issued {
  verifiableCredential: Json;
  userSignature: string;
}
interface Verified {
  success: boolean;
  message: string;
  data: { isVCValid: string; isIssuerDIDValid: string; biometricMatchScore: string; zkpMessage: Record<string, boolean> | null };
}
interface Face {
  pos: string;
  template: string;
  templateCreationResult: boolean;
}
interface HolderHeaders {
  did: string;
  publicKey: string;
  userSignature: string;
}
interface IssueBody {
  schemaName: string;
  isEncrypted: boolean;
  dependantVerifiableCredential: unknown[];
  credentialSubject: Record<string, string>;
}
interface ZkpCertificate {
  certificate: Record<string, boolean>;
  zkpSignature: string;
  publicKey: string;
  userSignature: string;
}

/** Every Family A operation of §4.1, answering the reference's `data` (and message where it names one). */
interface ReferenceA {
  issuerDid(): Promise<string>;
  deleteIssuerDid(did: string): Promise<{ data: true; message: string }>;
  createSchema(body: Json): Promise<{ data: SchemaCreated; message: string }>;
  schema(name: string): Promise<Json>;
  schemas(): Promise<{ data: Json[]; message: string }>;
  issue(h: HolderHeaders, body: IssueBody): Promise<{ data: Issued; message: string }>;
  reissue(h: HolderHeaders, body: IssueBody & { vc: Json }): Promise<{ data: Issued; message: string }>;
  revoke(h: { publicKey: string; userSignature: string }, vc: Json): Promise<Result<{ data: true; message: string }>>;
  createZkp(body: Json): Promise<{ certificate: Record<string, boolean>; userSignature: string; publicKey: string }>;
  generateKeyPair(): Promise<{ privateKey: string; publicKey: string }>;
  userDid(publicKey: string): Promise<string>;
  sign(privateKey: string, issuerDID: string, payload: Json): Promise<string>;
  createTemplate(originalPhoto: Uint8Array, selfiePhoto: Uint8Array): Promise<{ data: { probeFace: Face; galleryFace: Face }; message: string }>;
  verify(h: { publicKey: string; userSignature: string }, zkpValidation: boolean, body: Json): Promise<Verified>;
}

/** REST, exactly as §4.1 writes each operation; `prefix` is '' or '/api'. */
function restReference(c: ReferenceClient, prefix: string): ReferenceA {
  const withMessage = (res: RefResponse, status: number) => ({ data: envelopeA(res, status), message: res.body.message as string });
  return {
    issuerDid: async () => envelopeA(await c.call('GET', '/issuer/did'), 200),
    deleteIssuerDid: async (did) => withMessage(await c.call('DELETE', `/issuer/did/${encodeURIComponent(did)}`), 200),
    createSchema: async (body) => withMessage(await c.call('POST', '/issuer/createSchema', { json: body }), 201),
    schema: async (name) => envelopeA(await c.call('GET', `/issuer/schema/${encodeURIComponent(name)}`), 200),
    schemas: async () => withMessage(await c.call('GET', '/issuer/schemas'), 200),
    issue: async (h, body) =>
      withMessage(await c.call('POST', '/issuer/verifiableCredential', { headers: { ...h }, query: { isCryptograph: 'false', downloadCryptograph: 'false' }, json: body }), 201),
    reissue: async (h, body) => withMessage(await c.call('PUT', '/issuer/verifiableCredential', { headers: { ...h }, json: body }), 201),
    revoke: async (h, vc) => {
      const res = await c.call('DELETE', '/issuer/verifiableCredential', { headers: { ...h }, json: { vc } });
      return res.status === 202 ? { ok: true, data: withMessage(res, 202) } : { ok: false, status: res.status };
    },
    createZkp: async (body) => envelopeA(await c.call('POST', '/issuer/createZkp', { json: body }), 200),
    generateKeyPair: async () => envelopeA(await c.call('GET', '/user/generateKeyPair'), 200),
    userDid: async (publicKey) => envelopeA(await c.call('GET', '/user/did', { headers: { publicKey } }), 200),
    sign: async (privateKey, issuerDID, payload) => {
      const res = await c.call('POST', '/user/sign', { headers: { privateKey }, query: { issuerDID }, json: { payload } });
      // §4.1: `Signature` with a capital S, no `data`.
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: true, status: 200, Signature: expect.stringMatching(HEX_SIGNATURE) });
      return res.body.Signature as string;
    },
    // §1: POST /user/image/createTemplate in its own reference, PUT /api/user/createTemplate in the overview.
    createTemplate: async (originalPhoto, selfiePhoto) =>
      withMessage(
        prefix === '/api'
          ? await c.call('PUT', '/user/createTemplate', { files: { originalPhoto, selfiePhoto } })
          : await c.call('POST', '/user/image/createTemplate', { files: { originalPhoto, selfiePhoto } }),
        200,
      ),
    verify: async (h, zkpValidation, body) => {
      const res = await c.call('POST', '/verifier/verify', { headers: { ...h }, query: { zkpValidation: String(zkpValidation) }, json: body });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: expect.any(Boolean), status: 200, message: expect.any(String) });
      return { success: res.body.success, message: res.body.message, data: res.body.data };
    },
  };
}

/** The same operations through the GraphQL SDK, answering the reference's shapes. */
function graphqlReference(key: string): ReferenceA {
  const sdk = () => server.sdk(key);
  const toIssueInput = (b: IssueBody) => ({ schemaName: b.schemaName, isEncrypted: b.isEncrypted, dependantVerifiableCredential: b.dependantVerifiableCredential as Json[], credentialSubject: b.credentialSubject });
  return {
    issuerDid: async () => (await sdk().issuerDid()).issuerDid,
    deleteIssuerDid: async (did) => ({ data: (await sdk().deleteIssuerDid({ did })).deleteIssuerDid as true, message: 'Issuer DID deleted' }),
    createSchema: async (body) => ({
      data: (await sdk().createSchema({ input: { schemaName: body['schemaName'], description: body['description'], attributes: body['attributes'].attributes, expiration: body['expiration'], dependantSchemas: body['dependantSchemas'] } })).createSchema,
      message: 'Schema created and submited successfully',
    }),
    schema: async (name) => (await sdk().schema({ name })).schema,
    schemas: async () => ({ data: (await sdk().schemas()).schemas, message: 'Schema collection retrieved' }),
    issue: async (h, body) => {
      const r = (await sdk().issueCredential({ holder: h, input: toIssueInput(body), isCryptograph: false, downloadCryptograph: false })).issueCredential;
      return { data: { verifiableCredential: r.verifiableCredential, userSignature: r.userSignature }, message: 'Verifiable Credential created and submited successfully' };
    },
    reissue: async (h, { vc, ...body }) => {
      const r = (await sdk().reissueCredential({ holder: h, input: toIssueInput(body), vc })).reissueCredential;
      return { data: { verifiableCredential: r.verifiableCredential, userSignature: r.userSignature }, message: 'Verifiable Credential created and submited successfully' };
    },
    revoke: async (h, vc) => {
      try {
        const r = (await sdk().revokeCredential({ vc, ...h })).revokeCredential;
        return { ok: true, data: { data: r.revoked as true, message: r.message } };
      } catch (e) {
        if (e instanceof CredgateGraphQLError) return { ok: false, status: e.errors[0]?.extensions?.status ?? 500 };
        throw e;
      }
    },
    createZkp: async ({ credentials, verifyParams, ...conditions }) => {
      const r = (await sdk().createZkpCertificate({ input: { credentials, conditions, verifyParams } })).createZkpCertificate;
      return { certificate: r.certificate as Record<string, boolean>, userSignature: r.userSignature, publicKey: r.publicKey };
    },
    generateKeyPair: async () => (await sdk().generateUserKeyPair()).generateUserKeyPair,
    userDid: async (publicKey) => (await sdk().registerUserDid({ publicKey })).registerUserDid,
    sign: async (privateKey, issuerDid, payload) => (await sdk().signUserData({ privateKey, issuerDid, payload })).signUserData,
    createTemplate: async (originalPhoto, selfiePhoto) => {
      const r = (await sdk().createFaceTemplates({ originalPhoto: new CredgateUpload(originalPhoto, 'original.jpg', 'image/jpeg'), selfiePhoto: new CredgateUpload(selfiePhoto, 'selfie.jpg', 'image/jpeg') })).createFaceTemplates;
      return { data: r, message: 'Templates Created' };
    },
    verify: async (h, zkpValidation, body) => {
      const r = (await sdk().verifyCredential({ input: { ...h, zkpValidation, ...body } })).verifyCredential;
      return { success: r.success, message: r.message, data: { ...r.data, zkpMessage: (r.data.zkpMessage ?? null) as Record<string, boolean> | null } };
    },
  };
}

describe.each(['REST', 'REST /api', 'GraphQL'])('the reference client, Family A, through %s', (transport) => {
  let ref: ReferenceA;
  let holder: { privateKey: string; publicKey: string; did: string };
  let issuerDid: string;
  let schemaName: string;
  let issued: Issued;
  let zkp: { certificate: Record<string, boolean>; userSignature: string; publicKey: string };

  /** §4.1 rules 1-2: the ZKP certificate exactly as a reference client builds it. */
  const zkpCertificate = (z: typeof zkp, userSignature: string): ZkpCertificate => ({ certificate: z.certificate, zkpSignature: z.userSignature, publicKey: z.publicKey, userSignature });
  const consent = async (values: Record<string, string>) => ref.sign(holder.privateKey, issuerDid, { credentialSubject: { id: holder.did, ...values } });
  const issueBody = (values: Record<string, string>, isEncrypted = false): IssueBody => ({ schemaName: `${schemaName}:1`, isEncrypted, dependantVerifiableCredential: [], credentialSubject: values });

  beforeAll(async () => {
    // One API key for the whole client, as §5 describes one key per request.
    const key = await server.apiKey(`ref-a-${transport.toLowerCase().replace(/[^a-z]/g, '')}-${randomBytes(3).toString('hex')}`, ['issuer', 'holder', 'verifier']);
    const prefix = transport === 'REST /api' ? '/api' : '';
    ref = transport === 'GraphQL' ? graphqlReference(key) : restReference(new ReferenceClient(server.baseUrl, key, 'A', prefix), prefix);
    schemaName = `RefBadge${randomBytes(3).toString('hex')}`;
  });

  test('GET /user/generateKeyPair and GET /user/did: base64 keys, a Family A user DID', async () => {
    const kp = await ref.generateKeyPair();
    expect(kp.privateKey).toMatch(B64);
    expect(kp.publicKey).toMatch(B64);
    expect(Buffer.from(kp.publicKey, 'base64')).toHaveLength(32);
    const did = await ref.userDid(kp.publicKey);
    expect(did).toMatch(FAMILY_A_DID);
    holder = { ...kp, did };
  });

  test('GET /issuer/did: the issuer DID, Family A form', async () => {
    issuerDid = await ref.issuerDid();
    expect(issuerDid).toMatch(FAMILY_A_DID);
    expect(await ref.issuerDid()).toBe(issuerDid);
  });

  test('POST /issuer/createSchema, GET /issuer/schemas, GET /issuer/schema/{schemaName}: §2.2-2.3 mapping', async () => {
    const created = await ref.createSchema({ schemaName, description: 'Employee badge', attributes: { attributes: ATTRIBUTES }, expiration: { value: 1, unit: 'years' }, dependantSchemas: [] });
    expect(created.message).toBe('Schema created and submited successfully');
    // §2.2: a schema record is named `<schema_name>:<version_number>`.
    expect(created.data).toMatchObject({ name: `${schemaName}:1`, message: { operation: 'create', versionContol: `${schemaName}:1`, timestamp: expect.stringMatching(ISO_UTC) } });
    const body = JSON.parse(Buffer.from(created.data.message.schemaDocumentBase64, 'base64').toString('utf8')) as Json;
    expect(body).toMatchObject({
      $schema: expect.stringContaining('draft-04'),
      title: schemaName,
      description: 'Employee badge',
      type: 'object',
      expiration: { value: 1, unit: 'years' },
      dependantSchemas: [],
      properties: {
        name: { type: 'string', pattern: '[a-zA-Z]+$', maxLength: '20' },
        email: { type: 'string', format: 'email' },
        age: { type: 'integer' },
        birthDate: { type: 'date', format: 'date-time' },
        employeeId: { type: 'string' },
      },
    });
    expect(body['properties'].employeeId.pattern).toBeUndefined();
    expect([...body['required']].sort()).toEqual(['age', 'birthDate', 'email', 'name']);

    const all = await ref.schemas();
    expect(all.message).toBe('Schema collection retrieved');
    expect(all.data).toContainEqual({ name: `${schemaName}:1`, body, timestamp: expect.stringMatching(ISO_UTC) });
    // §4.1 does not show GET /issuer/schema/{schemaName}'s shape: it answers success with the schema.
    expect(JSON.stringify(await ref.schema(schemaName))).toContain(schemaName);
  });

  test('POST /user/sign then POST /issuer/verifiableCredential: §2.4 credential, userSignature echoed', async () => {
    const signature = await consent(VALUES);
    expect(signature).toMatch(HEX_SIGNATURE);
    const r = await ref.issue({ did: holder.did, publicKey: holder.publicKey, userSignature: signature }, issueBody(VALUES));
    expect(r.message).toBe('Verifiable Credential created and submited successfully');
    expect(r.data.userSignature).toBe(signature);
    const vc = r.data.verifiableCredential;
    expect(vc).toMatchObject({
      '@context': expect.arrayContaining(['https://www.w3.org/2018/credentials/v1']),
      id: expect.stringMatching(new RegExp(`^${schemaName}:1:[0-9a-f-]{36}$`)),
      type: expect.arrayContaining(['VerifiableCredential']),
      version: `${schemaName}:1`,
      credentialSchema: { id: expect.stringMatching(new RegExp(`/schema/${schemaName}$`)), type: 'JsonSchemaValidator2018' },
      issuer: issuerDid,
      credentialSubject: [{ id: holder.did, ...VALUES }],
      issuanceDate: expect.stringMatching(ISO_UTC),
      expirationDate: expect.stringMatching(ISO_UTC),
      credentialStatus: '',
      proof: { type: 'Ed25519Signature2018', creator: issuerDid, created: expect.stringMatching(ISO_UTC), proofPurpose: 'assertionMethod', vcVerificationMethod: `${issuerDid}#did-root-key`, jws: expect.any(String) },
    });
    expect(vc['type'][0]).toBe('VerifiableCredential');
    expect(vc['biometrics']).toMatchObject({ iris: null, finger: null });
    issued = r.data;
  });

  test('POST /verifier/verify without ZKP: Success, Success, No Check Performed, zkpMessage null', async () => {
    const v = await ref.verify({ publicKey: holder.publicKey, userSignature: issued.userSignature }, false, { credentials: issued.verifiableCredential, verifyParams: [] });
    expect(v).toEqual({
      success: true,
      message: expect.stringMatching(/user is valid.*issuer DID is valid.*credential is valid/i),
      data: expect.objectContaining({ isVCValid: 'Success', isIssuerDIDValid: 'Success', biometricMatchScore: 'No Check Performed', zkpMessage: null }),
    });
  });

  test('an encrypted credential: Encrypted type, base64 subject values, verifies', async () => {
    const values = { ...VALUES, employeeId: 'E2' };
    const r = await ref.issue({ did: holder.did, publicKey: holder.publicKey, userSignature: await consent(values) }, issueBody(values, true));
    const vc = r.data.verifiableCredential;
    expect(vc['type']).toContain('Encrypted');
    for (const v of Object.values(vc['credentialSubject'][0] as Record<string, string>)) expect(v).toMatch(B64);
    expect(JSON.stringify(vc['credentialSubject'])).not.toContain('alice@example.com');
    const v = await ref.verify({ publicKey: holder.publicKey, userSignature: r.data.userSignature }, false, { credentials: vc, verifyParams: [] });
    expect(v.data).toMatchObject({ isVCValid: 'Success', isIssuerDIDValid: 'Success' });
  });

  test('POST /issuer/createZkp, then POST /verifier/verify?zkpValidation=true with the §4.1 zkpCertificate', async () => {
    zkp = await ref.createZkp({
      credentials: issued.verifiableCredential,
      age: { type: 'number', minimum: '18', maximum: '65' },
      birthDate: { type: 'date', value: 18, unit: 'years' },
      verifyParams: ['name=Alice'],
    });
    expect(zkp.certificate).toMatchObject({ age: true, birthDate: true });
    expect(Object.values(zkp.certificate).every((b) => typeof b === 'boolean')).toBe(true);
    expect(zkp.userSignature).toMatch(HEX_SIGNATURE);
    expect(Buffer.from(zkp.publicKey, 'base64')).toHaveLength(32);
    const headers = { publicKey: holder.publicKey, userSignature: issued.userSignature };
    const v = await ref.verify(headers, true, { credentials: issued.verifiableCredential, zkpCertificate: zkpCertificate(zkp, issued.userSignature) });
    expect(v.success).toBe(true);
    expect(v.data).toMatchObject({ isVCValid: 'Success', isIssuerDIDValid: 'Success', zkpMessage: zkp.certificate });
    // What the issuer signed stays bound: a boolean the client changed does not verify.
    const changed = await ref.verify(headers, true, { credentials: issued.verifiableCredential, zkpCertificate: zkpCertificate({ ...zkp, certificate: { ...zkp.certificate, age: false } }, issued.userSignature) });
    expect(changed.success).toBe(false);
    expect(changed.data.zkpMessage).toBeNull();
  });

  test('PUT /issuer/verifiableCredential: a new credential id; the prior one no longer verifies', async () => {
    const values = { ...VALUES, employeeId: 'E3' };
    const r = await ref.reissue({ did: holder.did, publicKey: holder.publicKey, userSignature: await consent(values) }, { ...issueBody(values), vc: issued.verifiableCredential });
    expect(r.message).toBe('Verifiable Credential created and submited successfully');
    expect(r.data.verifiableCredential['id']).not.toBe(issued.verifiableCredential['id']);
    expect(r.data.verifiableCredential['version']).toBe(`${schemaName}:1`);
    expect(r.data.verifiableCredential['credentialSubject']).toEqual([{ id: holder.did, ...values }]);
    const prior = await ref.verify({ publicKey: holder.publicKey, userSignature: issued.userSignature }, false, { credentials: issued.verifiableCredential, verifyParams: [] });
    expect(prior.success).toBe(false);
    issued = r.data;
  });

  test("DELETE /issuer/verifiableCredential with the holder's publicKey and the issuance userSignature: 202, then it fails verification", async () => {
    const z = await ref.createZkp({ credentials: issued.verifiableCredential, age: { type: 'number', minimum: '18', maximum: '65' } });
    const headers = { publicKey: holder.publicKey, userSignature: issued.userSignature };
    const r = await ref.revoke(headers, issued.verifiableCredential);
    expect(r).toEqual({ ok: true, data: { data: true, message: expect.stringContaining(String(issued.verifiableCredential['id'])) } });
    expect(r.ok && r.data.message).toMatch(/revoked/);
    const after = await ref.verify(headers, false, { credentials: issued.verifiableCredential, verifyParams: [] });
    expect(after.success).toBe(false);
    expect(after.data.isVCValid).not.toBe('Success');
    const zkpAfter = await ref.verify(headers, true, { credentials: issued.verifiableCredential, zkpCertificate: zkpCertificate(z, issued.userSignature) });
    expect(zkpAfter.success).toBe(false);
    // Revoking twice is refused and changes nothing.
    expect(await ref.revoke(headers, issued.verifiableCredential)).toMatchObject({ ok: false, status: 409 });
  });

  test('POST /user/image/createTemplate (PUT /api/user/createTemplate): probeFace and galleryFace', async () => {
    const r = await ref.createTemplate(photo('obama_1.jpg'), photo('obama_4.jpg'));
    expect(r.message).toBe('Templates Created');
    for (const face of [r.data.probeFace, r.data.galleryFace]) {
      expect(face).toMatchObject({ pos: 'F', template: expect.stringMatching(B64), templateCreationResult: true });
    }
    expect(r.data.probeFace.template).not.toBe(r.data.galleryFace.template);
  });

  test('DELETE /issuer/did/{did}: data true; the next GET /issuer/did is a new issuer DID', async () => {
    const r = await ref.deleteIssuerDid(issuerDid);
    expect(r.data).toBe(true);
    expect(r.message).toMatch(/issuer DID.*deleted/i);
    const next = await ref.issuerDid();
    expect(next).toMatch(FAMILY_A_DID);
    expect(next).not.toBe(issuerDid);
  });
});
