/**
 * Holder-bound API keys. A `holder` key bound to a holder DID may use only that holder's
 * custodial key and read only that holder's credentials; everyone else's are "not found" (404),
 * exactly like an unknown id, through REST and GraphQL alike.
 *
 * Attacks: with holder A's key, (1) read holder B's Family B credential, (2) sign a presentation
 * with B's custodial key (holderDID = B), (3) present B's credential as A, (4) revoke B's Family A
 * credential with B's (captured) consent signature.
 */
import { randomBytes } from 'node:crypto';
import { useTestServer } from '../support/harness';
import { type FamilyBTransport, graphqlFamilyB, restFamilyB } from '../support/family-b-transports';
import { type Transport, graphqlTransport, restTransport } from '../support/transports';
import { type Holder, FAMILY_A_TRANSPORTS, consent, newHolder, newParty, schemaBody, subject, unwrap } from '../support/family-a-fixtures';
import { AppError } from '../../src/errors';

const server = useTestServer();

type Json = Record<string, any>;

/** A holder-bound key, created through the same service the CLI uses. */
async function boundKey(tenant: string, holderDid: string, scopes: string[] = ['holder']): Promise<string> {
  return (await server.app.services.auth.createApiKey({ tenant, scopes, holderDid })).key;
}

const ATTRIBUTES = [
  { attributeName: 'name', type: 'string', description: 'Full name' },
  { attributeName: 'email', type: 'email', description: 'Email' },
];

describe.each(['REST', 'GraphQL'])('holder-bound keys, Family B, through %s', (name) => {
  let t: FamilyBTransport;
  let slice: Transport;
  let tenant: string;
  const keys = { issuer: '', a: '', b: '', unbound: '' };
  interface FbHolder {
    did: string;
    docId: string;
    publicKey: string;
    credential: Json;
  }
  const holders: Record<'a' | 'b', FbHolder> = {} as Record<'a' | 'b', FbHolder>;

  beforeAll(async () => {
    tenant = `hs-${name.toLowerCase()}-${randomBytes(3).toString('hex')}`;
    t = name === 'REST' ? restFamilyB(server) : graphqlFamilyB(server);
    slice = name === 'REST' ? restTransport(server, '') : graphqlTransport(server);
    keys.issuer = await server.apiKey(tenant, ['issuer']);
    keys.unbound = await server.apiKey(tenant, ['holder']);
    const ik = unwrap(await slice.generateKeypair(keys.issuer));
    const issuerDid = unwrap(await slice.createDid(keys.issuer, { method: 'credgate', publicKey: ik.publicKey })).document.id;
    const template = unwrap(await t.createTemplate(keys.issuer, { templateName: `Badge ${randomBytes(2).toString('hex')}`, description: 'Badge', issuer: issuerDid, attributes: ATTRIBUTES, expiration: { value: 1, unit: 'years' } }));
    for (const who of ['a', 'b'] as const) {
      // The operator provisions the holder: a custodial key, its DID, a credential, a bound key.
      const hk = unwrap(await slice.generateKeypair(keys.issuer));
      const docId = unwrap(await slice.createDid(keys.issuer, { method: 'credgate', publicKey: hk.publicKey })).document.id;
      const did = docId.slice(0, docId.lastIndexOf(':'));
      const credential = unwrap(await t.issue(keys.issuer, { templateId: template.templateId, credentialSubject: { name: `Holder ${who}`, email: `${who}@example.com` }, holder: did }));
      holders[who] = { did, docId, publicKey: hk.publicKey, credential };
      keys[who] = await boundKey(tenant, who === 'a' ? docId : did);
    }
  });

  const vpBody = (holderDID: string, credentialId: string): Json => ({ credentialIds: [credentialId], sharedAttributes: { [credentialId]: ['name'] }, holderDID, challenge: 'n-1', domain: 'v.example' });

  test("reads its own credential; another holder's is 404, like an unknown id", async () => {
    const { a, b } = holders;
    expect(unwrap(await t.get(keys.a, a.credential['id']))).toEqual(a.credential);
    expect(await t.get(keys.a, b.credential['id'])).toMatchObject({ ok: false, status: 404 });
    expect(await t.get(keys.a, 'urn:uuid:00000000-0000-4000-8000-000000000000')).toMatchObject({ ok: false, status: 404 });
    expect(unwrap(await t.get(keys.b, b.credential['id']))).toEqual(b.credential);
  });

  test("cannot sign a presentation with another holder's custodial key (any DID spelling)", async () => {
    const { b } = holders;
    for (const holderDID of [b.did, b.docId]) {
      expect(await t.createVp(keys.a, vpBody(holderDID, b.credential['id']))).toMatchObject({ ok: false, status: 404 });
    }
  });

  test("cannot present another holder's credential as itself; same answer as an unknown credential", async () => {
    const { a, b } = holders;
    expect(await t.createVp(keys.a, vpBody(a.did, b.credential['id']))).toMatchObject({ ok: false, status: 404 });
    expect(await t.createVp(keys.a, vpBody(a.did, 'urn:uuid:00000000-0000-4000-8000-000000000000'))).toMatchObject({ ok: false, status: 404 });
  });

  test('its own presentation works and verifies', async () => {
    const { a } = holders;
    const vp = unwrap(await t.createVp(keys.a, vpBody(a.docId, a.credential['id'])));
    const verified = await t.verifyVp(keys.a, { vpToken: vp, sharedAttributes: { [a.credential['id']]: ['name'] }, holderDID: a.docId, holderPublicKey: a.publicKey, challenge: 'n-1', domain: 'v.example' });
    expect(unwrap(verified)).toEqual({ message: 'VP and attributes verified' });
  });

  test('an unbound holder key stays tenant-wide (compatibility; documented)', async () => {
    const { b } = holders;
    expect(unwrap(await t.get(keys.unbound, b.credential['id']))).toEqual(b.credential);
  });
});

