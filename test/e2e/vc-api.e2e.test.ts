import { randomUUID } from 'node:crypto';
import { useTestServer } from '../support/harness';
import { request } from '../support/http';
import { type VcApiTransport, type VcResult, expectProblem, graphqlVcApi, namingIssuer, restVcApi } from '../support/vc-api-transports';
import { addProof } from '../../src/vc/proofs';
import { createKeySigner, didKeyIdentity, generateSigningKeyPair } from '../../src/vc/signers/key-signer';
import type { ProofSigner, SigningKeyType } from '../../src/vc/ports';

/*
 * Issue 11, VC-API: issuer instances per suite and key type, issuance with status entries,
 * verification of anyone's credentials (tampering of every kind fails), revocation and
 * suspension through /credentials/status, presentations bound to a holder, challenge and domain.
 * Every scenario runs through REST (problem details checked on each error) and GraphQL.
 */

const server = useTestServer();
type Json = Record<string, any>;

const V2 = 'https://www.w3.org/ns/credentials/v2';
/** VCDM 2.0 dropped @vocab from its base context: ad-hoc claims (alumniOf) need this one or JSON-LD safe mode refuses them. */
const UNDEFINED_TERMS = 'https://www.w3.org/ns/credentials/undefined-terms/v2';
const credential = (id = `urn:uuid:${randomUUID()}`): Json => ({
  '@context': [V2, UNDEFINED_TERMS],
  id,
  type: ['VerifiableCredential', 'AlumniCredential'],
  credentialSubject: { id: 'did:example:ebfeb1f712ebc6f1c276e12ec21', name: 'Ada Lovelace', alumniOf: 'Example University' },
});

const withoutId = ({ id: _id, ...rest }: Json): Json => rest;
/** Status entries are added only when asked for (VC-API options.credentialStatus). */
const REVOCABLE = { credentialStatus: { type: 'BitstringStatusListEntry', statusPurpose: 'revocation' } };

