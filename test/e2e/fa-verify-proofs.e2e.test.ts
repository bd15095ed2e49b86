import { randomBytes } from 'node:crypto';
import { useTestServer } from '../support/harness';
import type { Verification, VerifyHeaders, ZkpOut } from '../support/family-a-transports';
import { FAMILY_A_TRANSPORTS, type Holder, type Party, newHolder, newParty, schemaBody, subject, unwrap } from '../support/family-a-fixtures';

/**
 * Attacks on what Family A proofs bind: a holder's consent replayed to another tenant's issuer or
 * another schema, the static userSignature replayed as "User is valid" or to revoke with a holder
 * key (an issuer-scoped key revokes with it: the key is the authority, the signature names the
 * issuance), and a ZKP certificate whose predicate, evaluation time and credential are not in what
 * the issuer signed, whether the client sends the statement or the service looks it up.
 */
const server = useTestServer();

type Doc = Record<string, any>;
const clone = (d: Doc): Doc => JSON.parse(JSON.stringify(d)) as Doc;
const nonce = () => randomBytes(16).toString('hex');

describe.each(FAMILY_A_TRANSPORTS)('proof binding attacks through %s', (name) => {
  let p: Party;
  let q: Party;
  let user: Holder;
  let issuerA: string;
  let issuerB: string;
  let schemaName: string;
  let otherSchema: string;
  let issued: { vc: Doc; userSignature: string };

  const values = subject();
  const sign = async (issuerDid: string, schema?: string) =>
    unwrap(await p.fa.sign(p.holderKey, user.privateKey, issuerDid, { credentialSubject: { id: user.did, ...values } }, schema));
  const holderHeaders = (userSignature: string) => ({ did: user.did, publicKey: user.publicKey, userSignature });
  const verify = async (headers: VerifyHeaders, body: Record<string, unknown>, zkp?: boolean): Promise<Verification> => unwrap(await q.fa.verify(q.verifierKey, headers, body, zkp));
  const challenge = async (vc: Doc, n = nonce()) => ({ nonce: n, signature: unwrap(await p.fa.holderProof(p.holderKey, user.privateKey, { credentialId: vc['id'], purpose: 'verify', nonce: n })) });

  beforeAll(async () => {
    p = await newParty(server, name);
    q = await newParty(server, name);
    user = await newHolder(p);
    issuerA = unwrap(await p.fa.issuerDid(p.issuerKey));
    issuerB = unwrap(await q.fa.issuerDid(q.issuerKey));
    schemaName = `Bound${randomBytes(3).toString('hex')}`;
    otherSchema = `Other${randomBytes(3).toString('hex')}`;
    unwrap(await p.fa.createSchema(p.issuerKey, schemaBody(schemaName)));
    unwrap(await p.fa.createSchema(p.issuerKey, schemaBody(otherSchema)));
    unwrap(await q.fa.createSchema(q.issuerKey, schemaBody(schemaName)));
    const r = unwrap(await p.fa.issue(p.issuerKey, holderHeaders(await sign(issuerA, schemaName)), { schemaName: `${schemaName}:1`, credentialSubject: values }));
    issued = { vc: r.verifiableCredential, userSignature: r.userSignature };
  });

  test("consent for one issuer cannot be replayed by another tenant's issuer", async () => {
    const forA = await sign(issuerA);
    expect((await p.fa.issue(p.issuerKey, holderHeaders(forA), { schemaName: `${schemaName}:1`, credentialSubject: values })).ok).toBe(true);
    const replay = await q.fa.issue(q.issuerKey, holderHeaders(forA), { schemaName: `${schemaName}:1`, credentialSubject: values });
    expect(replay).toEqual({ ok: false, status: 401, code: 'INVALID_SIGNATURE' });
    // Signed for issuer B, it works there.
    expect((await q.fa.issue(q.issuerKey, holderHeaders(await sign(issuerB)), { schemaName: `${schemaName}:1`, credentialSubject: values })).ok).toBe(true);
  });

  test('consent naming a schema cannot be used for another schema of the same issuer', async () => {
    const forSchema = await sign(issuerA, schemaName);
    const replay = await p.fa.issue(p.issuerKey, holderHeaders(forSchema), { schemaName: `${otherSchema}:1`, credentialSubject: values });
    expect(replay).toEqual({ ok: false, status: 401, code: 'INVALID_SIGNATURE' });
    expect((await p.fa.issue(p.issuerKey, holderHeaders(forSchema), { schemaName, credentialSubject: values })).ok).toBe(true);
    const versioned = await sign(issuerA, `${schemaName}:1`);
    expect((await p.fa.issue(p.issuerKey, holderHeaders(versioned), { schemaName: `${schemaName}:1`, credentialSubject: values })).ok).toBe(true);
  });

  test('the static userSignature is reported as static and replayable', async () => {
    const r = await verify({ publicKey: user.publicKey, userSignature: issued.userSignature }, { credentials: issued.vc });
    expect(r.success).toBe(true);
    expect(r.data.holderProof).toBe('STATIC_REPLAYABLE');
  });

  test('a challenge-bound holder proof verifies for its nonce and credential only', async () => {
    const proof = await challenge(issued.vc);
    const ok = await verify({ publicKey: user.publicKey }, { credentials: issued.vc, holderProof: proof });
    expect(ok).toMatchObject({ success: true, data: { holderProof: 'CHALLENGE_BOUND', reasons: [] } });
    // The verifier's next challenge: the captured proof does not answer it.
    const replayed = await verify({ publicKey: user.publicKey }, { credentials: issued.vc, holderProof: { ...proof, nonce: nonce() } });
    expect(replayed.success).toBe(false);
    expect(replayed.data.reasons.join(' ')).toMatch(/holder/);
    // A proof made for another credential of the same holder does not transfer.
    const second = unwrap(await p.fa.issue(p.issuerKey, holderHeaders(await sign(issuerA)), { schemaName: `${schemaName}:1`, credentialSubject: values }));
    const moved = await verify({ publicKey: user.publicKey }, { credentials: second.verifiableCredential, holderProof: await challenge(issued.vc, proof.nonce) });
    expect(moved.success).toBe(false);
    // Someone else's key cannot sign a proof for this credential.
    const stranger = await newHolder(p);
    const n = nonce();
    const theirs = unwrap(await p.fa.holderProof(p.holderKey, stranger.privateKey, { credentialId: issued.vc['id'], purpose: 'verify', nonce: n }));
    expect((await verify({ publicKey: stranger.publicKey }, { credentials: issued.vc, holderProof: { nonce: n, signature: theirs } })).success).toBe(false);
  });

  test('malformed holder proofs and missing holder evidence are 400 with a code', async () => {
    const id = issued.vc['id'] as string;
    const bad: [string, Parameters<typeof p.fa.holderProof>[2]][] = [
      ['short nonce', { credentialId: id, purpose: 'verify', nonce: 'abc' }],
      ['verify without nonce', { credentialId: id, purpose: 'verify' }],
      ['revoke with nonce', { credentialId: id, purpose: 'revoke', nonce: nonce() }],
      ['unknown purpose', { credentialId: id, purpose: 'present' as never, nonce: nonce() }],
      ['empty credential id', { credentialId: '', purpose: 'revoke' }],
    ];
    for (const [label, req] of bad) {
      expect({ label, out: await p.fa.holderProof(p.holderKey, user.privateKey, req) }).toEqual({ label, out: { ok: false, status: 400, code: 'INVALID_INPUT' } });
    }
    expect(await p.fa.holderProof(p.holderKey, 'not-a-key', { credentialId: id, purpose: 'revoke' })).toMatchObject({ ok: false, status: 400 });
    expect(await q.fa.verify(q.verifierKey, { publicKey: user.publicKey }, { credentials: issued.vc })).toMatchObject({ ok: false, status: 400, code: 'INVALID_INPUT' });
    for (const holderProof of [{ nonce: nonce() }, { nonce: 'x', signature: 'ab'.repeat(64) }, { nonce: nonce(), signature: 'zz' }]) {
      expect(await q.fa.verify(q.verifierKey, { publicKey: user.publicKey }, { credentials: issued.vc, holderProof })).toMatchObject({ ok: false, status: 400 });
    }
  });

  test('ZKP: the certificate signs the predicate, the evaluation time and the credential; verification reports them', async () => {
    const z = unwrap(await p.fa.createZkp(p.issuerKey, { credentials: issued.vc, age: { type: 'number', minimum: '0' }, verifyParams: ['name=Alice'] })) as ZkpOut;
    expect(z.certificate).toEqual({ age: true, 'name=Alice': true });
    const st = z.statement!;
    expect(st).toMatchObject({ credentialId: issued.vc['id'], issuer: issuerA, evaluatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    expect(st['predicates']).toEqual([
      { key: 'age', attribute: 'age', operator: 'range', minimum: '0', maximum: null, value: null, unit: null, equals: null, met: true },
      { key: 'name=Alice', attribute: 'name', operator: 'equals', minimum: null, maximum: null, value: null, unit: null, equals: 'Alice', met: true },
    ]);
    const cert = { certificate: z.certificate, zkpSignature: z.userSignature, publicKey: z.publicKey, userSignature: issued.userSignature, statement: st };
    const headers = { publicKey: user.publicKey, userSignature: issued.userSignature };
    const ok = await verify(headers, { credentials: issued.vc, zkpCertificate: cert }, true);
    expect(ok).toMatchObject({ success: true, data: { zkpMessage: z.certificate, zkpConditionsMet: true } });
    expect(ok.data.zkpResult).toEqual(st);
    // The strong path needs no static signature anywhere.
    const { userSignature: _static, ...noStatic } = cert;
    const strong = await verify({ publicKey: user.publicKey }, { credentials: issued.vc, zkpCertificate: noStatic, holderProof: await challenge(issued.vc) }, true);
    expect(strong).toMatchObject({ success: true, data: { holderProof: 'CHALLENGE_BOUND', zkpConditionsMet: true } });

    const raised = clone(st);
    raised['predicates'][0].minimum = '18';
    const later = { ...clone(st), evaluatedAt: '2030-01-01T00:00:00.000Z' };
    for (const statement of [raised, later]) {
      const r = await verify(headers, { credentials: issued.vc, zkpCertificate: { ...cert, statement } }, true);
      expect(r).toMatchObject({ success: false, data: { zkpMessage: null } });
      expect(r.data.reasons.join(' ')).toMatch(/ZKP certificate is invalid/);
    }
  });

  test('ZKP: a certificate as the interface reference has it (no statement) verifies against the statement stored under its signature; the booleans stay bound', async () => {
    const z = unwrap(await p.fa.createZkp(p.issuerKey, { credentials: issued.vc, age: { type: 'number', minimum: '18' }, verifyParams: ['name=Bob'] })) as ZkpOut;
    expect(z.certificate).toEqual({ age: true, 'name=Bob': false });
    const bare = { certificate: z.certificate, zkpSignature: z.userSignature, publicKey: z.publicKey, userSignature: issued.userSignature };
    const headers = { publicKey: user.publicKey, userSignature: issued.userSignature };
    // The stored statement is what is reported: the predicate and its bound, not just the boolean.
    const found = await verify(headers, { credentials: issued.vc, zkpCertificate: bare }, true);
    expect(found.data).toMatchObject({ zkpMessage: z.certificate, zkpConditionsMet: false, zkpResult: z.statement });
    expect(found.data.reasons.join(' ')).toMatch(/ZKP condition not met: name=Bob/);
    // A flipped boolean is not what the issuer signed.
    const flipped = await verify(headers, { credentials: issued.vc, zkpCertificate: { ...bare, certificate: { ...z.certificate, 'name=Bob': true } } }, true);
    expect(flipped).toMatchObject({ success: false, data: { zkpMessage: null } });
    expect(flipped.data.reasons.join(' ')).toMatch(/ZKP certificate is invalid: certificate differs/);
    // A signature the service never made (or made for nothing it kept) names no statement.
    const unknown = await verify(headers, { credentials: issued.vc, zkpCertificate: { ...bare, zkpSignature: 'ab'.repeat(64) } }, true);
    expect(unknown.data.reasons.join(' ')).toMatch(/ZKP certificate is invalid: zkpSignature names no certificate/);
    // The certificate of one credential does not transfer to another credential of the same holder.
    const other = unwrap(await p.fa.issue(p.issuerKey, holderHeaders(await sign(issuerA)), { schemaName: `${schemaName}:1`, credentialSubject: values }));
    const moved = await verify({ publicKey: user.publicKey, userSignature: other.userSignature }, { credentials: other.verifiableCredential, zkpCertificate: { ...bare, userSignature: other.userSignature } }, true);
    expect(moved.data.reasons.join(' ')).toMatch(/ZKP certificate is invalid: the statement is about another credential/);
  });

  test("the issuer's API key revokes with the issuance userSignature (no holder cooperation); a holder key cannot, nor a wrong signature", async () => {
    const r = unwrap(await p.fa.issue(p.issuerKey, holderHeaders(await sign(issuerA)), { schemaName: `${schemaName}:1`, credentialSubject: values }));
    const otherIssuance = unwrap(await p.fa.issue(p.issuerKey, holderHeaders(await sign(issuerA, schemaName)), { schemaName: `${schemaName}:1`, credentialSubject: values }));
    const vc = r.verifiableCredential;
    // Another issuance's signature does not name this credential, even from the issuer.
    expect(await p.fa.revoke(p.issuerKey, { publicKey: user.publicKey, userSignature: otherIssuance.userSignature }, vc)).toEqual({ ok: false, status: 401, code: 'INVALID_SIGNATURE' });
    // Another tenant's issuer does not see the credential at all.
    expect(await q.fa.revoke(q.issuerKey, { publicKey: user.publicKey, userSignature: r.userSignature }, vc)).toMatchObject({ ok: false, status: 404 });
    // A holder-scoped key still needs the holder's revocation proof.
    expect(await p.fa.revoke(p.holderKey, { publicKey: user.publicKey, userSignature: r.userSignature }, vc)).toEqual({ ok: false, status: 401, code: 'INVALID_SIGNATURE' });
    expect(await p.fa.revoke(p.issuerKey, { publicKey: user.publicKey, userSignature: r.userSignature.toUpperCase() }, vc)).toMatchObject({ ok: true });
    const after = await verify({ publicKey: user.publicKey, userSignature: r.userSignature }, { credentials: vc });
    expect(after.success).toBe(false);
    expect(after.data.reasons.join(' ')).toMatch(/revoked/);
    // The other credential is untouched.
    expect((await verify({ publicKey: user.publicKey, userSignature: otherIssuance.userSignature }, { credentials: otherIssuance.verifiableCredential })).success).toBe(true);
  });

  test('holder revocation needs a fresh revocation proof, not the static userSignature; then its ZKP certificates fail', async () => {
    const r = unwrap(await p.fa.issue(p.issuerKey, holderHeaders(await sign(issuerA)), { schemaName: `${schemaName}:1`, credentialSubject: values }));
    const vc = r.verifiableCredential;
    const z = unwrap(await p.fa.createZkp(p.issuerKey, { credentials: vc, age: { type: 'number', minimum: '18' } })) as ZkpOut;
    expect(await p.fa.revoke(p.holderKey, { publicKey: user.publicKey, userSignature: r.userSignature }, vc)).toEqual({ ok: false, status: 401, code: 'INVALID_SIGNATURE' });
    const verifyProof = unwrap(await p.fa.holderProof(p.holderKey, user.privateKey, { credentialId: vc['id'], purpose: 'verify', nonce: nonce() }));
    expect(await p.fa.revoke(p.holderKey, { publicKey: user.publicKey, userSignature: verifyProof }, vc)).toEqual({ ok: false, status: 401, code: 'INVALID_SIGNATURE' });
    const revokeProof = unwrap(await p.fa.holderProof(p.holderKey, user.privateKey, { credentialId: vc['id'], purpose: 'revoke' }));
    expect((await p.fa.revoke(p.holderKey, { publicKey: user.publicKey, userSignature: revokeProof }, vc)).ok).toBe(true);
    const cert = { certificate: z.certificate, zkpSignature: z.userSignature, publicKey: z.publicKey, userSignature: r.userSignature, statement: z.statement };
    const after = await verify({ publicKey: user.publicKey, userSignature: r.userSignature }, { credentials: vc, zkpCertificate: cert }, true);
    expect(after).toMatchObject({ success: false, data: { zkpMessage: null } });
    expect(after.data.reasons.join(' ')).toMatch(/revoked/);
  });
});
