import { randomBytes } from 'node:crypto';
import { decode as cborDecode } from 'cbor-x';
import { useTestServer } from '../support/harness';
import { localSdk, ok } from '../support/bbs-2023-local-sdk';
import { request } from '../support/http';
import { type BbsTransport, graphqlBbs, restBbs } from '../support/bbs-2023-transports';
import { unwrap } from '../support/family-a-fixtures';
import { FB_ATTRIBUTES, fbTransports } from '../support/family-b-fixtures';
import type { FamilyBTransport } from '../support/family-b-transports';
import type { Transport } from '../support/transports';

/**
 * A Family B template with proofSuite bbs-2023 (issue 18, item 1): its credentials are W3C
 * bbs-2023, issued by the BBS did:key of the template's issuer DID; the holder derives a
 * credential revealing chosen claims (service-side with a holder key, and locally with the SDK),
 * and the verifier checks it through Family B verify and the VC-API. Same assertions through REST
 * and through GraphQL via the SDK.
 */
const server = useTestServer();
type Json = Record<string, any>;

const SECRET_NAME = 'Hypatia Quillfeather-Osei';
const SECRET_BIRTH = '1987-03-14';
const SECRET_NUMBER = 48213;
const VALUES = { name: SECRET_NAME, birthDate: SECRET_BIRTH, employeeNo: SECRET_NUMBER };


/** Whether two byte strings share any run of `n` bytes. */
function shareRun(a: Uint8Array, b: Uint8Array, n: number): boolean {
  const seen = new Set<string>();
  for (let i = 0; i + n <= a.length; i++) seen.add(Buffer.from(a.subarray(i, i + n)).toString('hex'));
  for (let i = 0; i + n <= b.length; i++) if (seen.has(Buffer.from(b.subarray(i, i + n)).toString('hex'))) return true;
  return false;
}
const proofBytes = (vc: Json): Uint8Array => Buffer.from(String(vc['proof']['proofValue']).slice(1), 'base64url');
/** bbs-2023 derived proofValue: 0xd9 0x5d 0x03, then CBOR [bbsProof, labelMap, mandatoryIndexes, selectiveIndexes, presentationHeader]. */
function derivedParts(vc: Json): [Uint8Array, Uint8Array] {
  const bytes = proofBytes(vc);
  expect([...bytes.subarray(0, 3)]).toEqual([0xd9, 0x5d, 0x03]);
  const parts = cborDecode(bytes.subarray(3)) as unknown[];
  return [parts[0] as Uint8Array, parts[4] as Uint8Array];
}