function ok<T>(o: { ok: true; data: T } | { ok: false; status: number; code?: string }): T {
  if (!o.ok) throw new Error(`expected success, got ${o.status} ${o.code}`);
  return o.data;
}
const errorTypes = (r: VcResult) => r.errors.map((e) => e.type.replace(/^.*[#:]/, ''));

/** A did:key party outside the service: its key is generated and used here only. */
function foreign(keyType: SigningKeyType = 'Ed25519'): { did: string; signer: ProofSigner } {
  const pair = generateSigningKeyPair(keyType);
  const { did, verificationMethod } = didKeyIdentity(keyType, pair.publicKey);
  return { did, signer: createKeySigner(pair, verificationMethod) };
}

let tenant = 0;
async function keys(): Promise<{ issuer: string; verifier: string; other: string }> {
  tenant += 1;
  const t = `vcapi-${tenant}-${randomUUID().slice(0, 8)}`;
  return { issuer: await server.apiKey(t, ['issuer']), verifier: await server.apiKey(t, ['verifier']), other: await server.apiKey(`${t}-other`, ['issuer']) };
}

const countStatusRows = async (): Promise<number> => server.app.db.prisma.vcCredentialStatus.count();

describe.each([['REST'], ['GraphQL']])('VC-API through %s', (name) => {
  let t: VcApiTransport;
  let k: Awaited<ReturnType<typeof keys>>;

  beforeAll(async () => {
    t = namingIssuer(name === 'REST' ? restVcApi(server) : graphqlVcApi(server));
    k = await keys();
  });

  test('the default instance issues eddsa-rdfc-2022 with a revocation entry when asked; the credential verifies', async () => {
    const { verifiableCredential: vc } = ok(await t.issue(k.issuer, { credential: credential(), options: REVOCABLE }));
    expect(vc['issuer']).toMatch(/^did:key:z6Mk/);
    expect(vc['proof']).toMatchObject({ type: 'DataIntegrityProof', cryptosuite: 'eddsa-rdfc-2022', proofPurpose: 'assertionMethod' });
    expect(vc['credentialStatus']).toMatchObject({ type: 'BitstringStatusListEntry', statusPurpose: 'revocation' });
    const r = ok(await t.verify(k.verifier, { verifiableCredential: vc }));
    expect(r).toEqual({ verified: true, checks: expect.arrayContaining(['proof', 'validity', 'credentialStatus']), warnings: [], errors: [] });
    const issuers = ok(await t.listIssuers(k.issuer));
    expect(issuers.filter((i) => i.default)).toHaveLength(1);
  });

  test.each([
    ['eddsa-rdfc-2022', 'Ed25519'],
    ['eddsa-jcs-2022', 'Ed25519'],
    ['ecdsa-rdfc-2019', 'P-256'],
    ['ecdsa-rdfc-2019', 'P-384'],
    ['Ed25519Signature2020', 'Ed25519'],
    ['vc+jwt', 'Ed25519'],
    ['vc+jwt', 'P-256'],
  ])('an instance with %s / %s issues credentials that verify, and revocation is seen', async (cryptosuite, keyType) => {
    const inst = ok(await t.createIssuer(k.issuer, { cryptosuite, keyType }));
    expect(inst).toMatchObject({ cryptosuite, keyType, default: false, issueEndpoint: `/vc-api/issuers/${inst.id}/credentials/issue` });
    expect(inst.issuer).toMatch(keyType === 'Ed25519' ? /^did:key:z6Mk/ : keyType === 'P-256' ? /^did:key:zDn/ : /^did:key:z82/);
    const id = `urn:uuid:${randomUUID()}`;
    const { verifiableCredential: vc } = ok(await t.issue(k.issuer, { credential: credential(id), options: REVOCABLE }, inst.id));
    if (cryptosuite === 'vc+jwt') expect(vc['type']).toBe('EnvelopedVerifiableCredential');
    else expect(vc['issuer']).toBe(inst.issuer);
    expect(ok(await t.verify(k.verifier, { verifiableCredential: vc })).verified).toBe(true);
    ok(await t.updateStatus(k.issuer, { credentialId: id, statusPurpose: 'revocation', status: true }));
    const after = ok(await t.verify(k.verifier, { verifiableCredential: vc }));
    expect(after.verified).toBe(false);
    expect(after.checks).toContain('credentialStatus');
    expect(errorTypes(after)).toContain('REVOKED');
  });

  test.each([
    ['1.1', 'https://www.w3.org/2018/credentials/v1'],
    ['2.0', V2],
  ])('a VCDM %s credential defining its own terms in an inline context issues and verifies; remapping a term breaks it', async (_v, base) => {
    // VCDM 1.1's base context does not define `name`; the inline context defines every claim of its own.
    const inline = { AlumniCredential: 'https://schema.org/AlumniCredential', name: 'https://schema.org/name', alumniOf: 'https://schema.org/alumniOf' };
    const { verifiableCredential: vc } = ok(await t.issue(k.issuer, { credential: { ...credential(), '@context': [base, inline] } }));
    expect(ok(await t.verify(k.verifier, { verifiableCredential: vc })).verified).toBe(true);
    const contexts = vc['@context'] as unknown[];
    const remapped = { ...vc, '@context': contexts.map((c) => (c === contexts[1] ? { ...inline, alumniOf: 'https://attacker.example/alumniOf' } : c)) };
    const r = ok(await t.verify(k.verifier, { verifiableCredential: remapped }));
    expect(r.verified).toBe(false);
    expect(errorTypes(r)).toContain('PROOF_VERIFICATION_ERROR');
  });

  test('revocation is idempotent, cannot be undone, and another tenant cannot revoke', async () => {
    const id = `urn:uuid:${randomUUID()}`;
    const { verifiableCredential: vc } = ok(await t.issue(k.issuer, { credential: credential(id), options: REVOCABLE }));
    const foreignRevoke = await t.updateStatus(k.other, { credentialId: id, statusPurpose: 'revocation', status: true });
    expect(foreignRevoke).toMatchObject({ ok: false, status: 404 });
    expect(ok(await t.verify(k.verifier, { verifiableCredential: vc })).verified).toBe(true);
    const first = ok(await t.updateStatus(k.issuer, { credentialId: id, statusPurpose: 'revocation', status: true }));
    const again = ok(await t.updateStatus(k.issuer, { credentialId: id, statusPurpose: 'revocation', status: true }));
    expect(again).toEqual(first);
    expect(first.status).toBe(true);
    expect(first.credentialStatus).toEqual(vc['credentialStatus']);
    expect(await t.updateStatus(k.issuer, { credentialId: id, statusPurpose: 'revocation', status: false })).toMatchObject({ ok: false, status: 409 });
    expect(ok(await t.verify(k.verifier, { verifiableCredential: vc })).verified).toBe(false);
  });

  test('suspension is set and cleared; the credential verifies again', async () => {
    const id = `urn:uuid:${randomUUID()}`;
    const options = { credentialStatus: [{ type: 'BitstringStatusListEntry', statusPurpose: 'revocation' }, { type: 'BitstringStatusListEntry', statusPurpose: 'suspension' }] };
    const { verifiableCredential: vc } = ok(await t.issue(k.issuer, { credential: credential(id), options }));
    expect((vc['credentialStatus'] as Json[]).map((e) => e['statusPurpose']).sort()).toEqual(['revocation', 'suspension']);
    ok(await t.updateStatus(k.issuer, { credentialId: id, statusPurpose: 'suspension', status: true }));
    const suspended = ok(await t.verify(k.verifier, { verifiableCredential: vc }));
    expect(suspended.verified).toBe(false);
    expect(errorTypes(suspended)).toContain('SUSPENDED');
    ok(await t.updateStatus(k.issuer, { credentialId: id, statusPurpose: 'suspension', status: false }));
    expect(ok(await t.verify(k.verifier, { verifiableCredential: vc })).verified).toBe(true);
  });

  test('bad inputs answer 400/409 and write nothing', async () => {
    const before = await countStatusRows();
    const bad: [Json, number][] = [
      [{ credential: credential(), options: { mandatoryPointers: ['/issuer'] } }, 400],
      [{ credential: credential(), options: { unknownOption: true } }, 400],
      [{ credential: credential(), options: { created: 'yesterday' } }, 400],
      [{ credential: credential(), options: { credentialStatus: { type: 'StatusList2021Entry', statusPurpose: 'revocation' } } }, 400],
      [{ credential: withoutId(credential()), options: { credentialStatus: { type: 'BitstringStatusListEntry', statusPurpose: 'revocation' } } }, 400],
      [{ credential: { ...credential(), '@context': ['https://example.com/not-a-credential'] } }, 400],
      [{ credential: { ...credential(), type: 'NotACredential' } }, 400],
    ];
    for (const [body, status] of bad) expect(await t.issue(k.issuer, body as { credential: Json })).toMatchObject({ ok: false, status });
    expect(await countStatusRows()).toBe(before);
    // bbs-2023 became a suite in issue 18; a suite nobody implements, and bbs-2023 with a key of another curve, are still refused.
    expect(await t.createIssuer(k.issuer, { cryptosuite: 'BbsBlsSignature2020' })).toMatchObject({ ok: false, status: 400 });
    expect(await t.createIssuer(k.issuer, { cryptosuite: 'bbs-2023', keyType: 'Ed25519' })).toMatchObject({ ok: false, status: 400 });
    expect(await t.createIssuer(k.issuer, { cryptosuite: 'eddsa-rdfc-2022', keyType: 'P-384' })).toMatchObject({ ok: false, status: 400 });
    expect(await t.issue(k.issuer, { credential: credential() }, randomUUID())).toMatchObject({ ok: false, status: 404 });
    // An id gets status entries once per tenant (its entries are how /credentials/status finds it).
    const id = `urn:uuid:${randomUUID()}`;
    ok(await t.issue(k.issuer, { credential: credential(id), options: REVOCABLE }));
    expect(await t.issue(k.issuer, { credential: credential(id), options: REVOCABLE })).toMatchObject({ ok: false, status: 409 });
    // Scopes: a verifier key does not issue, an issuer key does not verify.
    expect(await t.issue(k.verifier, { credential: credential() })).toMatchObject({ ok: false, status: 403 });
  });

  test("a foreign did:key issuer's credential verifies; each kind of tampering fails", async () => {
    const { verifiableCredential: ours } = ok(await t.issue(k.issuer, { credential: credential(), options: REVOCABLE }));
    for (const keyType of ['Ed25519', 'P-256'] as const) {
      const f = foreign(keyType);
      const suite = keyType === 'Ed25519' ? 'eddsa-rdfc-2022' : 'ecdsa-rdfc-2019';
      const signed = await addProof({ ...credential(), issuer: f.did, validFrom: '2026-01-01T00:00:00Z' }, f.signer, { suite, proofPurpose: 'assertionMethod' });
      expect(ok(await t.verify(k.verifier, { verifiableCredential: signed }))).toMatchObject({ verified: true, errors: [] });
      const other = foreign(keyType);
      const proof = signed['proof'] as Json;
      const tampered: [string, Json][] = [
        ['claim', { ...signed, credentialSubject: { ...(signed['credentialSubject'] as Json), name: 'Mallory' } }],
        ['context', { ...signed, '@context': [V2, 'https://w3id.org/security/data-integrity/v2'] }],
        ['proofValue', { ...signed, proof: { ...proof, proofValue: `${String(proof['proofValue']).slice(0, -4)}abcd` } }],
        ['created', { ...signed, proof: { ...proof, created: '2020-01-01T00:00:00Z' } }],
        ['verificationMethod', { ...signed, proof: { ...proof, verificationMethod: didKeyIdentity(keyType, generateSigningKeyPair(keyType).publicKey).verificationMethod } }],
        ['issuer', { ...signed, issuer: other.did }],
        ['status entry', { ...signed, credentialStatus: ours['credentialStatus'] }],
      ];
      for (const [what, vc] of tampered) {
        const r = ok(await t.verify(k.verifier, { verifiableCredential: vc }));
        expect({ what, verified: r.verified }).toEqual({ what, verified: false });
        expect(r.errors.length).toBeGreaterThan(0);
      }
    }
  });

  test("our credential's status entry moved to another of our lists does not verify", async () => {
    const a = ok(await t.issue(k.issuer, { credential: credential(), options: REVOCABLE })).verifiableCredential;
    const inst = ok(await t.createIssuer(k.issuer, { cryptosuite: 'eddsa-rdfc-2022' }));
    const b = ok(await t.issue(k.issuer, { credential: credential(), options: REVOCABLE }, inst.id)).verifiableCredential;
    const moved = { ...a, credentialStatus: b['credentialStatus'] };
    expect(ok(await t.verify(k.verifier, { verifiableCredential: moved })).verified).toBe(false);
  });

  test('presentations: holder binding, challenge, domain, replay, proofless only when asked', async () => {
    const { verifiableCredential: vc } = ok(await t.issue(k.issuer, { credential: credential() }));
    const holder = foreign('Ed25519');
    const challenge = randomUUID();
    const domain = 'verifier.example';
    const vp = { '@context': [V2], type: ['VerifiablePresentation'], holder: holder.did, verifiableCredential: [vc] };
    const signed = await addProof(vp, holder.signer, { suite: 'eddsa-rdfc-2022', proofPurpose: 'authentication', challenge, domain });
    const good = ok(await t.verifyPresentation(k.verifier, { verifiablePresentation: signed, options: { challenge, domain } }));
    expect(good).toMatchObject({ verified: true, errors: [] });
    expect(good.checks).toEqual(expect.arrayContaining(['proof', 'holder', 'challenge', 'domain', 'credentials']));
    // Replayed to a verifier that asked another challenge, or on another domain.
    expect(ok(await t.verifyPresentation(k.verifier, { verifiablePresentation: signed, options: { challenge: randomUUID(), domain } })).verified).toBe(false);
    expect(ok(await t.verifyPresentation(k.verifier, { verifiablePresentation: signed, options: { challenge, domain: 'evil.example' } })).verified).toBe(false);
    // Signed by someone who is not the holder.
    const impostor = foreign('Ed25519');
    const stolen = await addProof(vp, impostor.signer, { suite: 'eddsa-rdfc-2022', proofPurpose: 'authentication', challenge, domain });
    expect(ok(await t.verifyPresentation(k.verifier, { verifiablePresentation: stolen, options: { challenge, domain } })).verified).toBe(false);
    // An assertion proof is not an authentication.
    const asserted = await addProof(vp, holder.signer, { suite: 'eddsa-rdfc-2022', proofPurpose: 'assertionMethod', challenge, domain });
    expect(ok(await t.verifyPresentation(k.verifier, { verifiablePresentation: asserted, options: { challenge, domain } })).verified).toBe(false);
    // Without a proof: refused as a verifiablePresentation, accepted (with a warning) as a presentation.
    expect(ok(await t.verifyPresentation(k.verifier, { verifiablePresentation: vp })).verified).toBe(false);
    const proofless = ok(await t.verifyPresentation(k.verifier, { presentation: vp }));
    expect(proofless.verified).toBe(true);
    expect(proofless.warnings.length).toBeGreaterThan(0);
    // A presented credential that was tampered with fails the presentation.
    const forged = await addProof({ ...vp, verifiableCredential: [{ ...vc, credentialSubject: { ...vc['credentialSubject'], name: 'Mallory' } }] }, holder.signer, { suite: 'eddsa-rdfc-2022', proofPurpose: 'authentication', challenge, domain });
    const r = ok(await t.verifyPresentation(k.verifier, { verifiablePresentation: forged, options: { challenge, domain } }));
    expect(r.verified).toBe(false);
    expect(r.errors.some((e) => e.detail?.startsWith('verifiableCredential[0]'))).toBe(true);
  });
});

describe('VC-API REST specifics', () => {
  test('the status list is public, signed, cached with ETag, and re-signed when a bit changes', async () => {
    const k = await keys();
    const t = namingIssuer(restVcApi(server));
    const id = `urn:uuid:${randomUUID()}`;
    const { verifiableCredential: vc } = ok(await t.issue(k.issuer, { credential: credential(id), options: REVOCABLE }));
    const path = new URL(vc['credentialStatus'].statusListCredential as string).pathname;
    expect(path).toMatch(/^\/vc-api\/status-lists\/[0-9a-f-]{36}$/);
    const first = await request(server.baseUrl, 'GET', path);
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ type: expect.arrayContaining(['BitstringStatusListCredential']), issuer: vc['issuer'], credentialSubject: { statusPurpose: 'revocation' } });
    expect(first.json.proof).toMatchObject({ cryptosuite: 'eddsa-rdfc-2022', proofPurpose: 'assertionMethod' });
    const etag = first.headers.get('etag')!;
    expect(first.headers.get('cache-control')).toMatch(/no-cache/);
    expect((await request(server.baseUrl, 'GET', path, { headers: { 'If-None-Match': etag } })).status).toBe(304);
    ok(await t.updateStatus(k.issuer, { credentialId: id, statusPurpose: 'revocation', status: true }));
    const changed = await request(server.baseUrl, 'GET', path, { headers: { 'If-None-Match': etag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
    expect(changed.json.credentialSubject.encodedList).not.toBe(first.json.credentialSubject.encodedList);
    expect((await request(server.baseUrl, 'GET', '/vc-api/status-lists/not-a-list')).status).toBe(404);
  });

  test('errors are problem details: malformed JSON, schema violations, unknown routes, missing key', async () => {
    const k = await keys();
    const malformed = await request(server.baseUrl, 'POST', '/vc-api/credentials/issue', { headers: { 'X-API-Key': k.issuer, 'content-type': 'application/json' }, raw: '{"credential":' });
    expect(malformed.status).toBe(400);
    expectProblem(malformed);
    const schema = await request(server.baseUrl, 'POST', '/vc-api/credentials/verify', { headers: { 'X-API-Key': k.verifier }, body: { verifiableCredential: 42 } });
    expect(schema.status).toBe(400);
    expectProblem(schema);
    const noKey = await request(server.baseUrl, 'POST', '/vc-api/credentials/issue', { body: { credential: credential() } });
    expect(noKey.status).toBe(401);
    expectProblem(noKey);
    const unknown = await request(server.baseUrl, 'GET', '/vc-api/nothing-here', { headers: { 'X-API-Key': k.issuer } });
    expect(unknown.status).toBe(404);
    expectProblem(unknown);
    const wrongMethod = await request(server.baseUrl, 'GET', '/vc-api/credentials/issue', { headers: { 'X-API-Key': k.issuer } });
    expect(wrongMethod.status).toBe(405);
    expectProblem(wrongMethod);
  });

  test('a credential that does not verify is a 422 problem carrying the result', async () => {
    const k = await keys();
    const t = namingIssuer(restVcApi(server));
    const { verifiableCredential: vc } = ok(await t.issue(k.issuer, { credential: credential() }));
    const res = await request(server.baseUrl, 'POST', '/vc-api/credentials/verify', { headers: { 'X-API-Key': k.verifier }, body: { verifiableCredential: { ...vc, credentialSubject: { name: 'Mallory' } } } });
    expect(res.status).toBe(422);
    expectProblem(res);
    expect(res.json).toMatchObject({ verified: false, checks: expect.arrayContaining(['proof']) });
    expect(res.json.errors.length).toBeGreaterThan(0);
  });
});
