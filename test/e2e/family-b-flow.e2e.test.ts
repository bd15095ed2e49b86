import { randomBytes } from 'node:crypto';
import { sha256 } from '@noble/hashes/sha2.js';
import { canonicalBytes } from '../../src/domain/canonical';
import { leafHash, openCheckpoint, verifyInclusion } from '../../src/domain/merkle';
import { useTestServer } from '../support/harness';
import { type FamilyBTransport, graphqlFamilyB, restFamilyB } from '../support/family-b-transports';
import { type Transport, graphqlTransport, restTransport } from '../support/transports';
import { unwrap } from '../support/family-a-fixtures';

const server = useTestServer();

type Json = Record<string, any>;
const clone = (d: Json): Json => JSON.parse(JSON.stringify(d)) as Json;
const ATTRIBUTES = [
  { attributeName: 'name', type: 'string', description: 'Full name' },
  { attributeName: 'email', type: 'email', description: 'Email' },
  { attributeName: 'birthDate', type: 'date', description: 'Date of birth' },
  { attributeName: 'employeeNo', type: 'integer', description: 'Employee number' },
  { attributeName: 'active', type: 'boolean', description: 'Currently employed' },
];
const VALUES = { name: 'Grace Hopper', email: 'grace@example.com', birthDate: '1990-12-09', employeeNo: 7, active: true };

