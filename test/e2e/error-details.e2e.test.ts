import { schemaBody } from '../support/family-a-fixtures';
import { FB_ATTRIBUTES, fbParty, type FbParty } from '../support/family-b-fixtures';
import { graphqlFamilyB, restFamilyB } from '../support/family-b-transports';
import { type TestServer, startTestServer } from '../support/harness';
import { request } from '../support/http';
import { CredgateGraphQLError } from '../../src/sdk';

/*
 * Issue 12: a REST Family B error dropped the per-field details GraphQL returns
 * (`{"error":"invalid template"}` vs `attributes[0].type: must be one of …`). Every REST error now
 * carries the same `code` and `details` as GraphQL, and the message names the first problem.
 */

let server: TestServer;
let p: FbParty;
beforeAll(async () => {
  server = await startTestServer();
  p = await fbParty(server, 'REST');
});
afterAll(async () => {
  await server?.stop();
});

const badTemplate = (issuer: string) => ({
  templateName: 'Details badge',
  description: 'd',
  issuer,
  attributes: [{ ...FB_ATTRIBUTES[0], type: 'colour' }, FB_ATTRIBUTES[1], { ...FB_ATTRIBUTES[2], attributeName: '' }],
  expiration: { value: 1, unit: 'years' },
});

test('Family B: an invalid template gets the same status, code, details and message through REST and GraphQL', async () => {
  const rest = await restFamilyB(server).createTemplate(p.keys.issuer, badTemplate(p.issuer.did));
  const gql = await graphqlFamilyB(server).createTemplate(p.keys.issuer, badTemplate(p.issuer.did));
  for (const out of [rest, gql]) {
    expect(out).toMatchObject({ ok: false, status: 400, code: 'INVALID_INPUT' });
    if (out.ok) throw new Error('unreachable');
    expect(out.details).toEqual(expect.arrayContaining([{ field: 'attributes[0].type', message: expect.stringMatching(/^must be one of /) }]));
    expect(out.details!.some((d) => d.field.startsWith('attributes[2]'))).toBe(true);
    // The message names the first problem, not a generic "invalid template".
    expect(out.message).toMatch(/^invalid template: attributes\[0\]\.type: must be one of string, /);
  }
  if (rest.ok || gql.ok) throw new Error('unreachable');
  expect(rest.details).toEqual(gql.details);
  expect(rest.message).toBe(gql.message);
});

test('Family B: the raw REST body keeps `error` first, then `code` and `details`', async () => {
  const res = await request(server.baseUrl, 'POST', '/vc-templates', { headers: { 'x-api-key': p.keys.issuer }, body: badTemplate(p.issuer.did) });
  expect(res.status).toBe(400);
  expect(Object.keys(res.json)).toEqual(['error', 'code', 'details']);
  expect(res.json.code).toBe('INVALID_INPUT');
  // Errors with no per-field details carry just `error` and `code`.
  const missing = await request(server.baseUrl, 'GET', '/vc-templates/No%20such%20template', { headers: { 'x-api-key': p.keys.issuer } });
  expect(missing.status).toBe(404);
  expect(missing.json).toEqual({ error: expect.any(String), code: 'NOT_FOUND' });
});

test('Family A: an invalid schema gets the same details in the REST envelope and in GraphQL extensions', async () => {
  const key = await server.apiKey(`details-${Date.now()}`, ['issuer']);
  const body = { ...schemaBody('1Passport'), expiration: { value: 1, unit: 'fortnights' } };
  const rest = await request(server.baseUrl, 'POST', '/issuer/createSchema', { headers: { 'X-API-Key': key }, body });
  expect(rest.status).toBe(400);
  expect(rest.json).toMatchObject({ success: false, status: 400, code: 'INVALID_INPUT' });
  let gqlError: CredgateGraphQLError | undefined;
  try {
    await server.sdk(key).createSchema({ input: { ...body, attributes: body.attributes.attributes as never } });
  } catch (e) {
    if (e instanceof CredgateGraphQLError) gqlError = e;
    else throw e;
  }
  expect(gqlError?.code).toBe('INVALID_INPUT');
  const details = gqlError!.errors[0]!.extensions!.details;
  expect(rest.json.details).toEqual(details);
  expect(rest.json.details).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'schemaName' })]));
  expect(rest.json.message).toBe(gqlError!.errors[0]!.message);
});
