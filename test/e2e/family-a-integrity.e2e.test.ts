import { randomBytes } from 'node:crypto';
import { useTestServer } from '../support/harness';
import { FAMILY_A_TRANSPORTS, type Holder, type Party, consent, newHolder, newParty, schemaBody, subject, unwrap } from '../support/family-a-fixtures';

const server = useTestServer();

type Doc = Record<string, any>;
const clone = (d: Doc): Doc => JSON.parse(JSON.stringify(d)) as Doc;

/** One edit per field family of 2.4: each must make verification fail. */
const TAMPERS: [string, (vc: Doc, other: { issuer: string; did: string }) => void][] = [
  ['subject value (name)', (vc) => (vc.credentialSubject[0].name = 'Alicf')],
  ['subject value (age)', (vc) => (vc.credentialSubject[0].age = '31')],
  ['subject id', (vc, o) => (vc.credentialSubject[0].id = o.did)],
  ['subject attribute added', (vc) => (vc.credentialSubject[0].role = 'admin')],
  ['subject attribute removed', (vc) => delete vc.credentialSubject[0].employeeId],
  ['issuanceDate', (vc) => (vc.issuanceDate = new Date(Date.parse(vc.issuanceDate) - 1000).toISOString().replace('.000', ''))],
  ['expirationDate', (vc) => (vc.expirationDate = '2099-01-01T00:00:00Z')],
  ['issuer', (vc, o) => (vc.issuer = o.issuer)],
  ['type added', (vc) => vc.type.push('AdminCredential')],
  ['type removed', (vc) => (vc.type = ['VerifiableCredential'])],
  ['id', (vc) => (vc.id = vc.id.replace(/.$/, (c: string) => (c === '0' ? '1' : '0')))],
  ['version', (vc) => (vc.version = vc.version.replace(/:1$/, ':2'))],
  ['credentialSchema.id', (vc) => (vc.credentialSchema.id += 'x')],
  ['biometrics.face', (vc) => (vc.biometrics.face = 'AAAA')],
  ['credentialStatus', (vc) => (vc.credentialStatus = 'https://example.com/status/1')],
  ['@context', (vc) => vc['@context'].pop()],
  ['top-level field added', (vc) => (vc.evidence = 'none')],
  ['proof.created', (vc) => (vc.proof.created = '2020-01-01T00:00:00Z')],
  ['proof.creator', (vc, o) => (vc.proof.creator = o.issuer)],
  ['proof.vcVerificationMethod', (vc) => (vc.proof.vcVerificationMethod = vc.proof.vcVerificationMethod.replace('did-root-key', 'keys-1'))],
  ['proof.jws', (vc) => (vc.proof.jws = vc.proof.jws.replace(/.$/, (c: string) => (c === 'A' ? 'B' : 'A')))],
  ['proof.type', (vc) => (vc.proof.type = 'Ed25519Signature2020')],
  ['proof removed', (vc) => delete vc.proof],
];

