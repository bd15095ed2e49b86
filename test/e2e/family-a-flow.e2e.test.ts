import { randomBytes } from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519.js';
import { canonicalBytes } from '../../src/domain/canonical';
import { decryptSubject } from '../../src/domain/encryption';
import { type TestServer, startTestServer } from '../support/harness';
import { request } from '../support/http';
import type { IssueBody } from '../support/family-a-transports';
import { ATTRIBUTES, FAMILY_A_TRANSPORTS, type Holder, type Party, newHolder as holder, newParty, subject, unwrap } from '../support/family-a-fixtures';

const clock = { offsetMs: 0, now: () => new Date(Date.now() + clock.offsetMs) };
let server: TestServer;
/** Holder private keys and API keys used below; none may reach a log line. */
const secrets: string[] = [];

beforeAll(async () => {
  server = await startTestServer({ clock });
});
afterAll(async () => {
  await server?.stop();
});

const SUBJECT = subject();

describe.each(FAMILY_A_TRANSPORTS)('Family A flow through %s', (name) => {
  let p: Party;
  let issuerDid: string;
  let schemaName: string;
  let user: Holder;
  let plain: { verifiableCredential: Record<string, any>; userSignature: string };
  let encrypted: { verifiableCredential: Record<string, any>; userSignature: string };

  const sign = async (subject: Record<string, unknown>) => unwrap(await p.fa.sign(p.holderKey, user.privateKey, issuerDid, { credentialSubject: { id: user.did, ...subject } }));
  const holderHeaders = (userSignature: string) => ({ did: user.did, publicKey: user.publicKey, userSignature });
  const verify = (vc: Record<string, unknown>, userSignature: string, extra: Record<string, unknown> = {}, zkp?: boolean) =>
    p.fa.verify(p.verifierKey, { publicKey: user.publicKey, userSignature }, { credentials: vc, ...extra }, zkp).then(unwrap);

  beforeAll(async () => {
    p = await newParty(server, name);
    user = await holder(p);
    secrets.push(user.privateKey, p.issuerKey, p.holderKey, p.verifierKey);
    schemaName = `Employee${randomBytes(3).toString('hex')}`;
  });

  test('issuer DID: Family A form, created once, resolvable', async () => {
    issuerDid = unwrap(await p.fa.issuerDid(p.issuerKey));
    expect(issuerDid).toMatch(/^did:credgate:local:[1-9A-HJ-NP-Za-km-z]+;credgate:local:fid=0\.0\.\d+$/);
    expect(unwrap(await p.fa.issuerDid(p.issuerKey))).toBe(issuerDid);
    const doc = unwrap(await p.slice.resolveDocument(p.verifierKey, issuerDid));
    expect(doc['verificationMethod']).toEqual(expect.arrayContaining([expect.objectContaining({ id: `${issuerDid.split(';')[0]}#did-root-key`, type: 'Ed25519VerificationKey2018' })]));
  });

  test('createSchema maps attribute definitions exactly and versions by name', async () => {
    const body = { schemaName, description: 'Employee badge', attributes: { attributes: ATTRIBUTES }, expiration: { value: 1, unit: 'years' }, dependantSchemas: [] };
    const created = unwrap(await p.fa.createSchema(p.issuerKey, body));
    expect(created).toEqual({
      name: `${schemaName}:1`,
      message: { operation: 'create', versionContol: `${schemaName}:1`, schemaDocumentBase64: expect.any(String), timestamp: expect.any(String) },
    });
    const expectedBody = {
      $schema: 'http://json-schema.org/draft-04/schema#',
      title: schemaName,
      description: 'Employee badge',
      type: 'object',
      properties: {
        name: { type: 'string', description: 'Given name', maxLength: '20', pattern: '[a-zA-Z]+$' },
        email: { type: 'string', description: 'Work email', format: 'email' },
        age: { type: 'integer', description: 'Age in years' },
        birthDate: { type: 'date', description: 'Date of birth', format: 'date-time' },
        employeeId: { type: 'string', description: 'Badge' },
      },
      required: ['name', 'email', 'age', 'birthDate'],
      expiration: { value: 1, unit: 'years' },
      dependantSchemas: [],
    };
    expect(JSON.parse(Buffer.from(created.message.schemaDocumentBase64, 'base64').toString('utf8'))).toEqual(expectedBody);
    const second = unwrap(await p.fa.createSchema(p.issuerKey, { ...body, description: 'v2' }));
    expect(second.message.versionContol).toBe(`${schemaName}:2`);
    expect(unwrap(await p.fa.schema(p.issuerKey, schemaName))).toMatchObject({ name: `${schemaName}:2`, body: { description: 'v2' } });
    expect(unwrap(await p.fa.schema(p.issuerKey, `${schemaName}:1`))).toEqual({ name: `${schemaName}:1`, body: expectedBody, timestamp: created.message.timestamp });
    const all = unwrap(await p.fa.schemas(p.issuerKey)).map((s) => s.name);
    expect(all).toEqual(expect.arrayContaining([`${schemaName}:1`, `${schemaName}:2`]));
    expect(await p.fa.schema(p.issuerKey, 'NoSuchSchema')).toMatchObject({ ok: false, status: 404 });
  });

  test('sign: a hex Ed25519 signature over the canonical subject bound to the issuer DID', async () => {
    const sig = await sign(SUBJECT);
    expect(sig).toMatch(/^[0-9a-f]{128}$/);
    const pub = Buffer.from(user.publicKey, 'base64');
    const signed = { purpose: 'credgate-user-consent/v2', issuerDid, schemaName: null, subject: { id: user.did, ...SUBJECT } };
    expect(ed25519.verify(Buffer.from(sig, 'hex'), canonicalBytes(signed), pub)).toBe(true);
    expect(ed25519.verify(Buffer.from(sig, 'hex'), canonicalBytes({ id: user.did, ...SUBJECT }), pub)).toBe(false);
  });

  test('issue: every field of the credential, and its schema URL resolves', async () => {
    const sig = await sign(SUBJECT);
    const before = clock.now();
    plain = unwrap(await p.fa.issue(p.issuerKey, holderHeaders(sig), { schemaName: `${schemaName}:1`, isEncrypted: false, dependantVerifiableCredential: [], credentialSubject: SUBJECT }));
    expect(plain.userSignature).toBe(sig);
    const vc = plain.verifiableCredential;
    expect(vc['@context']).toContain('https://www.w3.org/2018/credentials/v1');
    expect(vc.id).toMatch(new RegExp(`^${schemaName}:1:[0-9a-f-]{36}$`));
    expect(vc.type).toEqual(['VerifiableCredential', schemaName]);
    expect(vc.version).toBe(`${schemaName}:1`);
    expect(vc.credentialSchema).toEqual({ id: expect.stringMatching(new RegExp(`/schema/${schemaName}$`)), type: 'JsonSchemaValidator2018' });
    expect(vc.issuer).toBe(issuerDid);
    expect(vc.credentialSubject).toEqual([{ id: user.did, ...SUBJECT }]);
    const issued = new Date(vc.issuanceDate);
    expect(Math.abs(issued.getTime() - before.getTime())).toBeLessThan(60_000);
    const expires = new Date(vc.expirationDate);
    expect(expires.getUTCFullYear()).toBe(issued.getUTCFullYear() + 1);
    expect(expires.getUTCMonth()).toBe(issued.getUTCMonth());
    expect(vc.biometrics).toEqual({ face: null, iris: null, finger: null });
    expect(vc.credentialStatus).toBe('');
    expect(vc.proof).toEqual({
      type: 'Ed25519Signature2018',
      creator: issuerDid,
      created: vc.issuanceDate,
      proofPurpose: 'assertionMethod',
      vcVerificationMethod: `${issuerDid}#did-root-key`,
      jws: expect.stringMatching(/^eyJ[A-Za-z0-9_-]+\.\.[A-Za-z0-9_-]+$/),
    });
    // The schema URL resolves without an API key; so does the bare /schema/{name} of a unique name.
    // The URL names the schema (reference 2.4); the credential's signed `version` pins the version.
    const schemaPath = new URL(vc.credentialSchema.id).pathname;
    expect((await request(server.baseUrl, 'GET', schemaPath)).json.description).toBe('v2');
    const pub = await request(server.baseUrl, 'GET', `${schemaPath}?version=${vc.version.split(':')[1]}`);
    expect(pub.status).toBe(200);
    expect(pub.json.title).toBe(schemaName);
    const bare = await request(server.baseUrl, 'GET', `/schema/${schemaName}:1`);
    expect(bare).toMatchObject({ status: 200, json: pub.json });
    expect((await request(server.baseUrl, 'GET', `/schema/${schemaName}`)).json.description).toBe('v2');
    expect((await request(server.baseUrl, 'GET', `/schema/Nope${schemaName}`)).status).toBe(404);
  });

  test('verify: a valid credential gives Success / Success / No Check Performed', async () => {
    const r = await verify(plain.verifiableCredential, plain.userSignature, { verifyParams: [] });
    expect(r).toEqual({
      success: true,
      message: 'User is valid, issuer DID is valid and verifiable credential is valid',
      data: { isVCValid: 'Success', isIssuerDIDValid: 'Success', biometricMatchScore: 'No Check Performed', zkpMessage: null, zkpConditionsMet: null, zkpResult: null, holderProof: 'STATIC_REPLAYABLE', reasons: [] },
    });
    expect((await verify(plain.verifiableCredential, plain.userSignature, { verifyParams: ['name=Alice', 'age=30', 'birthDate=1990-05-17'] })).success).toBe(true);
    const mismatch = await verify(plain.verifiableCredential, plain.userSignature, { verifyParams: ['name=Bob'] });
    expect(mismatch.success).toBe(false);
    expect(mismatch.data.isVCValid).toMatch(/^Failed: .*verifyParams do not match: name/);
    const otherUser = await holder(p);
    const wrongUser = await p.fa.verify(p.verifierKey, { publicKey: otherUser.publicKey, userSignature: plain.userSignature }, { credentials: plain.verifiableCredential }).then(unwrap);
    expect(wrongUser.success).toBe(false);
    expect(wrongUser.data.reasons.join()).toMatch(/holder/);
  });

  test('encrypted: every subject value is ciphertext the holder alone can open; tampering fails both', async () => {
    const sig = await sign(SUBJECT);
    encrypted = unwrap(await p.fa.issue(p.issuerKey, holderHeaders(sig), { schemaName: `${schemaName}:1`, isEncrypted: true, credentialSubject: SUBJECT }));
    const vc = encrypted.verifiableCredential;
    expect(vc.type).toEqual(['VerifiableCredential', schemaName, 'Encrypted']);
    const shown = vc.credentialSubject[0] as Record<string, string>;
    expect(Object.keys(shown).sort()).toEqual(['id', ...Object.keys(SUBJECT)].sort());
    for (const [k, v] of Object.entries(shown)) {
      expect(v).toMatch(/^[A-Za-z0-9+/]+=*$/);
      // The plaintext (JSON text, as encrypted) is nowhere in the ciphertext bytes. Comparing the
      // base64 text instead would flake: a short value such as "30" turns up in random base64.
      const plain = JSON.stringify(k === 'id' ? user.did : (SUBJECT as Record<string, string>)[k]);
      expect(Buffer.from(v, 'base64').includes(Buffer.from(plain))).toBe(false);
    }
    const expected = { id: user.did, ...SUBJECT };
    expect(unwrap(await p.fa.decrypt(p.holderKey, user.privateKey, vc))).toEqual(expected);
    // Without the service: the holder's own key and the published algorithm.
    expect(decryptSubject(shown, Buffer.from(user.privateKey, 'base64'), vc.id)).toEqual(expected);
    expect((await verify(vc, encrypted.userSignature)).success).toBe(true);

    const flipped = shown['email']!.startsWith('A') ? 'B' + shown['email']!.slice(1) : 'A' + shown['email']!.slice(1);
    const tampered = { ...vc, credentialSubject: [{ ...shown, email: flipped }] };
    expect(await p.fa.decrypt(p.holderKey, user.privateKey, tampered)).toMatchObject({ ok: false, status: 400 });
    expect((await verify(tampered, encrypted.userSignature)).success).toBe(false);
    const stranger = await holder(p);
    expect(await p.fa.decrypt(p.holderKey, stranger.privateKey, vc)).toMatchObject({ ok: false, status: 400 });
  });

  test('ZKP: conditions over the issuer copy, bound to one credential', async () => {
    const zkp = unwrap(
      await p.fa.createZkp(p.issuerKey, {
        credentials: encrypted.verifiableCredential,
        birthDate: { type: 'date', value: 18, unit: 'years' },
        age: { type: 'number', minimum: '18', maximum: '29' },
        verifyParams: ['name=Alice'],
      }),
    );
    expect(zkp.certificate).toEqual({ birthDate: true, age: false, 'name=Alice': true });
    expect(zkp.userSignature).toMatch(/^[0-9a-f]{128}$/);
    const issuerDoc = unwrap(await p.slice.resolveDocument(p.verifierKey, issuerDid));
    const rootKey = (issuerDoc['verificationMethod'] as { publicKeyBase58: string }[])[0]!.publicKeyBase58;
    expect(rootKey.length).toBeGreaterThan(40);
    expect(Buffer.from(zkp.publicKey, 'base64')).toHaveLength(32);

    const zkpCertificate = { certificate: zkp.certificate, zkpSignature: zkp.userSignature, publicKey: zkp.publicKey, userSignature: encrypted.userSignature, statement: zkp.statement };
    const ok = await verify(encrypted.verifiableCredential, encrypted.userSignature, { zkpCertificate }, true);
    // The certificate verifies, but one proven condition is false: not a valid answer (finding 6).
    expect(ok).toMatchObject({ success: false, data: { zkpMessage: zkp.certificate, zkpConditionsMet: false, reasons: ['ZKP condition not met: age'] } });
    const changed = await verify(encrypted.verifiableCredential, encrypted.userSignature, { zkpCertificate: { ...zkpCertificate, certificate: { ...zkp.certificate, age: true } } }, true);
    expect(changed).toMatchObject({ success: false, data: { zkpMessage: null } });
    const otherCredential = await verify(plain.verifiableCredential, plain.userSignature, { zkpCertificate: { ...zkpCertificate, userSignature: plain.userSignature } }, true);
    expect(otherCredential.success).toBe(false);
    expect(otherCredential.data.reasons.join()).toMatch(/ZKP/);
  });

  test('cryptograph: QR-ready text and PNG; verification accepts the cryptograph', async () => {
    const sig = await sign(SUBJECT);
    const body: IssueBody = { schemaName: `${schemaName}:1`, credentialSubject: SUBJECT };
    const withText = unwrap(await p.fa.issue(p.issuerKey, holderHeaders(sig), body, { isCryptograph: true }));
    expect(withText.cryptograph).toMatch(/^CG1:[0-9A-Z $%*+\-./:]+$/);
    const viaQr = unwrap(await p.fa.verify(p.verifierKey, { publicKey: user.publicKey, userSignature: sig }, { cryptograph: withText.cryptograph! }));
    expect(viaQr.success).toBe(true);
    const png = unwrap(await p.fa.issue(p.issuerKey, holderHeaders(sig), body, { downloadCryptograph: true }));
    expect(png.png!.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    // Change a character in the middle: the trailing characters may only carry deflate padding bits.
    const text = withText.cryptograph!;
    const mid = Math.floor(text.length / 2);
    const bad = text.slice(0, mid) + (text[mid] === 'A' ? 'B' : 'A') + text.slice(mid + 1);
    const tampered = await p.fa.verify(p.verifierKey, { publicKey: user.publicKey, userSignature: sig }, { cryptograph: bad });
    if (tampered.ok) expect(tampered.data.success).toBe(false);
    else expect(tampered.status).toBe(400);
  });

  test('re-issue supersedes; revoke answers 202 and the credential then verifies as revoked', async () => {
    const newSubject = { ...SUBJECT, email: 'alice@new.example.com' };
    const sig = await sign(newSubject);
    const next = unwrap(await p.fa.reissue(p.issuerKey, holderHeaders(sig), { schemaName: `${schemaName}:1`, credentialSubject: newSubject }, plain.verifiableCredential));
    expect(next.verifiableCredential.id).not.toBe(plain.verifiableCredential.id);
    const old = await verify(plain.verifiableCredential, plain.userSignature);
    expect(old.success).toBe(false);
    expect(old.data.isVCValid).toMatch(/superseded/);
    expect((await verify(next.verifiableCredential, next.userSignature)).success).toBe(true);
    expect(await p.fa.reissue(p.issuerKey, holderHeaders(sig), { schemaName: `${schemaName}:1`, credentialSubject: newSubject }, plain.verifiableCredential)).toMatchObject({ ok: false, status: 409 });

    // A holder revokes with a fresh revocation proof (the issuance userSignature no longer does).
    const revokeProof = unwrap(await p.fa.holderProof(p.holderKey, user.privateKey, { credentialId: next.verifiableCredential.id, purpose: 'revoke' }));
    const revoked = unwrap(await p.fa.revoke(p.holderKey, { publicKey: user.publicKey, userSignature: revokeProof }, next.verifiableCredential));
    expect(revoked.message).toBe(`Verifiable Credential ${next.verifiableCredential.id} has been revoked`);
    const after = await verify(next.verifiableCredential, next.userSignature);
    expect(after).toMatchObject({ success: false, data: { isIssuerDIDValid: 'Success' } });
    expect(after.data.isVCValid).toMatch(/revoked/);
    expect(await p.fa.revoke(p.holderKey, { publicKey: user.publicKey, userSignature: revokeProof }, next.verifiableCredential)).toMatchObject({ ok: false, status: 409 });
    const stranger = await holder(p);
    expect(await p.fa.revoke(p.holderKey, { publicKey: stranger.publicKey, userSignature: encrypted.userSignature }, encrypted.verifiableCredential)).toMatchObject({ ok: false, status: 403 });
  });

  test('expired credentials (frozen clock) are reported as expired', async () => {
    clock.offsetMs = 400 * 24 * 3600 * 1000;
    try {
      const r = await verify(encrypted.verifiableCredential, encrypted.userSignature);
      expect(r.success).toBe(false);
      expect(r.data.isVCValid).toMatch(/expired/);
    } finally {
      clock.offsetMs = 0;
    }
  });

  test('deleting the issuer DID: its credentials fail isIssuerDIDValid, and the next GET makes a new one', async () => {
    const other = await newParty(server, name);
    expect(await other.fa.deleteIssuerDid(other.issuerKey, issuerDid)).toMatchObject({ ok: false, status: 404 });
    expect(await p.fa.deleteIssuerDid(p.issuerKey, 'did:credgate:local:1111111111111111111111')).toMatchObject({ ok: false, status: 404 });
    expect(unwrap(await p.fa.deleteIssuerDid(p.issuerKey, issuerDid))).toBe(true);
    const r = await verify(encrypted.verifiableCredential, encrypted.userSignature);
    expect(r.success).toBe(false);
    expect(r.data.isIssuerDIDValid).not.toBe('Success');
    expect(r.data.isIssuerDIDValid).toMatch(/deleted/);
    const fresh = unwrap(await p.fa.issuerDid(p.issuerKey));
    expect(fresh).not.toBe(issuerDid);
    expect(await p.fa.deleteIssuerDid(p.issuerKey, issuerDid)).toMatchObject({ ok: false, status: 404 });
    issuerDid = fresh;
  });
});

test('no holder private key or API key reached a log line', () => {
  expect(secrets.length).toBeGreaterThanOrEqual(12);
  const text = server.logs.text();
  for (const s of secrets) expect(text).not.toContain(s);
});
