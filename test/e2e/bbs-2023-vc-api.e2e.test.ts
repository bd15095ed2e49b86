import { randomUUID } from 'node:crypto';
import { useTestServer } from '../support/harness';
import { type BbsTransport, graphqlBbs, restBbs } from '../support/bbs-2023-transports';
import { addProof } from '../../src/vc/proofs';
import { createKeySigner, didKeyIdentity, generateSigningKeyPair } from '../../src/vc/signers/key-signer';

/**
 * W3C bbs-2023 through the VC-API (issue 18): an issuer instance with suite bbs-2023 issues a base
 * proof, the holder derives (POST /credentials/derive) a credential disclosing only the selected
 * claims, and the verifier checks the derivation with the issuer's public key alone. The same
 * assertions through REST and through GraphQL via the generated SDK.
 */
const server = useTestServer();
type Json = Record<string, any>;

const SECRET_NAME = 'Ottoline Featherstonehaugh';
const SECRET_ID_NUMBER = 'X9-4471-QQ-0032';

const credential = (issuer: string): Json => ({
  '@context': ['https://www.w3.org/ns/credentials/v2', 'https://www.w3.org/ns/credentials/undefined-terms/v2'],
  id: `urn:uuid:${randomUUID()}`,
  type: ['VerifiableCredential', 'ResidencyCredential'],
  issuer,
  credentialSubject: { name: SECRET_NAME, idNumber: SECRET_ID_NUMBER, residentOf: 'Freedonia', over18: true },
});

function ok<T>(o: { ok: true; data: T } | { ok: false; status: number; code?: string }): T {
  if (!o.ok) throw new Error(`expected success, got ${o.status} ${o.code}`);
  return o.data;
}

/** Whether two byte strings share any run of `n` bytes. */
function shareRun(a: Uint8Array, b: Uint8Array, n: number): boolean {
  const seen = new Set<string>();
  for (let i = 0; i + n <= a.length; i++) seen.add(Buffer.from(a.subarray(i, i + n)).toString('hex'));
  for (let i = 0; i + n <= b.length; i++) if (seen.has(Buffer.from(b.subarray(i, i + n)).toString('hex'))) return true;
  return false;
}
const proofBytes = (vc: Json): Uint8Array => Buffer.from(String(vc['proof']['proofValue']).slice(1), 'base64url');

let tenant = 0;
async function keys(): Promise<{ issuer: string; holder: string; verifier: string }> {
  tenant += 1;
  const t = `bbs-${tenant}-${randomUUID().slice(0, 8)}`;
  return { issuer: await server.apiKey(t, ['issuer']), holder: await server.apiKey(t, ['holder']), verifier: await server.apiKey(t, ['verifier']) };
}

const counts = async (): Promise<{ issuers: number; statuses: number; keys: number }> => ({
  issuers: await server.app.db.prisma.vcIssuer.count(),
  statuses: await server.app.db.prisma.vcCredentialStatus.count(),
  keys: await server.app.db.prisma.managedKey.count(),
});

