import { randomBytes } from 'node:crypto';
import { useTestServer } from '../support/harness';
import { FAMILY_A_TRANSPORTS, type Holder, type Party, consent, newHolder, newParty, schemaBody, subject, unwrap } from '../support/family-a-fixtures';

jest.setTimeout(60_000);

const server = useTestServer();

type Doc = Record<string, any>;
const clone = (d: Doc): Doc => JSON.parse(JSON.stringify(d)) as Doc;

/**
 * `dependantSchemas` (schema creation) and `dependantVerifiableCredential` (issuance) were accepted
 * and ignored. Now: every named schema must exist in the tenant, and a schema's dependants must be
 * proven at issuance by live credentials of the same holder, exactly as issued.
 */
describe.each(FAMILY_A_TRANSPORTS)('dependants through %s', (name) => {
  let p: Party;
  let h: Holder;
  let issuerDid: string;
  let base: string;
  let dependent: string;
  let baseVc: Doc;
  const schemaRows = (n: string) => server.app.db.prisma.credentialSchema.count({ where: { name: n } });

  beforeAll(async () => {
    p = await newParty(server, name);
    h = await newHolder(p);
    issuerDid = unwrap(await p.fa.issuerDid(p.issuerKey));
    base = `Base${randomBytes(3).toString('hex')}`;
    dependent = `Dep${randomBytes(3).toString('hex')}`;
    unwrap(await p.fa.createSchema(p.issuerKey, schemaBody(base)));
  });

  test('createSchema: unknown dependant schemas (name or version) are a 400 and create nothing', async () => {
    for (const deps of [[`Nope${randomBytes(3).toString('hex')}`], [`${base}:9`], [base, `Nope${randomBytes(3).toString('hex')}`]]) {
      expect(await p.fa.createSchema(p.issuerKey, { ...schemaBody(dependent), dependantSchemas: deps })).toMatchObject({ ok: false, status: 400 });
    }
    expect(await schemaRows(dependent)).toBe(0);
    // Another tenant's schema of that name does not count.
    const q = await newParty(server, name);
    expect(await q.fa.createSchema(q.issuerKey, { ...schemaBody(`Other${randomBytes(3).toString('hex')}`), dependantSchemas: [base] })).toMatchObject({ ok: false, status: 400 });
    unwrap(await p.fa.createSchema(p.issuerKey, { ...schemaBody(dependent), dependantSchemas: [base] }));
    expect(await schemaRows(dependent)).toBe(1);
  });

  test('issuance under a schema with dependants needs a live credential of each, same holder, unaltered', async () => {
    const headers = await consent(p, h, issuerDid, subject());
    baseVc = unwrap(await p.fa.issue(p.issuerKey, headers, { schemaName: `${base}:1`, credentialSubject: subject() })).verifiableCredential;
    const issuedUnder = (schema: string) => server.app.db.prisma.issuedCredential.count({ where: { holderDid: h.did, id: { startsWith: `${schema}:` } } });
    const body = (deps?: Doc[]) => ({ schemaName: `${dependent}:1`, credentialSubject: subject(), ...(deps ? { dependantVerifiableCredential: deps } : {}) });

    const stranger = await newHolder(p);
    const strangerVc = unwrap(
      await p.fa.issue(p.issuerKey, await consent(p, stranger, issuerDid, subject()), { schemaName: `${base}:1`, credentialSubject: subject() }),
    ).verifiableCredential;
    const altered = clone(baseVc);
    altered['credentialSubject'][0].name = 'Mallory';
    const bad: [string, Doc[] | undefined][] = [
      ['missing', undefined],
      ['empty', []],
      ['not a credential', [{ hello: 'world' } as Doc]],
      ['unknown id', [{ ...clone(baseVc), id: `${base}:1:00000000-0000-4000-8000-000000000000` }]],
      ['altered', [altered]],
      ["another holder's", [strangerVc]],
      ['the same twice', [baseVc, baseVc]],
    ];
    for (const [label, deps] of bad) {
      const r = await p.fa.issue(p.issuerKey, headers, body(deps));
      expect({ label, ok: r.ok, status: r.ok ? 201 : r.status }).toEqual({ label, ok: false, status: 400 });
    }
    expect(await issuedUnder(dependent)).toBe(0);

    const ok = unwrap(await p.fa.issue(p.issuerKey, headers, body([baseVc])));
    expect(ok.verifiableCredential['id']).toMatch(new RegExp(`^${dependent}:1:`));
    expect(await issuedUnder(dependent)).toBe(1);

    // A dependant credential on a schema that declares none is refused, not ignored.
    expect(await p.fa.issue(p.issuerKey, headers, { schemaName: `${base}:1`, credentialSubject: subject(), dependantVerifiableCredential: [baseVc] })).toMatchObject({ ok: false, status: 400 });

    // Once revoked, the base credential no longer supports a dependant issuance.
    const revokeProof = unwrap(await p.fa.holderProof(p.holderKey, h.privateKey, { credentialId: String(baseVc['id']), purpose: 'revoke' }));
    unwrap(await p.fa.revoke(p.issuerKey, { publicKey: h.publicKey, userSignature: revokeProof }, baseVc));
    expect(await p.fa.issue(p.issuerKey, headers, body([baseVc]))).toMatchObject({ ok: false, status: 400 });
    expect(await issuedUnder(dependent)).toBe(1);
  });
});
