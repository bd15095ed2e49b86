import { randomBytes } from 'node:crypto';
import { type ZkAgeCredential, proveZkAge, verifyZkAge } from '../../src/sdk';
import { utcDayOf } from '../../src/zk/encoding';
import { unwrap } from '../support/family-a-fixtures';
import { FB_ATTRIBUTES, fbTransports } from '../support/family-b-fixtures';
import type { FamilyBTransport } from '../support/family-b-transports';
import { useTestServer } from '../support/harness';
import { request } from '../support/http';

/*
 * Issue 18, item 4 (non-custodial range proofs): a holder-bound key obtains the issuer's BBS
 * signature over its own credential (POST /zk/holder-signature, GraphQL zkHolderSignature), proves
 * an age range predicate with the SDK's proveZkAge without the service, and the service verifies
 * it (POST /verifyZkpToken); the reverse, a proof the service made, verifies with the SDK's
 * verifyZkAge. Same assertions through REST and GraphQL.
 */

jest.setTimeout(180_000);

const server = useTestServer();
type Json = Record<string, any>;
const challenge = () => ({ verifierId: 'https://bar.example', nonce: randomBytes(16).toString('hex') });

function bornYearsAgo(years: number): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear() - years, now.getUTCMonth(), now.getUTCDate() - 10)).toISOString().slice(0, 10);
}

type Outcome = { ok: true; data: ZkAgeCredential } | { ok: false; status: number; code?: string };