describe.each([['REST'], ['GraphQL']])('a Family B template with proofSuite bbs-2023 via %s', (name) => {
  let t: FamilyBTransport;
  let slice: Transport;
  let vcApi: BbsTransport;
  let keys: { issuer: string; holder: string; verifier: string };
  let issuerDid: string;
  let template: Json;
  let issued: Json;

  const issue = async (): Promise<Json> => unwrap(await t.issue(keys.issuer, { templateId: template['templateId'], credentialSubject: VALUES }));
  const derive = async (vc: Json, pointers: string[]): Promise<Json> => ok(await vcApi.derive(keys.holder, { verifiableCredential: vc, options: { selectivePointers: pointers } })).verifiableCredential;
  const familyBVerify = async (vc: Json) => unwrap(await t.verify(keys.verifier, vc));
  // The VC-API with all its checks: proof (the did:key alone), issuer binding, validity, and status
  // against the list the did:key issued (GET /status/{listId}/bbs-2023).
  const vcApiVerify = async (vc: Json) => ok(await vcApi.verify(keys.verifier, { verifiableCredential: vc }));

  beforeAll(async () => {
    ({ t, slice } = fbTransports(server, name));
    vcApi = name === 'REST' ? restBbs(server) : graphqlBbs(server);
    const tenant = `fbbbs-${name.toLowerCase()}-${randomBytes(4).toString('hex')}`;
    keys = { issuer: await server.apiKey(tenant, ['issuer']), holder: await server.apiKey(tenant, ['holder']), verifier: await server.apiKey(tenant, ['verifier']) };
    const pair = unwrap(await slice.generateKeypair(keys.issuer));
    const full = unwrap(await slice.createDid(keys.issuer, { method: 'credgate', publicKey: pair.publicKey })).document.id as string;
    issuerDid = full.slice(0, full.lastIndexOf(':'));
    template = unwrap(
      await t.createTemplate(keys.issuer, { templateName: `Staff card ${randomBytes(3).toString('hex')}`, description: 'BBS badge', issuer: issuerDid, attributes: FB_ATTRIBUTES, expiration: { value: 1, unit: 'years' }, proofSuite: 'bbs-2023' }),
    ) as Json;
    issued = await issue();
  });

  test('the template names its suite; its credential is a bbs-2023 base proof by the issuer DID\u2019s BBS did:key, which verifiers refuse', async () => {
    expect(template['proofSuite']).toBe('bbs-2023');
    expect(template['issuer']).toBe(issuerDid);
    const fetched = unwrap(await t.getTemplate(keys.issuer, template['name'])) as Json;
    expect(fetched['proofSuite']).toBe('bbs-2023');
    expect(issued['issuer']).toMatch(/^did:key:zUC7/);
    expect(issued['proof']).toMatchObject({ type: 'DataIntegrityProof', cryptosuite: 'bbs-2023', proofPurpose: 'assertionMethod', verificationMethod: `${issued['issuer']}#${String(issued['issuer']).slice(8)}` });
    expect(String(issued['proof']['proofValue'])).toMatch(/^u2V0C/);
    expect(issued['credentialSubject']).toEqual(VALUES);
    expect(issued['credentialStatus']).toMatchObject({ type: 'BitstringStatusListEntry', statusPurpose: 'revocation' });
    expect(issued['credentialStatus']['statusListCredential']).toMatch(/\/status\/[0-9a-f-]{36}\/bbs-2023$/);
    // One BBS key per issuer DID: a second credential names the same did:key.
    expect((await issue())['issuer']).toBe(issued['issuer']);
    // A base proof is the holder's: verifiers only accept derivations.
    expect((await familyBVerify(issued)).verified).toBe(false);
    expect((await vcApiVerify(issued)).verified).toBe(false);
  });

  test('the holder derives (service-side, holder key) a credential revealing the name only; Family B verify and the VC-API verify it', async () => {
    const derived = await derive(issued, ['/credentialSubject/name']);
    const bytes = JSON.stringify(derived);
    expect(bytes).not.toContain(SECRET_BIRTH);
    expect(bytes).not.toContain(String(SECRET_NUMBER));
    expect(bytes).not.toContain('birthDate');
    expect(derived['credentialSubject']).toEqual({ name: SECRET_NAME });
    expect(derived['issuer']).toBe(issued['issuer']);
    expect(String(derived['proof']['proofValue'])).toMatch(/^u2V0D/);
    const fb = await familyBVerify(derived);
    expect(fb).toEqual({ verified: true, checks: [{ check: 'format', ok: true }, { check: 'signature', ok: true }, { check: 'status', ok: true }, { check: 'expiry', ok: true }] });
    const vc = await vcApiVerify(derived);
    expect(vc).toEqual({ verified: true, checks: ['proof', 'issuer', 'validity', 'credentialStatus'], warnings: [], errors: [] });
  });

  test('the holder derives locally with the SDK and the service verifies; the service derives and the SDK verifies locally', async () => {
    const local = await localSdk<Json>({ op: 'derive', credential: issued, pointers: ['/credentialSubject/employeeNo'] });
    expect(local['credentialSubject']).toEqual({ employeeNo: SECRET_NUMBER });
    expect((await familyBVerify(local)).verified).toBe(true);
    expect((await vcApiVerify(local)).verified).toBe(true);
    const byService = await derive(issued, ['/credentialSubject/birthDate']);
    expect(await localSdk({ op: 'verify', credential: byService })).toEqual({ verified: true, issuer: issued['issuer'] });
  });

  test('GET /credentials/{id} gives the holder a fresh base proof of the same credential', async () => {
    const again = unwrap(await t.get(keys.issuer, issued['id'])) as Json;
    expect({ ...again, proof: undefined }).toEqual({ ...issued, proof: undefined });
    expect(String(again['proof']['proofValue'])).toMatch(/^u2V0C/);
    expect((await familyBVerify(await derive(again, ['/credentialSubject/name']))).verified).toBe(true);
  });

  test('two derivations of one credential share no signature, digest or nonce bytes', async () => {
    const a = await derive(issued, ['/credentialSubject/name']);
    const b = await derive(issued, ['/credentialSubject/name']);
    expect(a['credentialSubject']).toEqual(b['credentialSubject']);
    const [proofA, headerA] = derivedParts(a);
    const [proofB, headerB] = derivedParts(b);
    // The BBS proof (its commitments and responses are fresh random scalars each time) and the
    // presentation header (a fresh nonce) share no run of bytes; what the two derivations have in
    // common is the disclosure itself (which statements, by index, and their values).
    expect(shareRun(proofA, proofB, 8)).toBe(false);
    expect(shareRun(headerA, headerB, 8)).toBe(false);
    expect(shareRun(proofA, proofBytes(b), 8)).toBe(false);
    expect(shareRun(headerA, proofBytes(b), 8)).toBe(false);
    expect((await familyBVerify(a)).verified).toBe(true);
    expect((await familyBVerify(b)).verified).toBe(true);
  });

  test('tampering fails: a changed claim, a hidden claim added, a flipped proof byte, a changed validity', async () => {
    const derived = await derive(issued, ['/credentialSubject/name']);
    const refused = async (vc: Json, check: string): Promise<void> => {
      const fb = await familyBVerify(vc);
      expect(fb.verified).toBe(false);
      expect(fb.checks.find((c: Json) => c.check === check)).toMatchObject({ ok: false });
      expect((await vcApiVerify(vc)).verified).toBe(false);
    };
    await refused({ ...derived, credentialSubject: { name: 'Someone Else' } }, 'signature');
    await refused({ ...derived, credentialSubject: { name: SECRET_NAME, birthDate: '1970-01-01' } }, 'signature');
    const flipped = proofBytes(derived);
    flipped[flipped.length - 50] = (flipped[flipped.length - 50] ?? 0) ^ 0x01;
    await refused({ ...derived, proof: { ...derived['proof'], proofValue: `u${Buffer.from(flipped).toString('base64url')}` } }, 'signature');
    await refused({ ...derived, validUntil: '2999-01-01T00:00:00Z' }, 'signature');
  });

  test('a derivation whose status entry names no list of this service is refused by Family B verify', async () => {
    // Without the list there is no issuer DID to bind the did:key to (and the status is mandatory, so the proof breaks too).
    const derived = await derive(issued, ['/credentialSubject/name']);
    const otherList = { ...derived['credentialStatus'], statusListCredential: String(derived['credentialStatus']['statusListCredential']).replace(/[0-9a-f-]{36}(?=\/bbs-2023$)/, '00000000-0000-4000-8000-000000000000') };
    const fb = await familyBVerify({ ...derived, credentialStatus: otherList });
    expect(fb.verified).toBe(false);
    expect(fb.checks.find((c: Json) => c.check === 'format')).toMatchObject({ ok: false });
  });

  test('the status list is published as a bbs-2023 credential of the same did:key, and revocation reaches every derivation at Family B and at the VC-API', async () => {
    const vc = await issue();
    const url = new URL(vc['credentialStatus']['statusListCredential']);
    const listBefore = (await request(server.baseUrl, 'GET', url.pathname)).json as Json;
    expect(listBefore).toMatchObject({ type: ['VerifiableCredential', 'BitstringStatusListCredential'], issuer: vc['issuer'], id: url.toString() });
    expect(String(listBefore['proof']['proofValue'])).toMatch(/^u2V0D/);
    expect((await vcApiVerify(listBefore)).verified).toBe(true);
    const before = await derive(vc, ['/credentialSubject/name']);
    expect((await familyBVerify(before)).verified).toBe(true);
    expect((await vcApiVerify(before)).verified).toBe(true);
    unwrap(await t.revoke(keys.issuer, vc['id']));
    const after = await familyBVerify(before);
    expect(after.verified).toBe(false);
    expect(after.checks.find((c: Json) => c.check === 'status')).toMatchObject({ ok: false, detail: 'credential has been revoked' });
    const atVcApi = await vcApiVerify(before);
    expect(atVcApi.verified).toBe(false);
    expect(atVcApi.errors.map((e: Json) => String(e['type']).replace(/^.*[#:]/, ''))).toEqual(['REVOKED']);
    const listAfter = (await request(server.baseUrl, 'GET', url.pathname)).json as Json;
    expect(listAfter['credentialSubject']['encodedList']).not.toBe(listBefore['credentialSubject']['encodedList']);
    // An unknown list is 404.
    expect((await request(server.baseUrl, 'GET', '/status/00000000-0000-4000-8000-000000000000/bbs-2023')).status).toBe(404);
  });

  test('a bbs-2023 credential is not put into a Family B VP (by id or as a document): 400, derive instead', async () => {
    for (const body of [{ credentialIds: [issued['id']] }, { credentials: [issued] }]) {
      const r = await t.createVp(keys.holder, { ...body, holderDID: issuerDid, sharedAttributes: { [issued['id']]: ['name'] } });
      // By id: refused as bbs-2023 before anything else; as a document: its base proof is refused by the check every given credential passes.
      expect(r).toMatchObject({ ok: false, status: 400, message: expect.stringMatching(/derive a presentation from it|bbs-2023 base proof is not verifiable/) });
    }
  });

  test('an unknown proof suite is 400 and stores nothing; naming the default suite is the same as leaving it out', async () => {
    const before = await server.app.db.prisma.vcTemplate.count();
    const body = { templateName: `Other ${randomBytes(3).toString('hex')}`, description: 'x', issuer: issuerDid, attributes: FB_ATTRIBUTES, expiration: { value: 1, unit: 'years' } };
    for (const proofSuite of ['bbs-2024', 'BBS-2023', '', 'Ed25519Signature2020']) {
      const r = await t.createTemplate(keys.issuer, { ...body, proofSuite });
      expect(r).toMatchObject({ ok: false, status: 400 });
    }
    expect(await server.app.db.prisma.vcTemplate.count()).toBe(before);
    // Naming Family B's default suite is the same as leaving it out.
    const plain = unwrap(await t.createTemplate(keys.issuer, { ...body, proofSuite: 'EcdsaSecp256k1Signature2019' })) as Json;
    expect(plain['proofSuite']).toBeUndefined();
  });
});