describe.each(['REST', 'GraphQL'])('Family B flow through %s', (name) => {
  let t: FamilyBTransport;
  let slice: Transport;
  const keys = { issuer: '', holder: '', verifier: '' };
  let issuerDid: string;
  let holder: { did: string; publicKey: string; privateKey: string };
  let template: Json;
  let credential: Json;
  let vp: Json;

  beforeAll(async () => {
    const tenant = `fb-${name.toLowerCase()}-${randomBytes(3).toString('hex')}`;
    t = name === 'REST' ? restFamilyB(server) : graphqlFamilyB(server);
    slice = name === 'REST' ? restTransport(server, '') : graphqlTransport(server);
    keys.issuer = await server.apiKey(tenant, ['issuer']);
    keys.holder = await server.apiKey(tenant, ['holder']);
    keys.verifier = await server.apiKey(tenant, ['verifier']);
  });

  test('key pair -> DID for the issuer and the holder', async () => {
    const ik = unwrap(await slice.generateKeypair(keys.issuer));
    issuerDid = unwrap(await slice.createDid(keys.issuer, { method: 'credgate', publicKey: ik.publicKey })).document.id;
    const hk = unwrap(await slice.generateKeypair(keys.holder));
    const hd = unwrap(await slice.createDid(keys.holder, { method: 'credgate', publicKey: hk.publicKey })).document.id;
    holder = { did: hd.slice(0, hd.lastIndexOf(':')), publicKey: hk.publicKey, privateKey: hk.privateKey };
    expect(issuerDid).toMatch(/^did:credgate:local:/);
    // The DID document is the entry its ledgerFileId names.
    const doc = unwrap(await slice.getDid(keys.issuer, issuerDid));
    const entry = await server.app.ledger.findEntry(doc.ledgerFileId!, sha256(canonicalBytes(doc)));
    expect(entry).toMatchObject({ leafIndex: 0, kind: 'did-document' });
  });

  test('templates: create (2.9 shape), duplicate 409, list, get, update (__v), unknown 404', async () => {
    const body = { templateName: `Employee ${randomBytes(2).toString('hex')}`, description: 'Staff badge', issuer: issuerDid, attributes: ATTRIBUTES, expiration: { value: 2, unit: 'years' } };
    template = unwrap(await t.createTemplate(keys.issuer, body));
    expect(template).toMatchObject({
      templateId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: body.templateName,
      description: 'Staff badge',
      type: ['VerifiableCredential', body.templateName],
      issuer: issuerDid.slice(0, issuerDid.lastIndexOf(':')),
      credentialSubject: ATTRIBUTES,
      __v: 0,
    });
    expect(template['context']).toContain('https://www.w3.org/2018/credentials/v1');
    const issued = new Date(template['issuanceDate']);
    expect(new Date(template['expirationDate']).getUTCFullYear()).toBe(issued.getUTCFullYear() + 2);
    expect(await t.createTemplate(keys.issuer, body)).toMatchObject({ ok: false, status: 409 });
    expect(unwrap(await t.listTemplates(keys.issuer)).map((x) => x.templateId)).toContain(template['templateId']);
    expect(unwrap(await t.getTemplate(keys.issuer, body.templateName))).toEqual(template);
    const updated = unwrap(await t.updateTemplate(keys.issuer, template['templateId'], { ...body, description: 'Staff badge v2' }));
    expect(updated).toMatchObject({ templateId: template['templateId'], description: 'Staff badge v2', __v: 1 });
    template = updated;
    expect(await t.getTemplate(keys.issuer, 'No such template')).toMatchObject({ ok: false, status: 404 });
    expect(await t.updateTemplate(keys.issuer, '00000000-0000-4000-8000-000000000000', body)).toMatchObject({ ok: false, status: 404 });
  });

  test('issue, fetch, and verify with an inclusion proof checked here, offline', async () => {
    credential = unwrap(await t.issue(keys.issuer, { templateId: template['templateId'], credentialSubject: VALUES, holder: holder.did }));
    expect(credential).toMatchObject({
      id: expect.stringMatching(/^urn:uuid:/),
      type: ['VerifiableCredential', template['name']],
      issuer: template['issuer'],
      credentialSubject: [{ id: holder.did, ...VALUES }],
      credentialStatus: { type: 'BitstringStatusListEntry', statusPurpose: 'revocation', statusListIndex: expect.stringMatching(/^\d+$/) },
      proof: { type: 'EcdsaSecp256k1Signature2019', proofPurpose: 'assertionMethod', jws: expect.stringMatching(/^ey[^.]+\.\.[^.]+$/) },
    });
    expect(unwrap(await t.get(keys.holder, credential['id']))).toEqual(credential);
    expect(await t.get(keys.holder, 'urn:uuid:00000000-0000-4000-8000-000000000000')).toMatchObject({ ok: false, status: 404 });

    const v = unwrap(await t.verify(keys.verifier, credential));
    expect(v.verified).toBe(true);
    expect(v.checks.map((c) => c.check)).toEqual(['format', 'signature', 'disclosures', 'ledger', 'status', 'expiry']);
    const a = v.anchor!;
    // Client-side: the anchored entry is the credential's hash, and it is in the signed tree.
    expect(a.entryHash).toBe(Buffer.from(sha256(canonicalBytes(credential))).toString('hex'));
    const { publicKey } = { publicKey: Buffer.from(a.logPublicKey, 'base64') };
    const name0 = a.checkpoint.split('\n')[0]!;
    const keyName = /^— (\S+) /m.exec(a.checkpoint)![1]!;
    const opened = openCheckpoint(a.checkpoint, { name: keyName, publicKey });
    expect(opened.verified).toBe(true);
    const cp = opened.checkpoint!;
    expect(name0.endsWith(a.logId)).toBe(true);
    expect(cp.size).toBe(a.treeSize);
    const ok = verifyInclusion(leafHash(Buffer.from(a.entryHash, 'hex')), a.leafIndex, a.treeSize, a.inclusionProof.map((p) => Buffer.from(p, 'base64')), cp.rootHash);
    expect(ok).toBe(true);
    // A checkpoint signed by another key does not open.
    expect(openCheckpoint(a.checkpoint, { name: keyName, publicKey: new Uint8Array(32).fill(7) }).verified).toBe(false);
  });

  test('a presentation discloses 2 of 5 attributes; verify-vp accepts it for its challenge only', async () => {
    vp = unwrap(await t.createVp(keys.holder, { credentialIds: [credential['id']], sharedAttributes: { [credential['id']]: ['name', 'email'] }, holderDID: holder.did, challenge: 'nonce-1', domain: 'verifier.example' }));
    expect(vp).toMatchObject({ type: ['VerifiablePresentation'], holder: holder.did, presentationAttributes: { [credential['id']]: ['name', 'email'] }, proof: { type: 'EcdsaSecp256k1Signature2019', signatureValue: expect.stringMatching(/^[0-9a-f]+$/) } });
    expect(vp['verifiableCredential'][0].credentialSubject).toEqual([{ id: holder.did, name: 'Grace Hopper', email: 'grace@example.com' }]);
    const text = JSON.stringify(vp);
    for (const hidden of ['1990-12-09', 'birthDate', 'employeeNo', 'active']) expect(text).not.toContain(hidden);
    const base = { vpToken: vp, sharedAttributes: { [credential['id']]: ['name', 'email'] }, holderDID: holder.did, holderPublicKey: holder.publicKey, challenge: 'nonce-1', domain: 'verifier.example' };
    expect(unwrap(await t.verifyVp(keys.verifier, base))).toEqual({ message: 'VP and attributes verified' });
    expect(await t.verifyVp(keys.verifier, { ...base, challenge: 'nonce-2' })).toMatchObject({ ok: false, status: 400 });
  });

  test('presentation tampering fails: changed, added or removed attribute, wrong key', async () => {
    const base = { sharedAttributes: { [credential['id']]: ['name', 'email'] }, holderDID: holder.did, holderPublicKey: holder.publicKey, challenge: 'nonce-1', domain: 'verifier.example' };
    const changed = clone(vp);
    changed['verifiableCredential'][0].credentialSubject[0].name = 'Grace H.';
    const added = clone(vp);
    added['verifiableCredential'][0].credentialSubject[0].birthDate = '1990-12-09';
    const removed = clone(vp);
    delete removed['verifiableCredential'][0].credentialSubject[0].email;
    delete removed['verifiableCredential'][0].proof.disclosures.email;
    for (const vpToken of [changed, added, removed]) expect(await t.verifyVp(keys.verifier, { ...base, vpToken })).toMatchObject({ ok: false, status: 400 });
    const other = unwrap(await slice.generateKeypair(keys.holder));
    expect(await t.verifyVp(keys.verifier, { ...base, vpToken: vp, holderPublicKey: other.publicKey })).toMatchObject({ ok: false, status: 400 });
  });

  test('signatures: RFC 8785 + secp256k1 round trip; tampering is 400', async () => {
    const data = { b: [1, 2, { z: true }], a: 'ünïcode' };
    const signature = unwrap(await t.sign(keys.holder, data, holder.privateKey));
    expect(signature).toMatch(/^[0-9a-f]{128}$/);
    expect(unwrap(await t.verifySignature(keys.verifier, { signature, data: { a: 'ünïcode', b: [1, 2, { z: true }] }, publicKey: holder.publicKey }))).toBe(true);
    expect(await t.verifySignature(keys.verifier, { signature, data: { ...data, a: 'x' }, publicKey: holder.publicKey })).toMatchObject({ ok: false, status: 400 });
    const flipped = signature.slice(0, -1) + (signature.endsWith('0') ? '1' : '0');
    expect(await t.verifySignature(keys.verifier, { signature: flipped, data, publicKey: holder.publicKey })).toMatchObject({ ok: false, status: 400 });
    expect(await t.sign(keys.holder, data, 'zz')).toMatchObject({ ok: false, status: 400 });
  });

  test('ZKP token: age condition over the birth date; any change fails', async () => {
    const z = unwrap(await t.createZkpToken(keys.issuer, { credentialId: credential['id'], condition: { age: 18 } }));
    expect(z.zkpToken).toMatch(/^[0-9a-f]+$/);
    expect(z.zkpData).toMatchObject({ condition: { age: 18 }, conditionMet: true, calculatedAge: expect.any(Number) });
    expect(z.zkpData['calculatedAge']).toBeGreaterThanOrEqual(35);
    const ok = unwrap(await t.verifyZkpToken(keys.verifier, z));
    expect(ok).toMatchObject({ success: true, conditionMet: true, calculatedAge: z.zkpData['calculatedAge'] });
    expect(await t.verifyZkpToken(keys.verifier, { ...z, zkpData: { ...z.zkpData, calculatedAge: 17 } })).toMatchObject({ ok: false, status: 400 });
    expect(await t.verifyZkpToken(keys.verifier, { ...z, zkpData: { ...z.zkpData, conditionMet: false } })).toMatchObject({ ok: false, status: 400 });
    const flipped = z.zkpToken.slice(0, 40) + (z.zkpToken[40] === '0' ? '1' : '0') + z.zkpToken.slice(41);
    expect(await t.verifyZkpToken(keys.verifier, { ...z, zkpToken: flipped })).toMatchObject({ ok: false, status: 400 });
    const notOld = unwrap(await t.createZkpToken(keys.issuer, { credentialId: credential['id'], attribute: 'birthDate', condition: { age: 99 } }));
    expect(notOld.zkpData['conditionMet']).toBe(false);
  });

  test('credential tampering fails verification, naming the checks', async () => {
    // Subject values are covered through their salted digests (the disclosures check); every
    // other member is covered by the issuer signature itself; the ledger hash covers everything.
    const cases: [(c: Json) => unknown, string[]][] = [
      [(c) => (c['credentialSubject'][0].name = 'Mallory'), ['disclosures', 'ledger']],
      [(c) => (c['credentialSubject'][0].extra = 'x'), ['disclosures', 'ledger']],
      [(c) => (c['credentialSubject'][0].id = 'did:credgate:local:1111111111111111111111'), ['signature', 'ledger']],
      [(c) => (c['expirationDate'] = '2099-01-01T00:00:00Z'), ['signature', 'ledger']],
      [(c) => (c['credentialStatus'].statusListIndex = '99'), ['signature', 'ledger']],
      [(c) => c['type'].push('Admin'), ['signature', 'ledger']],
      // A middle character: the last one may only carry unused padding bits.
      [(c) => (c['proof'].jws = c['proof'].jws.replace(/\.\.(.{20})(.)/, (_m: string, a: string, b: string) => `..${a}${b === 'A' ? 'B' : 'A'}`)), ['signature', 'ledger']],
      [(c) => (c['proof'].jws = c['proof'].jws.slice(0, -1) + (c['proof'].jws.endsWith('A') ? 'B' : 'A')), ['signature', 'ledger']],
    ];
    for (const [edit, failed] of cases) {
      const c = clone(credential);
      edit(c);
      const v = unwrap(await t.verify(keys.verifier, c));
      expect(v.verified).toBe(false);
      expect(v.checks.filter((x) => !x.ok).map((x) => x.check)).toEqual(expect.arrayContaining(failed));
    }
  });

  test('a credential edited in the database no longer matches the ledger', async () => {
    const c = unwrap(await t.issue(keys.issuer, { templateId: template['templateId'], credentialSubject: VALUES, holder: holder.did }));
    const doc = clone(c);
    doc['credentialSubject'][0].employeeNo = 8;
    await server.app.db.prisma.credential.update({ where: { id: c['id'] }, data: { document: doc } });
    const fetched = unwrap(await t.get(keys.issuer, c['id']));
    expect(fetched['credentialSubject'][0].employeeNo).toBe(8);
    const v = unwrap(await t.verify(keys.verifier, fetched));
    expect(v.verified).toBe(false);
    expect(v.checks.find((x) => x.check === 'ledger')).toMatchObject({ ok: false });
  });

  test('revoke: then verify fails with the status check named; the VP no longer verifies', async () => {
    const r = unwrap(await t.revoke(keys.issuer, credential['id']));
    expect(r).toMatchObject({ id: credential['id'], status: 'revoked' });
    expect(unwrap(await t.revoke(keys.issuer, credential['id']))).toEqual(r);
    const v = unwrap(await t.verify(keys.verifier, credential));
    expect(v.verified).toBe(false);
    expect(v.checks.filter((x) => !x.ok).map((x) => x.check)).toEqual(['status']);
    expect(await t.verifyVp(keys.verifier, { vpToken: vp, sharedAttributes: { [credential['id']]: ['name', 'email'] }, holderDID: holder.did, holderPublicKey: holder.publicKey, challenge: 'nonce-1', domain: 'verifier.example' })).toMatchObject({ ok: false, status: 400 });
    expect(await t.revoke(keys.issuer, 'urn:uuid:00000000-0000-4000-8000-000000000000')).toMatchObject({ ok: false, status: 404 });
  });

  test('deleting the template stops issuance; bad subjects are 400 per attribute', async () => {
    expect(await t.issue(keys.issuer, { templateId: template['templateId'], credentialSubject: { ...VALUES, employeeNo: 'seven', email: 'nope' } })).toMatchObject({ ok: false, status: 400 });
    expect(unwrap(await t.deleteTemplate(keys.issuer, template['templateId']))).toBe(true);
    expect(await t.deleteTemplate(keys.issuer, template['templateId'])).toMatchObject({ ok: false, status: 404 });
    expect(await t.issue(keys.issuer, { templateId: template['templateId'], credentialSubject: VALUES })).toMatchObject({ ok: false, status: 400 });
    expect(await t.getTemplate(keys.issuer, template['name'])).toMatchObject({ ok: false, status: 404 });
  });
});
