/**
 * Issue 21, the conformance plan's expired-nonce test, on a frozen clock (never the wall clock): a
 * c_nonce older than CREDGATE_OID4VCI_NONCE_TTL_SECONDS is refused with invalid_nonce, while a
 * fresh one from the same wallet, token and key is accepted. The wallet here is this test process
 * itself (node:crypto), because only an in-process service can be given a clock to move.
 */
import { createHash, generateKeyPairSync, randomBytes, randomUUID, sign as nodeSign, type KeyObject } from 'node:crypto';
import { useTestServer } from '../support/harness';
import { schemaBody, unwrap } from '../support/family-a-fixtures';
import { restFamilyA } from '../support/family-a-transports';
import { restOffers } from '../support/oid4vci-transports';
import { DEFAULT_OID4VCI_SETTINGS } from '../../src/oid4vc/issuer';

let now = new Date('2026-11-27T10:00:00Z');
const server = useTestServer(() => ({ clock: { now: () => now } }));
const b64u = (b: Buffer | string): string => Buffer.from(b).toString('base64url');

function key(): { privateKey: KeyObject; jwk: Record<string, string> } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const { x, y } = publicKey.export({ format: 'jwk' }) as { x: string; y: string };
  return { privateKey, jwk: { kty: 'EC', crv: 'P-256', x, y } };
}
function jws(header: object, payload: object, privateKey: KeyObject): string {
  const data = `${b64u(JSON.stringify(header))}.${b64u(JSON.stringify(payload))}`;
  return `${data}.${b64u(nodeSign('sha256', Buffer.from(data), { key: privateKey, dsaEncoding: 'ieee-p1363' }))}`;
}
const iat = (): number => Math.floor(now.getTime() / 1000);

test('an expired c_nonce is invalid_nonce; a fresh one is accepted', async () => {
  const tenant = `nonce-${randomBytes(4).toString('hex')}`;
  const apiKey = await server.apiKey(tenant, ['issuer']);
  unwrap(await restFamilyA(server, '').createSchema(apiKey, schemaBody('Badge')));
  const issuer = `${server.config.publicUrl}/oid4vc/${tenant}`;
  const base = `${server.baseUrl}/oid4vc/${tenant}`;
  const offer = unwrap(await restOffers(server).create(apiKey, { credentialConfigurationIds: ['schema.Badge.v1.sd_jwt'], claims: { name: 'Alice' } }));
  const code = (offer.credentialOffer['grants'] as Record<string, Record<string, string>>)['urn:ietf:params:oauth:grant-type:pre-authorized_code']!['pre-authorized_code']!;
  const dpop = key();
  const holder = key();
  const dpopProof = (htu: string, accessToken?: string) =>
    jws({ typ: 'dpop+jwt', alg: 'ES256', jwk: dpop.jwk }, { htm: 'POST', htu, iat: iat(), jti: randomUUID(), ...(accessToken ? { ath: b64u(createHash('sha256').update(accessToken).digest()) } : {}) }, dpop.privateKey);
  const nonce = async (): Promise<string> => ((await (await fetch(`${base}/nonce`, { method: 'POST' })).json()) as { c_nonce: string }).c_nonce;

  const stale = await nonce();
  now = new Date(now.getTime() + (DEFAULT_OID4VCI_SETTINGS.nonceTtlSeconds + 1) * 1000);

  const tokenRes = await fetch(`${base}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', DPoP: dpopProof(`${issuer}/token`) },
    body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:pre-authorized_code', 'pre-authorized_code': code }).toString(),
  });
  expect(tokenRes.status).toBe(200);
  const accessToken = ((await tokenRes.json()) as { access_token: string }).access_token;
  const credential = async (n: string) => {
    const proof = jws({ typ: 'openid4vci-proof+jwt', alg: 'ES256', jwk: holder.jwk }, { aud: issuer, iat: iat(), nonce: n }, holder.privateKey);
    const res = await fetch(`${base}/credential`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', Authorization: `DPoP ${accessToken}`, DPoP: dpopProof(`${issuer}/credential`, accessToken) },
      body: JSON.stringify({ credential_configuration_id: 'schema.Badge.v1.sd_jwt', proofs: { jwt: [proof] } }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  expect(await credential(stale)).toMatchObject({ status: 400, body: { error: 'invalid_nonce' } });
  expect(unwrap(await restOffers(server).get(apiKey, offer.id)).status).toBe('token-issued');
  const ok = await credential(await nonce());
  expect(ok.status).toBe(200);
  expect((ok.body['credentials'] as unknown[]).length).toBe(1);
}, 60_000);
