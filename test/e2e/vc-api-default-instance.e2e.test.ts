import { randomUUID } from 'node:crypto';
import { useTestServer } from '../support/harness';
import { graphqlVcApi, restVcApi, type VcApiTransport } from '../support/vc-api-transports';

/*
 * Issue 20, item 5: the tenant's default VC-API issuer instance is created on first use, but a
 * first use that is refused for reasons that do not depend on the new instance's DID (a credential
 * id the tenant already issued: 409; options the default suite does not take: 400) leaves no
 * default instance (nor its key) behind. Through REST and GraphQL (the SDK), same assertions.
 */

const server = useTestServer();
type Json = Record<string, any>;

const V2 = 'https://www.w3.org/ns/credentials/v2';
const REVOCABLE = { credentialStatus: { type: 'BitstringStatusListEntry', statusPurpose: 'revocation' } };
const credential = (id: string, issuer: string): Json => ({
  '@context': [V2],
  id,
  type: ['VerifiableCredential'],
  issuer,
  credentialSubject: { id: 'did:example:123' },
});

/** The tenant's instances and custody keys, read from the database (GET /issuers would create the default). */
async function stored(tenantName: string): Promise<{ instances: { isDefault: boolean }[]; keys: number }> {
  const prisma = server.app.db.prisma;
  const tenant = await prisma.tenant.findFirstOrThrow({ where: { slug: tenantName } });
  const rows = await prisma.vcIssuer.findMany({ where: { tenantId: tenant.id } });
  const keys = await prisma.managedKey.count({ where: { tenantId: tenant.id } });
  return { instances: rows.map((r) => ({ isDefault: r.defaultTenantId !== null })), keys };
}

describe.each([['REST'], ['GraphQL']])('the default VC-API instance through %s', (name) => {
  let t: VcApiTransport;
  let tenant: string;
  let key: string;
  let named: { id: string; issuer: string };

  // Each test starts from a tenant of its own with one non-default instance (creating it does not create the default).
  beforeEach(async () => {
    t = name === 'REST' ? restVcApi(server) : graphqlVcApi(server);
    tenant = `vcdefault-${name.toLowerCase()}-${randomUUID().slice(0, 8)}`;
    key = await server.apiKey(tenant, ['issuer']);
    const created = await t.createIssuer(key, { cryptosuite: 'eddsa-rdfc-2022', keyType: 'Ed25519' });
    if (!created.ok) throw new Error(`createIssuer: ${created.status}`);
    named = created.data;
  });

  test('a 409 (the id was already issued by the tenant) on the default endpoint creates no default instance', async () => {
    const id = `urn:uuid:${randomUUID()}`;
    const first = await t.issue(key, { credential: credential(id, named.issuer), options: REVOCABLE }, named.id);
    expect(first.ok).toBe(true);
    const before = await stored(tenant);
    expect(before.instances).toEqual([{ isDefault: false }]);

    const again = await t.issue(key, { credential: credential(id, named.issuer), options: REVOCABLE });
    expect(again).toMatchObject({ ok: false, status: 409, code: 'CONFLICT' });
    expect(await stored(tenant)).toEqual(before);
  });

  test('a 400 for an option the default suite does not take creates no default instance', async () => {
    const before = await stored(tenant);
    expect(before.instances).toEqual([{ isDefault: false }]);
    const refused = await t.issue(key, { credential: credential(`urn:uuid:${randomUUID()}`, named.issuer), options: { mandatoryPointers: ['/issuer'] } });
    expect(refused).toMatchObject({ ok: false, status: 400 });
    expect(await stored(tenant)).toEqual(before);
  });

  test('a well-formed first use still creates the default, which then issues', async () => {
    const listed = await t.listIssuers(key);
    if (!listed.ok) throw new Error(`listIssuers: ${listed.status}`);
    const def = listed.data.find((i) => i.default);
    expect(def).toBeDefined();
    const issued = await t.issue(key, { credential: credential(`urn:uuid:${randomUUID()}`, def!.issuer), options: REVOCABLE });
    expect(issued.ok).toBe(true);
    expect((await stored(tenant)).instances.filter((i) => i.isDefault)).toHaveLength(1);
  });
});
