import { randomBytes } from 'node:crypto';
import { type ZkAgeCredential, proveZkAge, verifyZkAge } from '../../src/sdk';
import { utcDayOf } from '../../src/zk/encoding';
import { ZkAgeTokens } from '../../src/zk/zk-age-tokens';
import { unwrap } from '../support/family-a-fixtures';
import { FB_ATTRIBUTES, type FbParty, fbParty } from '../support/family-b-fixtures';
import { useTestServer } from '../support/harness';

/*
 * Issue 18, part Z2: a non-custodial holder proves with the SDK's local proveZkAge, holding its
 * issuer's BBS signature; the service verifies that token (POST /verifyZkpToken, REST and GraphQL),
 * and the SDK's verifyZkAge verifies a token the service made, offline. The issuer's signature is
 * obtained the way an issuance endpoint would hand it out (ZkAgeTokens.issueSignature over the
 * service's own engine and key custody).
 */

jest.setTimeout(180_000);

const server = useTestServer();
type Json = Record<string, any>;
const challenge = () => ({ verifierId: 'https://club.example', nonce: randomBytes(16).toString('hex') });

function bornYearsAgo(years: number): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear() - years, now.getUTCMonth(), now.getUTCDate() - 10)).toISOString().slice(0, 10);
}

/** What an issuer hands a non-custodial holder: its BBS signature over the credential, valid through `validUntilDay`. */
async function holderCopy(party: FbParty, credential: Json, values: Json, validUntilDay: number): Promise<ZkAgeCredential> {
  const rec = await server.app.services.issuerDids.lookup(party.issuer.did);
  if (!rec?.managedKeyId) throw new Error('issuer DID not found');
  const issuer = { tenantId: rec.tenantId, did: rec.did, managedKeyId: rec.managedKeyId };
  const zk = new ZkAgeTokens(server.app.services.zk, server.app.custody);
  const { signature, publicKey } = await zk.issueSignature(rec.tenantId, issuer, { id: credential['id'] as string, subject: values, attributes: FB_ATTRIBUTES }, validUntilDay);
  return {
    issuer: rec.did,
    issuerPublicKey: Buffer.from(publicKey).toString('hex'),
    signature: Buffer.from(signature).toString('base64'),
    credentialId: credential['id'] as string,
    validUntilDay,
    attributes: FB_ATTRIBUTES.map((a) => ({ name: a.attributeName, type: a.type, value: values[a.attributeName] })),
  };
}

describe.each(['REST', 'GraphQL'])('the SDK proves and verifies locally, interoperating with the service (%s)', (name) => {
  let party: FbParty;
  let credential: Json;
  const values = { name: 'Nora Noncustodial', birthDate: bornYearsAgo(25), employeeNo: 31337 };

  beforeAll(async () => {
    party = await fbParty(server, name);
    credential = await party.issue(values);
  });

  test('a proof made outside the service (proveZkAge) verifies inside it', async () => {
    const copy = await holderCopy(party, credential, values, utcDayOf(new Date()));
    const asked = challenge();
    const token = await proveZkAge(copy, { attribute: 'birthDate', age: 21, verifierChallenge: asked });
    expect(token.publicKey).toBe(copy.issuerPublicKey);
    const out = unwrap(await party.t.verifyZkpToken(party.keys.verifier, { ...token, verifierChallenge: asked }));
    expect(out).toMatchObject({ success: true, conditionMet: true, proofSystem: 'bbs-bulletproofs', issuer: party.issuer.did });
    // The service checks its own challenge: the same token for another nonce fails.
    expect(await party.t.verifyZkpToken(party.keys.verifier, { ...token, verifierChallenge: challenge() })).toMatchObject({ ok: false, status: 400 });
  });

  test('a proof the service made verifies outside it (verifyZkAge), and only for its challenge and condition', async () => {
    const asked = challenge();
    const token = unwrap(await party.t.createZkpToken(party.keys.issuer, { credentialId: credential['id'], condition: { age: 18 }, proofSystem: 'bbs-bulletproofs', verifierChallenge: asked }));
    expect(await verifyZkAge(token.zkpToken, { issuerPublicKey: token.publicKey, age: 18, verifierChallenge: asked })).toEqual({ verified: true, issuer: party.issuer.did });
    expect(await verifyZkAge(token.zkpToken, { issuerPublicKey: token.publicKey, age: 18, verifierChallenge: challenge() })).toMatchObject({ verified: false });
    expect(await verifyZkAge(token.zkpToken, { issuerPublicKey: token.publicKey, age: 30, verifierChallenge: asked })).toMatchObject({ verified: false });
  });

  test("the issuer's BBS key is served (GET /zk/issuer-key/{did}, query zkIssuerKey), so a verifier checks offline with a key it fetched, not the token's", async () => {
    const key = name === 'REST'
      ? ((await (await fetch(`${server.baseUrl}/zk/issuer-key/${encodeURIComponent(party.issuer.did)}`, { headers: { 'x-api-key': party.keys.verifier } })).json()) as Json)
      : ((await server.sdk(party.keys.verifier).zkIssuerKey({ did: party.issuer.did })).zkIssuerKey as Json);
    expect(key).toMatchObject({ issuer: party.issuer.did, type: 'Bls12381G2', proofSystem: 'bbs-bulletproofs' });
    expect(Buffer.from(key['publicKeyBase64'] as string, 'base64').toString('hex')).toBe(key['publicKeyHex']);
    const asked = challenge();
    const token = unwrap(await party.t.createZkpToken(party.keys.issuer, { credentialId: credential['id'], condition: { age: 18 }, proofSystem: 'bbs-bulletproofs', verifierChallenge: asked }));
    expect(token.publicKey).toBe(key['publicKeyHex']);
    expect(await verifyZkAge(token.zkpToken, { issuerPublicKey: key['publicKeyHex'] as string, age: 18, verifierChallenge: asked })).toMatchObject({ verified: true });
    const unknown = name === 'REST'
      ? (await fetch(`${server.baseUrl}/zk/issuer-key/${encodeURIComponent('did:credgate:local:nobody')}`, { headers: { 'x-api-key': party.keys.verifier } })).status
      : await server.sdk(party.keys.verifier).zkIssuerKey({ did: 'did:credgate:local:nobody' }).then(() => 200, (e: { code?: string }) => (e.code === 'NOT_FOUND' ? 404 : 500));
    expect(unknown).toBe(404);
  });

  test('a holder cannot prove a false statement, nor with a signature past its validity (how revocation reaches local provers)', async () => {
    const copy = await holderCopy(party, credential, values, utcDayOf(new Date()));
    await expect(proveZkAge(copy, { attribute: 'birthDate', age: 30, verifierChallenge: challenge() })).rejects.toThrow();
    const stale = await holderCopy(party, credential, values, utcDayOf(new Date()) - 1);
    await expect(proveZkAge(stale, { attribute: 'birthDate', age: 18, verifierChallenge: challenge() })).rejects.toThrow();
    // Values other than the signed ones do not verify under the signature either.
    const lying = { ...copy, attributes: copy.attributes.map((a) => (a.name === 'birthDate' ? { ...a, value: bornYearsAgo(40) } : a)) };
    await expect(proveZkAge(lying, { attribute: 'birthDate', age: 30, verifierChallenge: challenge() })).rejects.toThrow();
  });
});
