import { randomBytes } from 'node:crypto';
import { useTestServer } from '../support/harness';
import { request } from '../support/http';
import type { HolderHeaders } from '../support/family-a-transports';
import { FAMILY_A_TRANSPORTS, consent, newHolder, newParty, schemaBody, subject, unwrap } from '../support/family-a-fixtures';

jest.setTimeout(90_000);

/**
 * `Idempotency-Key` on Family A issuance (POST /issuer/verifiableCredential, bare and under /api,
 * and GraphQL issueCredential): a repeat replays the first credential and issues nothing more; the
 * holder's consent headers are part of the request, so another holder with the same key is 422.
 */

const server = useTestServer();

const issuedCount = async (): Promise<number> => server.app.db.prisma.issuedCredential.count();
const newKey = (): string => `idem-a-${randomBytes(8).toString('hex')}`;

interface Outcome {
  status: number;
  replayed: boolean;
  id: string | undefined;
  text: string;
}

async function issue(transport: string, apiKey: string, idemKey: string, holder: HolderHeaders, input: Record<string, unknown>): Promise<Outcome> {
  if (transport === 'GraphQL') {
    const res = await request(server.baseUrl, 'POST', '/graphql', {
      headers: { 'x-api-key': apiKey, 'Idempotency-Key': idemKey },
      body: {
        query: 'mutation Issue($holder: HolderProofInput!, $input: IssueCredentialInput!) { issueCredential(holder: $holder, input: $input) { verifiableCredential } }',
        variables: { holder, input },
      },
    });
    const error = res.json?.errors?.[0];
    return {
      status: typeof error?.extensions?.status === 'number' ? error.extensions.status : res.status,
      replayed: res.headers.get('idempotent-replayed') === 'true',
      id: res.json?.data?.issueCredential?.verifiableCredential?.id,
      text: res.text,
    };
  }
  const prefix = transport === 'REST /api' ? '/api' : '';
  const res = await request(server.baseUrl, 'POST', `${prefix}/issuer/verifiableCredential`, {
    headers: { 'x-api-key': apiKey, 'Idempotency-Key': idemKey, did: holder.did, publicKey: holder.publicKey, userSignature: holder.userSignature },
    body: input,
  });
  return { status: res.status, replayed: res.headers.get('idempotent-replayed') === 'true', id: res.json?.data?.verifiableCredential?.id, text: res.text };
}

describe.each(FAMILY_A_TRANSPORTS)('%s', (name) => {
  test('a repeat replays the first credential; the same key with another holder is 422; nothing else is issued', async () => {
    const p = await newParty(server, name);
    const h = await newHolder(p);
    const other = await newHolder(p);
    const schemaName = `Idem${randomBytes(3).toString('hex')}`;
    unwrap(await p.fa.createSchema(p.issuerKey, schemaBody(schemaName)));
    const issuerDid = unwrap(await p.fa.issuerDid(p.issuerKey));
    const input = { schemaName: `${schemaName}:1`, credentialSubject: subject() };
    const headers = await consent(p, h, issuerDid, subject());
    const before = await issuedCount();
    const key = newKey();

    const first = await issue(name, p.issuerKey, key, headers, input);
    expect(first.status).toBe(name === 'GraphQL' ? 200 : 201);
    expect(typeof first.id).toBe('string');
    const again = await issue(name, p.issuerKey, key, headers, input);
    expect(again).toMatchObject({ status: first.status, replayed: true, id: first.id, text: first.text });

    const otherHeaders = await consent(p, other, issuerDid, subject());
    expect((await issue(name, p.issuerKey, key, otherHeaders, input)).status).toBe(422);
    expect(await issuedCount()).toBe(before + 1);
  });
});

test('the bare and the /api spelling of the route are one request for the key', async () => {
  const p = await newParty(server, 'REST');
  const h = await newHolder(p);
  const schemaName = `IdemApi${randomBytes(3).toString('hex')}`;
  unwrap(await p.fa.createSchema(p.issuerKey, schemaBody(schemaName)));
  const issuerDid = unwrap(await p.fa.issuerDid(p.issuerKey));
  const input = { schemaName: `${schemaName}:1`, credentialSubject: subject() };
  const headers = await consent(p, h, issuerDid, subject());
  const key = newKey();
  const bare = await issue('REST', p.issuerKey, key, headers, input);
  const api = await issue('REST /api', p.issuerKey, key, headers, input);
  expect(bare.status).toBe(201);
  expect(api).toMatchObject({ status: 201, replayed: true, id: bare.id });
});

describe.each(['REST', 'GraphQL'])('schema creation through %s (POST /issuer/createSchema, createSchema)', (name) => {
  test('a repeat replays the first version instead of creating the next one', async () => {
    const p = await newParty(server, name);
    const body = schemaBody(`IdemSchema${randomBytes(3).toString('hex')}`);
    const key = newKey();
    const call = async () => {
      const res =
        name === 'REST'
          ? await request(server.baseUrl, 'POST', '/issuer/createSchema', { headers: { 'x-api-key': p.issuerKey, 'Idempotency-Key': key }, body })
          : await request(server.baseUrl, 'POST', '/graphql', {
              headers: { 'x-api-key': p.issuerKey, 'Idempotency-Key': key },
              body: { query: 'mutation S($input: CreateSchemaInput!) { createSchema(input: $input) { name } }', variables: { input: { ...body, attributes: body.attributes.attributes } } },
            });
      return { status: res.status, replayed: res.headers.get('idempotent-replayed') === 'true', text: res.text };
    };
    const before = await server.app.db.prisma.credentialSchema.count();
    const first = await call();
    expect(first).toMatchObject({ status: name === 'REST' ? 201 : 200, replayed: false });
    expect(await call()).toEqual({ ...first, replayed: true });
    expect(await server.app.db.prisma.credentialSchema.count()).toBe(before + 1);
  });
});