describe.each(FAMILY_A_TRANSPORTS)('Family A integrity through %s', (name) => {
  let p: Party;
  let user: Holder;
  let issuerDid: string;
  let schemaName: string;
  let issued: { vc: Doc; userSignature: string };
  let other: { issuer: string; did: string };

  beforeAll(async () => {
    p = await newParty(server, name);
    user = await newHolder(p);
    issuerDid = unwrap(await p.fa.issuerDid(p.issuerKey));
    schemaName = `Badge${randomBytes(3).toString('hex')}`;
    unwrap(await p.fa.createSchema(p.issuerKey, schemaBody(schemaName)));
    const headers = await consent(p, user, issuerDid, subject());
    const r = unwrap(await p.fa.issue(p.issuerKey, headers, { schemaName: `${schemaName}:1`, credentialSubject: subject() }));
    issued = { vc: r.verifiableCredential, userSignature: r.userSignature };
    const q = await newParty(server, name);
    other = { issuer: unwrap(await q.fa.issuerDid(q.issuerKey)), did: (await newHolder(q)).did };
  });

  const verify = async (vc: Doc) => unwrap(await p.fa.verify(p.verifierKey, { publicKey: user.publicKey, userSignature: issued.userSignature }, { credentials: vc }));

  test('the untouched credential verifies', async () => {
    expect((await verify(issued.vc)).success).toBe(true);
  });

  test.each(TAMPERS)('changing %s makes verify report it invalid (200, success false)', async (_field, edit) => {
    const vc = clone(issued.vc);
    edit(vc, other);
    const r = await verify(vc);
    expect(r.success).toBe(false);
    expect(`${r.data.isVCValid}|${r.data.isIssuerDIDValid}`).toMatch(/Failed/);
    expect(r.data.reasons.length).toBeGreaterThan(0);
  });

  describe('bad input gets 400 with a code and changes nothing', () => {
    const counts = async () => ({
      schemas: await server.app.db.prisma.credentialSchema.count(),
      credentials: await server.app.db.prisma.issuedCredential.count(),
      dids: await server.app.db.prisma.did.count(),
    });

    test('schemas: unknown attribute type names the allowed values; bad names and shapes', async () => {
      const before = await counts();
      const bad = schemaBody(`S${randomBytes(3).toString('hex')}`);
      (bad.attributes.attributes[0] as Record<string, unknown>)['type'] = 'uuid';
      const r = await p.fa.createSchema(p.issuerKey, bad);
      expect(r).toMatchObject({ ok: false, status: 400, code: 'INVALID_INPUT' });
      const rest = await fetch(`${server.baseUrl}/issuer/createSchema`, { method: 'POST', headers: { 'x-api-key': p.issuerKey, 'content-type': 'application/json' }, body: JSON.stringify(bad) });
      expect(JSON.stringify(await rest.json())).toMatch(/alphanumeric.*alphabet.*email.*number.*date/);
      for (const schemaName of ['has space', 'under_score', '1leading', 'a:b', 'x'.repeat(200)]) {
        expect(await p.fa.createSchema(p.issuerKey, { ...schemaBody(schemaName), schemaName })).toMatchObject({ ok: false, status: 400 });
      }
      const noExpiry = { ...schemaBody('NoExp'), expiration: { value: -1, unit: 'eons' } };
      expect(await p.fa.createSchema(p.issuerKey, noExpiry)).toMatchObject({ ok: false, status: 400 });
      expect(await counts()).toEqual(before);
    });

    test('issuance: headers, keys, schema name, types and lengths', async () => {
      const before = await counts();
      const good = await consent(p, user, issuerDid, subject());
      const body = { schemaName: `${schemaName}:1`, credentialSubject: subject() };
      const cases: [string, Parameters<typeof p.fa.issue>[1], Record<string, any>, number, string][] = [
        ['malformed publicKey', { ...good, publicKey: 'not-base64!' }, body, 400, 'INVALID_PUBLIC_KEY'],
        ['publicKey of someone else', { ...good, publicKey: Buffer.alloc(32, 9).toString('base64') }, body, 400, 'PUBLIC_KEY_MISMATCH'],
        ['userSignature not hex', { ...good, userSignature: 'zz' }, body, 400, 'INVALID_INPUT'],
        ['unknown user DID', { ...good, did: 'did:credgate:local:1111111111111111111111' }, body, 400, 'INVALID_DID'],
        ['wrong schema name', good, { ...body, schemaName: 'NoSuchSchema:1' }, 400, 'UNKNOWN_SCHEMA'],
        ['wrong types', good, { ...body, credentialSubject: { ...subject(), age: 'thirty', birthDate: 'yesterday', email: 'nope' } }, 400, 'SCHEMA_VALIDATION_FAILED'],
        ['over-long value', good, { ...body, credentialSubject: { ...subject(), name: 'A'.repeat(21) } }, 400, 'SCHEMA_VALIDATION_FAILED'],
        ['missing required attribute', good, { ...body, credentialSubject: { name: 'Alice' } }, 400, 'SCHEMA_VALIDATION_FAILED'],
        ['isEncrypted not boolean', good, { ...body, isEncrypted: 'yes' }, 400, 'INVALID_INPUT'],
        ['signature over other data', { ...good, userSignature: 'ab'.repeat(64) }, body, 401, 'INVALID_SIGNATURE'],
      ];
      for (const [label, headers, b, status, code] of cases) {
        expect({ label, out: await p.fa.issue(p.issuerKey, headers, b as never) }).toEqual({ label, out: { ok: false, status, code } });
      }
      expect(await counts()).toEqual(before);
    });

    test('per-attribute details for every schema violation', async () => {
      const good = await consent(p, user, issuerDid, subject());
      const res = await fetch(`${server.baseUrl}/issuer/verifiableCredential`, {
        method: 'POST',
        headers: { 'x-api-key': p.issuerKey, 'content-type': 'application/json', ...good },
        body: JSON.stringify({ schemaName: `${schemaName}:1`, credentialSubject: { ...subject(), age: 'x', email: 'y', name: 'A1' } }),
      });
      const json = (await res.json()) as { code: string; details: { field: string }[] };
      expect(res.status).toBe(400);
      expect(json.code).toBe('SCHEMA_VALIDATION_FAILED');
      expect(json.details.map((d) => d.field).sort()).toEqual(expect.arrayContaining([expect.stringMatching(/age/), expect.stringMatching(/email/), expect.stringMatching(/name/)]));
    });

    test('sign and verify: malformed keys and missing inputs', async () => {
      expect(await p.fa.sign(p.holderKey, 'short', issuerDid, { credentialSubject: { id: user.did } })).toMatchObject({ ok: false, status: 400 });
      expect(await p.fa.sign(p.holderKey, user.privateKey, 'not a did', { credentialSubject: { id: user.did } })).toMatchObject({ ok: false, status: 400 });
      expect(await p.fa.sign(p.holderKey, user.privateKey, issuerDid, { credentialSubject: { name: 'no id' } })).toMatchObject({ ok: false, status: 400 });
      expect(await p.fa.verify(p.verifierKey, { publicKey: 'bad', userSignature: issued.userSignature }, { credentials: issued.vc })).toMatchObject({ ok: false, status: 400 });
      expect(await p.fa.verify(p.verifierKey, { publicKey: user.publicKey, userSignature: issued.userSignature }, {})).toMatchObject({ ok: false, status: 400 });
      expect(await p.fa.verify(p.verifierKey, { publicKey: user.publicKey, userSignature: issued.userSignature }, { credentials: issued.vc }, true)).toMatchObject({ ok: false, status: 400 });
    });
  });

  test('scopes: a verifier cannot issue, a holder cannot create schemas; other tenants see 404', async () => {
    expect(await p.fa.createSchema(p.holderKey, schemaBody('Nope'))).toMatchObject({ ok: false, status: 403 });
    expect(await p.fa.issuerDid(p.verifierKey)).toMatchObject({ ok: false, status: 403 });
    const q = await newParty(server, name);
    expect(await q.fa.schema(q.issuerKey, `${schemaName}:1`)).toMatchObject({ ok: false, status: 404 });
    expect(await q.fa.createZkp(q.issuerKey, { credentials: issued.vc, age: { type: 'number', minimum: '1', maximum: '99' } })).toMatchObject({ ok: false, status: 404 });
    expect(await q.fa.revoke(q.issuerKey, { publicKey: user.publicKey, userSignature: issued.userSignature }, issued.vc)).toMatchObject({ ok: false, status: 404 });
  });

  test('concurrent creates of one schema name never share a version', async () => {
    const n = `Race${randomBytes(3).toString('hex')}`;
    const results = await Promise.all(Array.from({ length: 8 }, () => p.fa.createSchema(p.issuerKey, schemaBody(n))));
    const versions = results.map((r) => unwrap(r).message.versionContol).sort();
    expect(new Set(versions).size).toBe(8);
    expect(versions).toEqual(Array.from({ length: 8 }, (_, i) => `${n}:${i + 1}`).sort());
  });
});