describe.each([['REST'], ['GraphQL']])('bbs-2023 through the VC-API via %s', (name) => {
  let t: BbsTransport;
  let k: Awaited<ReturnType<typeof keys>>;
  let issuerDid: string;
  let issuerId: string;
  let issued: Json;

  beforeAll(async () => {
    t = name === 'REST' ? restBbs(server) : graphqlBbs(server);
    k = await keys();
    const instance = ok(await t.createIssuer(k.issuer, { cryptosuite: 'bbs-2023' }));
    issuerDid = instance.issuer;
    issuerId = instance.id;
    issued = ok(await t.issue(k.issuer, { credential: credential(issuerDid) }, issuerId)).verifiableCredential;
  });

  test('an instance with suite bbs-2023 has a BLS12-381 G2 did:key and issues a base proof, which verifiers refuse', async () => {
    expect(issuerDid).toMatch(/^did:key:zUC7/);
    const listed = ok(await t.listIssuers(k.issuer)).find((i) => i.id === issuerId);
    expect(listed).toMatchObject({ cryptosuite: 'bbs-2023', keyType: 'Bls12381G2', issuer: issuerDid, default: false });
    expect(issued['proof']).toMatchObject({ type: 'DataIntegrityProof', cryptosuite: 'bbs-2023', proofPurpose: 'assertionMethod', verificationMethod: `${issuerDid}#${issuerDid.slice(8)}` });
    expect(String(issued['proof']['proofValue'])).toMatch(/^u2V0C/);
    const r = ok(await t.verify(k.verifier, { verifiableCredential: issued }));
    expect(r.verified).toBe(false);
    expect(r.errors.map((e) => e.type.replace(/^.*[#:]/, ''))).toEqual(['PROOF_VERIFICATION_ERROR']);
  });

  test('the holder derives a credential disclosing only the selected claims; it verifies with the public key alone', async () => {
    const { verifiableCredential: derived } = ok(await t.derive(k.holder, { verifiableCredential: issued, options: { selectivePointers: ['/credentialSubject/residentOf'] } }));
    const bytes = JSON.stringify(derived);
    expect(bytes).not.toContain(SECRET_NAME);
    expect(bytes).not.toContain(SECRET_ID_NUMBER);
    expect(bytes).not.toContain('over18');
    expect(derived['credentialSubject']).toEqual({ residentOf: 'Freedonia' });
    expect(derived['issuer']).toBe(issuerDid);
    expect(String(derived['proof']['proofValue'])).toMatch(/^u2V0D/);
    const r = ok(await t.verify(k.verifier, { verifiableCredential: derived }));
    expect(r).toEqual({ verified: true, checks: expect.arrayContaining(['proof']), warnings: [], errors: [] });
  });

  test('two derivations of one credential share no proof bytes, and a tampered derivation fails', async () => {
    const body = { verifiableCredential: issued, options: { selectivePointers: ['/credentialSubject/over18'] } };
    const a = ok(await t.derive(k.holder, body)).verifiableCredential;
    const b = ok(await t.derive(k.holder, body)).verifiableCredential;
    expect(a['credentialSubject']).toEqual(b['credentialSubject']);
    expect(shareRun(proofBytes(a), proofBytes(b), 16)).toBe(false);
    expect(ok(await t.verify(k.verifier, { verifiableCredential: a })).verified).toBe(true);
    expect(ok(await t.verify(k.verifier, { verifiableCredential: b })).verified).toBe(true);
    const changed = { ...a, credentialSubject: { over18: false } };
    expect(ok(await t.verify(k.verifier, { verifiableCredential: changed })).verified).toBe(false);
    const flipped = proofBytes(a);
    flipped[flipped.length - 50] = (flipped[flipped.length - 50] ?? 0) ^ 0x01;
    const forged = { ...a, proof: { ...a['proof'], proofValue: `u${Buffer.from(flipped).toString('base64url')}` } };
    expect(ok(await t.verify(k.verifier, { verifiableCredential: forged })).verified).toBe(false);
  });

  test('bad input is a 4xx and stores nothing: unknown pointer, no base proof, wrong-curve key, status entries, wrong key type', async () => {
    const before = await counts();
    const refused = async (o: Promise<{ ok: boolean; status?: number }>, status: number): Promise<void> => expect(await o).toMatchObject({ ok: false, status });
    await refused(t.derive(k.holder, { verifiableCredential: issued, options: { selectivePointers: ['/credentialSubject/favouriteColour'] } }), 400);
    await refused(t.derive(k.holder, { verifiableCredential: issued, options: { selectivePointers: ['no-leading-slash'] } }), 400);
    const pair = generateSigningKeyPair('Ed25519');
    const ed = didKeyIdentity('Ed25519', pair.publicKey);
    const eddsa = await addProof(credential(ed.did), createKeySigner(pair, ed.verificationMethod), { suite: 'eddsa-rdfc-2022', proofPurpose: 'assertionMethod' });
    await refused(t.derive(k.holder, { verifiableCredential: eddsa, options: { selectivePointers: ['/credentialSubject/residentOf'] } }), 400);
    const wrongCurve = { ...issued, proof: { ...issued['proof'], verificationMethod: ed.verificationMethod } };
    await refused(t.derive(k.holder, { verifiableCredential: wrongCurve, options: { selectivePointers: ['/credentialSubject/residentOf'] } }), 400);
    await refused(t.createIssuer(k.issuer, { cryptosuite: 'bbs-2023', keyType: 'Ed25519' }), 400);
    await refused(t.issue(k.issuer, { credential: credential(issuerDid), options: { credentialStatus: { type: 'BitstringStatusListEntry', statusPurpose: 'revocation' } } }, issuerId), 400);
    expect(await counts()).toEqual(before);
  });

  test('the issuer makes a claim mandatory: every derivation discloses it; a mandatory pointer to nothing is 400', async () => {
    const withMandatory = ok(await t.issue(k.issuer, { credential: credential(issuerDid), options: { mandatoryPointers: ['/credentialSubject/residentOf'] } }, issuerId)).verifiableCredential;
    const derived = ok(await t.derive(k.holder, { verifiableCredential: withMandatory, options: { selectivePointers: ['/credentialSubject/over18'] } })).verifiableCredential;
    expect(derived['credentialSubject']).toEqual({ residentOf: 'Freedonia', over18: true });
    expect(ok(await t.verify(k.verifier, { verifiableCredential: derived })).verified).toBe(true);
    const mandatoryOnly = ok(await t.derive(k.holder, { verifiableCredential: withMandatory })).verifiableCredential;
    expect(mandatoryOnly['credentialSubject']).toEqual({ residentOf: 'Freedonia' });
    expect(ok(await t.verify(k.verifier, { verifiableCredential: mandatoryOnly })).verified).toBe(true);
    expect(await t.issue(k.issuer, { credential: credential(issuerDid), options: { mandatoryPointers: ['/credentialSubject/nothingHere'] } }, issuerId)).toMatchObject({ ok: false, status: 400 });
    expect(await t.issue(k.issuer, { credential: credential(issuerDid), options: { mandatoryPointers: 'residentOf' } }, issuerId)).toMatchObject({ ok: false, status: 400 });
  });

  test('a verifier key cannot derive; another tenant cannot issue with the instance', async () => {
    await expect(t.derive(k.verifier, { verifiableCredential: issued, options: { selectivePointers: ['/credentialSubject/residentOf'] } })).resolves.toMatchObject({ ok: false, status: 403 });
    const other = await keys();
    await expect(t.issue(other.issuer, { credential: credential(issuerDid) }, issuerId)).resolves.toMatchObject({ ok: false, status: 404 });
  });
});