describe.each(FAMILY_A_TRANSPORTS)('holder-bound keys, Family A revocation, through %s', (transport) => {
  test("holder A's key cannot revoke holder B's credential even with B's valid revocation proof", async () => {
    const p = await newParty(server, transport);
    const issuerDid = unwrap(await p.fa.issuerDid(p.issuerKey));
    const schemaName = `Badge${randomBytes(3).toString('hex')}`;
    unwrap(await p.fa.createSchema(p.issuerKey, schemaBody(schemaName)));
    const issue = async (h: Holder) => {
      const headers = await consent(p, h, issuerDid, subject());
      const out = unwrap(await p.fa.issue(p.issuerKey, headers, { schemaName, isEncrypted: false, dependantVerifiableCredential: [], credentialSubject: subject() }));
      const vc = out.verifiableCredential as Json;
      const revokeProof = unwrap(await p.fa.holderProof(p.holderKey, h.privateKey, { credentialId: String(vc['id']), purpose: 'revoke' }));
      return { vc, proof: { publicKey: h.publicKey, userSignature: revokeProof } };
    };
    const [ha, hb] = [await newHolder(p), await newHolder(p)];
    const cb = await issue(hb);
    const keyA = await boundKey(p.tenant, ha.did);
    const keyB = await boundKey(p.tenant, hb.did);
    expect(await p.fa.revoke(keyA, cb.proof, cb.vc)).toMatchObject({ ok: false, status: 404 });
    // Still live: B's own key revokes it.
    unwrap(await p.fa.revoke(keyB, cb.proof, cb.vc));
  });
});

describe('creating holder-bound keys', () => {
  const auth = () => server.app.services.auth;
  const expectAppError = async (p: Promise<unknown>, code: string): Promise<void> => {
    const e = await p.then(() => undefined, (err: unknown) => err);
    expect(e).toBeInstanceOf(AppError);
    expect((e as AppError).code).toBe(code);
  };

  test('the binding is stored, listed and canonical; scopes beyond holder/verifier are refused', async () => {
    const tenant = `hs-create-${randomBytes(3).toString('hex')}`;
    const issuerKey = await server.apiKey(tenant, ['issuer']);
    const slice = restTransport(server, '');
    const hk = unwrap(await slice.generateKeypair(issuerKey));
    const docId = unwrap(await slice.createDid(issuerKey, { method: 'credgate', publicKey: hk.publicKey })).document.id;
    const did = docId.slice(0, docId.lastIndexOf(':'));
    const { apiKey } = await auth().createApiKey({ tenant, scopes: ['holder', 'verifier'], holderDid: docId, name: 'wallet' });
    expect(apiKey).toMatchObject({ scopes: ['holder', 'verifier'], holderDid: did });
    expect((await auth().listApiKeys(tenant)).find((k) => k.id === apiKey.id)).toMatchObject({ holderDid: did });
    for (const scopes of [['issuer'], ['admin'], ['holder', 'issuer'], ['verifier']]) {
      await expectAppError(auth().createApiKey({ tenant, scopes, holderDid: did }), 'INVALID_INPUT');
    }
    await expectAppError(auth().createApiKey({ tenant, scopes: ['holder'], holderDid: 'not a did' }), 'INVALID_DID');
    // A service DID must exist in the key's tenant (another tenant's DID is unknown here).
    await expectAppError(auth().createApiKey({ tenant: `${tenant}-other`, scopes: ['holder'], holderDid: did }), 'DID_NOT_FOUND');
  });
});
