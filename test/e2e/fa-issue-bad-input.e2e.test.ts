import { randomBytes } from 'node:crypto';
import { useTestServer } from '../support/harness';
import type { HolderHeaders } from '../support/family-a-transports';
import type { Outcome } from '../support/transports';
import { FAMILY_A_TRANSPORTS, consent, newHolder, newParty, schemaBody, subject, unwrap } from '../support/family-a-fixtures';

jest.setTimeout(90_000);

const server = useTestServer();

/** Every table a Family A issuance (or its first-use issuer DID) could write to. */
async function snapshot(): Promise<Record<string, number>> {
  const db = server.app.db.prisma;
  return {
    credentials: await db.issuedCredential.count(),
    live: await db.issuedCredential.count({ where: { status: 'issued' } }),
    schemas: await db.credentialSchema.count(),
    dids: await db.did.count(),
    keys: await db.managedKey.count(),
    leaves: await db.ledgerLeaf.count(),
  };
}

function expectClientError(label: string, o: Outcome<unknown>): void {
  const status = o.ok ? 201 : o.status;
  expect({ label, clientError: status >= 400 && status < 500 }).toEqual({ label, clientError: true });
}

/** "Bad input changes nothing": every refused Family A issuance request leaves every table as it was. */
describe.each(FAMILY_A_TRANSPORTS)('refused issuance writes nothing through %s', (name) => {
  test('before the tenant has an issuer DID, and after, for issue, re-issue and createSchema', async () => {
    const p = await newParty(server, name);
    const h = await newHolder(p);
    const other = await newHolder(p);
    const schemaName = `Bad${randomBytes(3).toString('hex')}`;
    unwrap(await p.fa.createSchema(p.issuerKey, schemaBody(schemaName)));
    const schema = `${schemaName}:1`;
    // Any DID-shaped issuerDID: these requests must fail before the tenant's issuer DID is created.
    const headers = await consent(p, h, 'did:example:not-the-issuer', subject());
    const wrongSig: HolderHeaders = { ...headers, userSignature: (await consent(p, h, 'did:example:not-the-issuer', { ...subject(), age: '31' })).userSignature };
    const bad: [string, HolderHeaders, Record<string, unknown>][] = [
      ['signature over another subject', wrongSig, { schemaName: schema, credentialSubject: subject() }],
      ['signature not hex', { ...headers, userSignature: 'zz' }, { schemaName: schema, credentialSubject: subject() }],
      ["another holder's key", { ...headers, publicKey: other.publicKey }, { schemaName: schema, credentialSubject: subject() }],
      ['unknown schema', headers, { schemaName: `Nope${schemaName}:1`, credentialSubject: subject() }],
      ['subject off the schema', headers, { schemaName: schema, credentialSubject: { ...subject(), age: 'old' } }],
      ['subject id of another DID', headers, { schemaName: schema, credentialSubject: { ...subject(), id: other.did } }],
      ['malformed face template', headers, { schemaName: schema, credentialSubject: subject(), faceTemplate: 'AAAA' }],
      ['dependant credential on a schema without dependants', headers, { schemaName: schema, credentialSubject: subject(), dependantVerifiableCredential: [{ id: 'x' }] }],
    ];
    const before = await snapshot();
    for (const [label, hh, body] of bad) expectClientError(label, await p.fa.issue(p.issuerKey, hh, body as never));
    expect(await snapshot()).toEqual(before);

    // With an issuer DID and one live credential: refused re-issues and schemas change nothing either.
    const issuerDid = unwrap(await p.fa.issuerDid(p.issuerKey));
    const good = await consent(p, h, issuerDid, subject());
    const vc = unwrap(await p.fa.issue(p.issuerKey, good, { schemaName: schema, credentialSubject: subject() })).verifiableCredential;
    const otherVc = unwrap(await p.fa.issue(p.issuerKey, await consent(p, other, issuerDid, subject()), { schemaName: schema, credentialSubject: subject() })).verifiableCredential;
    const after = await snapshot();
    const huge = { ...subject(), employeeId: randomBytes(3000).toString('hex') };
    expectClientError('QR too large', await p.fa.issue(p.issuerKey, await consent(p, h, issuerDid, huge), { schemaName: schema, credentialSubject: huge }, { downloadCryptograph: true }));
    expectClientError('re-issue of an unknown credential', await p.fa.reissue(p.issuerKey, good, { schemaName: schema, credentialSubject: subject() }, { ...vc, id: `${schema}:00000000-0000-4000-8000-000000000000` }));
    expectClientError("re-issue of another holder's credential", await p.fa.reissue(p.issuerKey, good, { schemaName: schema, credentialSubject: subject() }, otherVc));
    expectClientError('re-issue with a subject off the schema', await p.fa.reissue(p.issuerKey, good, { schemaName: schema, credentialSubject: { ...subject(), age: 'old' } }, vc));
    expectClientError('re-issue with a malformed face', await p.fa.reissue(p.issuerKey, good, { schemaName: schema, credentialSubject: subject(), faceTemplate: 'AAAA' } as never, vc));
    expectClientError('schema with an unknown dependant', await p.fa.createSchema(p.issuerKey, { ...schemaBody(`${schemaName}x`), dependantSchemas: [`Nope${schemaName}`] }));
    expectClientError('schema with no attributes', await p.fa.createSchema(p.issuerKey, { ...schemaBody(`${schemaName}x`), attributes: { attributes: [] } }));
    expect(await snapshot()).toEqual(after);
  });
});
