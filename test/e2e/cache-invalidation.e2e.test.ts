import { randomBytes } from 'node:crypto';
import { FB_ATTRIBUTES, FB_VALUES, fbParty, type FbParty, fbTransports } from '../support/family-b-fixtures';
import { consent, newHolder, newParty, schemaBody, subject, unwrap } from '../support/family-a-fixtures';
import { graphqlFamilyA, restFamilyA } from '../support/family-a-transports';
import { type TestServer, startTestServer, useTestServer } from '../support/harness';
import { TEST_DB_KIND } from '../support/test-db';

type Json = Record<string, any>;

/**
 * The record caches (src/cache) never make a change invisible: revocation is read fresh on every
 * verification, and a template's new version or deletion is seen by the next issuance — on the
 * instance that made the change and, after the change's notice arrived (the bus barrier), on
 * every other instance of the same database.
 */
const server = useTestServer();

const statusOf = (v: { checks: { check: string; ok: boolean; detail?: string | null }[] }) => v.checks.find((c) => c.check === 'status');
const templateBody = (p: FbParty, name: string) => ({ templateName: name, description: 'Badge', issuer: p.issuer.did, attributes: FB_ATTRIBUTES, expiration: { value: 2, unit: 'years' } });

describe.each(['REST', 'GraphQL'])('cached records stay true through %s', (name) => {
  let p: FbParty;
  beforeAll(async () => {
    p = await fbParty(server, name);
  });

  test('revoke: the next verification (caches warm) says revoked', async () => {
    const credential = await p.issue();
    for (let i = 0; i < 2; i++) expect(unwrap(await p.t.verify(p.keys.verifier, credential)).verified).toBe(true);
    unwrap(await p.t.revoke(p.keys.issuer, credential['id']));
    const v = unwrap(await p.t.verify(p.keys.verifier, credential));
    expect(v.verified).toBe(false);
    expect(statusOf(v)).toMatchObject({ ok: false, detail: 'credential has been revoked' });
  });

  test('a template update is issued from at once, a deleted template no longer', async () => {
    const templateId = p.template['templateId'] as string;
    expect((await p.issue())['type']).toEqual(['VerifiableCredential', p.template['name']]);
    const renamed = `Renamed ${randomBytes(3).toString('hex')}`;
    expect(unwrap(await p.t.updateTemplate(p.keys.issuer, templateId, templateBody(p, renamed)))).toMatchObject({ name: renamed, __v: 1 });
    expect((await p.issue())['type']).toEqual(['VerifiableCredential', renamed]);
    unwrap(await p.t.deleteTemplate(p.keys.issuer, templateId));
    expect(await p.t.issue(p.keys.issuer, { templateId, credentialSubject: { name: 'x', birthDate: '1990-01-01', employeeNo: 1 } })).toMatchObject({ ok: false, status: 400, code: 'INVALID_INPUT' });
  });
});

// Two instances need one shared database: PGlite's data folder belongs to one process.
if (TEST_DB_KIND === 'postgres') {
  describe.each(['REST', 'GraphQL'])('a second instance on the same database, through %s', (name) => {
    let other: TestServer;
    let p: FbParty;
    let q: FbParty;
    beforeAll(async () => {
      other = await startTestServer({ db: server.db, masterKey: server.config.masterKey! });
      p = await fbParty(server, name);
      // The same tenant's keys and records, reached through the other instance.
      const { t, slice } = fbTransports(other, name);
      q = { ...p, t, slice, issue: async (values: Json = FB_VALUES) => unwrap(await t.issue(p.keys.issuer, { templateId: p.template['templateId'], credentialSubject: values, holder: p.holder.did })) };
    });
    afterAll(async () => {
      await other?.close();
    });

    test("sees the first instance's revocation at once (status is never cached)", async () => {
      const credential = await p.issue();
      for (let i = 0; i < 2; i++) expect(unwrap(await q.t.verify(p.keys.verifier, credential)).verified).toBe(true);
      unwrap(await p.t.revoke(p.keys.issuer, credential['id']));
      const v = unwrap(await q.t.verify(p.keys.verifier, credential));
      expect(statusOf(v)).toMatchObject({ ok: false, detail: 'credential has been revoked' });
    });

    test("sees the first instance's template update and deletion once their notice arrived", async () => {
      const templateId = p.template['templateId'] as string;
      expect((await q.issue())['type']).toEqual(['VerifiableCredential', p.template['name']]);
      const renamed = `Renamed ${randomBytes(3).toString('hex')}`;
      unwrap(await p.t.updateTemplate(p.keys.issuer, templateId, templateBody(p, renamed)));
      await other.app.cacheBus.barrier();
      expect((await q.issue())['type']).toEqual(['VerifiableCredential', renamed]);
      unwrap(await p.t.deleteTemplate(p.keys.issuer, templateId));
      await other.app.cacheBus.barrier();
      expect(await q.t.issue(p.keys.issuer, { templateId, credentialSubject: { name: 'x', birthDate: '1990-01-01', employeeNo: 1 } })).toMatchObject({ ok: false, status: 400, code: 'INVALID_INPUT' });
    });

    test("sees the first instance's deletion of a Family A issuer DID once its notice arrived", async () => {
      const a = await newParty(server, name);
      const user = await newHolder(a);
      const issuerDid = unwrap(await a.fa.issuerDid(a.issuerKey));
      const schemaName = `Cache${name}${randomBytes(2).toString('hex')}`;
      unwrap(await a.fa.createSchema(a.issuerKey, schemaBody(schemaName)));
      const values = subject();
      const issued = unwrap(await a.fa.issue(a.issuerKey, await consent(a, user, issuerDid, values), { schemaName: `${schemaName}:1`, isEncrypted: false, dependantVerifiableCredential: [], credentialSubject: values }));
      const fa = name === 'REST' ? restFamilyA(other, '') : graphqlFamilyA(other);
      const verifyOnOther = async () => unwrap(await fa.verify(a.verifierKey, { publicKey: user.publicKey, userSignature: issued.userSignature }, { credentials: issued.verifiableCredential }));
      for (let i = 0; i < 2; i++) expect((await verifyOnOther()).data.isIssuerDIDValid).toBe('Success');
      expect(unwrap(await a.fa.deleteIssuerDid(a.issuerKey, issuerDid))).toBe(true);
      await other.app.cacheBus.barrier();
      expect((await verifyOnOther()).data.isIssuerDIDValid).toMatch(/deleted/);
    });
  });
}