describe.each(['REST', 'GraphQL'])('a non-custodial holder proves with its own BBS signature (%s)', (name) => {
  let t: FamilyBTransport;
  let tenant: string;
  let keys: { issuer: string; verifier: string; holder: string; otherHolder: string; unbound: string };
  let templateId: string;
  let credential: Json;
  const values = { name: 'Nell Noncustodial', birthDate: bornYearsAgo(25), employeeNo: 4242 };

  const holderSignature = async (key: string, credentialId: string): Promise<Outcome> => {
    if (name === 'REST') {
      const res = await request(server.baseUrl, 'POST', '/zk/holder-signature', { headers: { 'X-API-Key': key }, body: { credentialId } });
      return res.status === 200 ? { ok: true, data: res.json as ZkAgeCredential } : { ok: false, status: res.status, code: (res.json as Json)?.['code'] };
    }
    try {
      return { ok: true, data: (await server.sdk(key).zkHolderSignature({ credentialId })).zkHolderSignature as ZkAgeCredential };
    } catch (e) {
      const code = (e as { code?: string }).code;
      const status = code === 'FORBIDDEN' ? 403 : code === 'NOT_FOUND' ? 404 : code === 'INVALID_INPUT' ? 400 : 500;
      return { ok: false, status, ...(code ? { code } : {}) };
    }
  };

  const did = async (): Promise<string> => {
    const slice = fbTransports(server, name).slice;
    const pair = unwrap(await slice.generateKeypair(keys.issuer));
    const full = unwrap(await slice.createDid(keys.issuer, { method: 'credgate', publicKey: pair.publicKey })).document.id as string;
    return full.slice(0, full.lastIndexOf(':'));
  };
  const issue = async (holder: string): Promise<Json> => unwrap(await t.issue(keys.issuer, { templateId, credentialSubject: values, holder }));

  let holderDid: string;
  let otherDid: string;

  beforeAll(async () => {
    t = fbTransports(server, name).t;
    tenant = `zkhs-${name.toLowerCase()}-${randomBytes(4).toString('hex')}`;
    const issuer = await server.apiKey(tenant, ['issuer']);
    keys = { issuer, verifier: await server.apiKey(tenant, ['verifier']), unbound: await server.apiKey(tenant, ['holder']), holder: '', otherHolder: '' };
    const issuerDid = await did();
    holderDid = await did();
    otherDid = await did();
    const bound = async (holder: string) => (await server.app.services.auth.createApiKey({ tenant, scopes: ['holder'], holderDid: holder })).key;
    keys.holder = await bound(holderDid);
    keys.otherHolder = await bound(otherDid);
    templateId = (unwrap(await t.createTemplate(issuer, { templateName: `Pass ${randomBytes(3).toString('hex')}`, description: 'Pass', issuer: issuerDid, attributes: FB_ATTRIBUTES, expiration: { value: 1, unit: 'years' } })) as Json)['templateId'];
    credential = await issue(holderDid);
  });

  test('a proof made outside the service with the holder\u2019s own signature verifies inside it; a false statement cannot be proven', async () => {
    const signed = await holderSignature(keys.holder, credential['id']);
    if (!signed.ok) throw new Error(`holder signature refused: ${signed.status} ${signed.code}`);
    const copy = signed.data;
    expect(copy).toMatchObject({ credentialId: credential['id'], validUntilDay: utcDayOf(new Date()) });
    expect(copy.attributes).toEqual(expect.arrayContaining([{ name: 'birthDate', type: 'date', value: values.birthDate }]));
    const asked = challenge();
    const token = await proveZkAge(copy, { attribute: 'birthDate', age: 21, verifierChallenge: asked });
    // The token carries no value: neither the birth date nor the other claims.
    expect(JSON.stringify(token)).not.toContain(values.birthDate);
    expect(JSON.stringify(token)).not.toContain(values.name);
    const out = unwrap(await t.verifyZkpToken(keys.verifier, { ...token, verifierChallenge: asked }));
    expect(out).toMatchObject({ success: true, conditionMet: true, proofSystem: 'bbs-bulletproofs', calculatedAge: null });
    // Bound to the verifier's challenge: replayed with another nonce it fails.
    expect(await t.verifyZkpToken(keys.verifier, { ...token, verifierChallenge: challenge() })).toMatchObject({ ok: false, status: 400 });
    await expect(proveZkAge(copy, { attribute: 'birthDate', age: 30, verifierChallenge: challenge() })).rejects.toThrow();
  });

  test('the reverse: a proof the service made verifies with the SDK alone', async () => {
    const asked = challenge();
    const token = unwrap(await t.createZkpToken(keys.issuer, { credentialId: credential['id'], condition: { age: 18 }, proofSystem: 'bbs-bulletproofs', verifierChallenge: asked }));
    const signed = await holderSignature(keys.holder, credential['id']);
    if (!signed.ok) throw new Error('holder signature refused');
    // The key the holder was given is the one the service's proofs verify under.
    expect(token.publicKey).toBe(signed.data.issuerPublicKey);
    expect(await verifyZkAge(token.zkpToken, { issuerPublicKey: signed.data.issuerPublicKey, age: 18, verifierChallenge: asked })).toMatchObject({ verified: true });
    expect(await verifyZkAge(token.zkpToken, { issuerPublicKey: signed.data.issuerPublicKey, age: 18, verifierChallenge: challenge() })).toMatchObject({ verified: false });
  });

  test('holder-bound keys only, for their own credentials; a revoked credential gets no signature', async () => {
    expect(await holderSignature(keys.unbound, credential['id'])).toMatchObject({ ok: false, status: 403 });
    expect(await holderSignature(keys.issuer, credential['id'])).toMatchObject({ ok: false, status: 403 });
    expect(await holderSignature(keys.verifier, credential['id'])).toMatchObject({ ok: false, status: 403 });
    expect(await holderSignature(keys.otherHolder, credential['id'])).toMatchObject({ ok: false, status: 404 });
    expect(await holderSignature(keys.holder, 'urn:uuid:00000000-0000-4000-8000-000000000000')).toMatchObject({ ok: false, status: 404 });
    expect(await holderSignature(keys.holder, 'not-an-id')).toMatchObject({ ok: false, status: 404 });
    const doomed = await issue(holderDid);
    unwrap(await t.revoke(keys.issuer, doomed['id']));
    expect(await holderSignature(keys.holder, doomed['id'])).toMatchObject({ ok: false, status: 400 });
  });
});
