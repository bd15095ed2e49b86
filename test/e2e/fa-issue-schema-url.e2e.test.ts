import { randomBytes } from 'node:crypto';
import { useTestServer } from '../support/harness';
import { request } from '../support/http';
import { FAMILY_A_TRANSPORTS, consent, newHolder, newParty, schemaBody, subject, unwrap } from '../support/family-a-fixtures';

jest.setTimeout(60_000);

const server = useTestServer();

/** Reference 2.4: `credentialSchema.id` is a URL ending in `/schema/<schema_name>` (no version). */
describe.each(FAMILY_A_TRANSPORTS)('credentialSchema.id through %s', (name) => {
  test('ends in /schema/<schema_name>; the versioned form resolves to the version the credential names', async () => {
    const p = await newParty(server, name);
    const h = await newHolder(p);
    const issuerDid = unwrap(await p.fa.issuerDid(p.issuerKey));
    const schemaName = `Url${randomBytes(3).toString('hex')}`;
    unwrap(await p.fa.createSchema(p.issuerKey, { ...schemaBody(schemaName), description: 'v1' }));
    unwrap(await p.fa.createSchema(p.issuerKey, { ...schemaBody(schemaName), description: 'v2' }));
    const headers = await consent(p, h, issuerDid, subject());
    const vc = unwrap(await p.fa.issue(p.issuerKey, headers, { schemaName: `${schemaName}:1`, credentialSubject: subject() })).verifiableCredential;

    expect(vc['credentialSchema']).toEqual({ id: expect.any(String), type: 'JsonSchemaValidator2018' });
    const url = new URL(vc['credentialSchema'].id as string);
    expect(url.search).toBe('');
    expect(url.pathname.endsWith(`/schema/${schemaName}`)).toBe(true);
    expect(vc['version']).toBe(`${schemaName}:1`);

    // The URL itself resolves (latest version); the credential's signed `version` picks the exact one.
    const latest = await request(server.baseUrl, 'GET', url.pathname);
    expect(latest).toMatchObject({ status: 200, json: { title: schemaName, description: 'v2' } });
    const pinned = await request(server.baseUrl, 'GET', `${url.pathname}?version=1`);
    expect(pinned).toMatchObject({ status: 200, json: { title: schemaName, description: 'v1' } });
    expect((await request(server.baseUrl, 'GET', `${url.pathname}:1`)).json).toEqual(pinned.json);
    expect((await request(server.baseUrl, 'GET', `${url.pathname}?version=3`)).status).toBe(404);
    expect((await request(server.baseUrl, 'GET', `${url.pathname}?version=x`)).status).toBe(400);
    expect((await request(server.baseUrl, 'GET', `${url.pathname}:1?version=2`)).status).toBe(400);
  });
});

/**
 * Attack on the bare `/schema/{name}` form: tenant A publishes 60 versions of a name, tenant B one.
 * The bare form must answer "ambiguous" (409), never silently hand out A's (or B's) document.
 */
describe('bare /schema/{name} across tenants', () => {
  test('two tenants publish one name, one of them with more than 50 versions: 409 for every form', async () => {
    const a = await newParty(server, 'REST');
    const b = await newParty(server, 'REST');
    const schemaName = `Many${randomBytes(3).toString('hex')}`;
    unwrap(await b.fa.createSchema(b.issuerKey, { ...schemaBody(schemaName), description: 'tenant B' }));
    for (let i = 1; i <= 60; i++) unwrap(await a.fa.createSchema(a.issuerKey, { ...schemaBody(schemaName), description: `tenant A v${i}` }));

    for (const path of [`/schema/${schemaName}`, `/schema/${schemaName}:1`, `/schema/${schemaName}?version=1`]) {
      const r = await request(server.baseUrl, 'GET', path);
      expect({ path, status: r.status }).toEqual({ path, status: 409 });
    }
    // Only tenant A has version 60: the bare versioned form is unambiguous.
    expect(await request(server.baseUrl, 'GET', `/schema/${schemaName}:60`)).toMatchObject({ status: 200, json: { description: 'tenant A v60' } });
    // The tenant-qualified forms always answer.
    expect(await request(server.baseUrl, 'GET', `/t/${b.tenant}/schema/${schemaName}`)).toMatchObject({ status: 200, json: { description: 'tenant B' } });
    expect(await request(server.baseUrl, 'GET', `/t/${a.tenant}/schema/${schemaName}`)).toMatchObject({ status: 200, json: { description: 'tenant A v60' } });
  });
});
