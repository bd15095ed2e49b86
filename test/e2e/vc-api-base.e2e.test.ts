import { randomUUID } from 'node:crypto';
import { useTestServer } from '../support/harness';
import { request } from '../support/http';
import { expectProblem } from '../support/vc-api-transports';

/*
 * CREDGATE_VC_API_BASE moves the whole VC-API: its routes, the instance issueEndpoint, the status
 * list URLs written into credentials, the problem-details family and the OpenAPI document.
 */

const BASE = '/w3c/vc';
const server = useTestServer(() => ({ env: { vcApiBase: BASE } }));

const credential = (issuer: string) => ({
  '@context': ['https://www.w3.org/ns/credentials/v2'],
  id: `urn:uuid:${randomUUID()}`,
  type: ['VerifiableCredential'],
  issuer,
  credentialSubject: { id: 'did:example:subject', name: 'Ada Lovelace' },
});
const REVOCABLE = { credentialStatus: { type: 'BitstringStatusListEntry', statusPurpose: 'revocation' } };

/** The DID of the tenant's default instance, which listing the instances creates. */
async function defaultDid(headers: Record<string, string>): Promise<string> {
  const listed = await request(server.baseUrl, 'GET', `${BASE}/issuers`, { headers });
  expect(listed.status).toBe(200);
  return (listed.json as { issuer: string; default: boolean }[]).find((i) => i.default)!.issuer;
}

test('the routes, issueEndpoint, status list URLs and errors follow the configured base', async () => {
  const key = await server.apiKey(`base-${randomUUID().slice(0, 8)}`, ['issuer', 'verifier']);
  const headers = { 'X-API-Key': key };
  const inst = await request(server.baseUrl, 'POST', `${BASE}/issuers`, { headers, body: { cryptosuite: 'eddsa-jcs-2022' } });
  expect(inst.status).toBe(201);
  expect(inst.json.issueEndpoint).toBe(`${BASE}/issuers/${inst.json.id}/credentials/issue`);
  const issued = await request(server.baseUrl, 'POST', inst.json.issueEndpoint, { headers, body: { credential: credential(inst.json.issuer), options: REVOCABLE } });
  expect(issued.status).toBe(201);
  const listUrl = new URL(issued.json.verifiableCredential.credentialStatus.statusListCredential as string);
  expect(listUrl.pathname).toMatch(new RegExp(`^${BASE}/status-lists/[0-9a-f-]{36}$`));
  expect((await request(server.baseUrl, 'GET', listUrl.pathname)).status).toBe(200);
  const verified = await request(server.baseUrl, 'POST', `${BASE}/credentials/verify`, { headers, body: { verifiableCredential: issued.json.verifiableCredential } });
  expect(verified.status).toBe(200);
  expect(verified.json.verified).toBe(true);
  // Errors under the base are problem details; the default base is not served.
  const did = await defaultDid(headers);
  const bad = await request(server.baseUrl, 'POST', `${BASE}/credentials/issue`, { headers, body: { credential: credential(did), options: { nope: 1 } } });
  expect(bad.status).toBe(400);
  expectProblem(bad);
  expect((await request(server.baseUrl, 'POST', '/vc-api/credentials/issue', { headers, body: { credential: credential(did) } })).status).toBe(404);
});

test('the OpenAPI document shows the VC-API where it is served', async () => {
  const doc = (await request(server.baseUrl, 'GET', '/openapi.json')).json;
  const paths = Object.keys(doc.paths);
  for (const p of ['/credentials/issue', '/credentials/verify', '/presentations/verify', '/credentials/status', '/issuers', '/issuers/{issuerId}/credentials/issue', '/status-lists/{listId}']) {
    expect(paths).toContain(`${BASE}${p}`);
  }
  expect(paths.filter((p) => p.startsWith('/vc-api'))).toEqual([]);
});

test('an OAuth2 access token (POST /oauth/token) works on the VC-API like the key; a bad one is a 401 problem', async () => {
  const key = await server.apiKey(`bearer-${randomUUID().slice(0, 8)}`, ['issuer']);
  const hex = /^cgk_([0-9a-f]{32})_/.exec(key)![1]!;
  const clientId = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  const tokenRes = await request(server.baseUrl, 'POST', '/oauth/token', { body: { grant_type: 'client_credentials', client_id: clientId, client_secret: key } });
  expect(tokenRes.status).toBe(200);
  const authorization = `Bearer ${tokenRes.json.access_token as string}`;
  const did = await defaultDid({ authorization });
  const issued = await request(server.baseUrl, 'POST', `${BASE}/credentials/issue`, { headers: { authorization }, body: { credential: credential(did) } });
  expect(issued.status).toBe(201);
  expect(issued.json.verifiableCredential.proof.cryptosuite).toBe('eddsa-rdfc-2022');
  // The token carries the key's scopes: verifying needs `verifier`.
  const verify = await request(server.baseUrl, 'POST', `${BASE}/credentials/verify`, { headers: { authorization }, body: { verifiableCredential: issued.json.verifiableCredential } });
  expect(verify.status).toBe(403);
  expectProblem(verify);
  const bad = await request(server.baseUrl, 'POST', `${BASE}/credentials/issue`, { headers: { authorization: `${authorization}x` }, body: { credential: credential(did) } });
  expect(bad.status).toBe(401);
  expectProblem(bad);
  expect(bad.headers.get('www-authenticate')).toMatch(/Bearer/);
});
