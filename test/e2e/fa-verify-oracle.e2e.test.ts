import { randomBytes } from 'node:crypto';
import { encodeTemplate } from '../../src/biometrics/template-format';
import { CREDGATE_VOCAB } from '../../src/domain/contexts';
import { useTestServer } from '../support/harness';
import type { Verification, ZkpOut } from '../support/family-a-transports';
import { FAMILY_A_TRANSPORTS, type Holder, type Party, consent, newHolder, newParty, schemaBody, subject, unwrap } from '../support/family-a-fixtures';

/**
 * Attacks on POST /verifier/verify (and query verifyCredential): the verification oracle, context
 * substitution, zkpValidation hiding verifyParams, a false ZKP condition read as valid, and the
 * successor of a superseded credential named to strangers.
 */
const server = useTestServer();

type Doc = Record<string, any>;
const clone = (d: Doc): Doc => JSON.parse(JSON.stringify(d)) as Doc;

/** A synthetic face template of this service's model: no face engine needed to compare two. */
const face = (seed: number, noise = 0): string => encodeTemplate(Array.from({ length: 128 }, (_, i) => Math.sin(seed * 31 + i) * 0.1 + (i % 2 ? noise : -noise)));

/** What a verifier copies from createZkp into zkpCertificate, whatever extra fields the service returns. */
const zkpCertificateOf = (z: ZkpOut & Record<string, unknown>, userSignature: string): Record<string, unknown> => {
  const { userSignature: zkpSignature, ...rest } = z;
  return { ...rest, zkpSignature, userSignature };
};

describe.each(FAMILY_A_TRANSPORTS)('verification attacks through %s', (name) => {
  let p: Party;
  let attacker: Party;
  let user: Holder;
  let issuerDid: string;
  let schemaName: string;
  let enc: { vc: Doc; userSignature: string };
  let withFace: { vc: Doc; userSignature: string };
  const gallery = face(1);

  const verifyAs = async (party: Party, headers: { publicKey: string; userSignature: string }, body: Record<string, unknown>, zkp?: boolean): Promise<Verification> =>
    unwrap(await party.fa.verify(party.verifierKey, headers, body, zkp));
  const asHolder = (userSignature: string) => ({ publicKey: user.publicKey, userSignature });

  beforeAll(async () => {
    p = await newParty(server, name);
    attacker = await newParty(server, name);
    user = await newHolder(p);
    issuerDid = unwrap(await p.fa.issuerDid(p.issuerKey));
    schemaName = `Oracle${randomBytes(3).toString('hex')}`;
    unwrap(await p.fa.createSchema(p.issuerKey, schemaBody(schemaName)));
    const headers = await consent(p, user, issuerDid, subject());
    const e = unwrap(await p.fa.issue(p.issuerKey, headers, { schemaName: `${schemaName}:1`, isEncrypted: true, credentialSubject: subject() }));
    enc = { vc: e.verifiableCredential, userSignature: e.userSignature };
    const f = unwrap(await p.fa.issue(p.issuerKey, headers, { schemaName: `${schemaName}:1`, credentialSubject: subject(), faceTemplate: gallery } as never));
    withFace = { vc: f.verifiableCredential, userSignature: f.userSignature };
  });

  test('the genuine encrypted credential with its holder proof verifies (baseline)', async () => {
    expect((await verifyAs(attacker, asHolder(enc.userSignature), { credentials: enc.vc })).success).toBe(true);
  });

  test('oracle: a tampered credential answers the same for a right and a wrong guess of an encrypted value', async () => {
    const forged = clone(enc.vc);
    forged['issuanceDate'] = '2020-01-01T00:00:00Z';
    for (const headers of [asHolder(enc.userSignature), { publicKey: (await newHolder(attacker)).publicKey, userSignature: 'ab'.repeat(64) }]) {
      const right = await verifyAs(attacker, headers, { credentials: forged, verifyParams: ['age=30', 'name=Alice'] });
      const wrong = await verifyAs(attacker, headers, { credentials: forged, verifyParams: ['age=31', 'name=Alicf'] });
      expect(right.success).toBe(false);
      expect(wrong).toEqual(right);
      expect(JSON.stringify(right)).not.toMatch(/verifyParams do not match/);
    }
  });

  test('oracle: the genuine credential with a wrong holder proof answers the same for right and wrong guesses', async () => {
    const stranger = await newHolder(attacker);
    for (const headers of [{ publicKey: stranger.publicKey, userSignature: enc.userSignature }, asHolder('cd'.repeat(64))]) {
      const right = await verifyAs(attacker, headers, { credentials: enc.vc, verifyParams: ['age=30'] });
      const wrong = await verifyAs(attacker, headers, { credentials: enc.vc, verifyParams: ['age=31'] });
      expect(right.success).toBe(false);
      expect(wrong).toEqual(right);
    }
  });

  test('oracle: no face comparison for a tampered credential or a wrong holder proof (near and far probes answer alike)', async () => {
    const forged = clone(withFace.vc);
    forged['expirationDate'] = '2099-01-01T00:00:00Z';
    const cases: [Doc, { publicKey: string; userSignature: string }][] = [
      [forged, asHolder(withFace.userSignature)],
      [withFace.vc, asHolder('ef'.repeat(64))],
    ];
    for (const [vc, headers] of cases) {
      const near = await verifyAs(attacker, headers, { credentials: vc, probeTemplate: face(1, 0.001) });
      const far = await verifyAs(attacker, headers, { credentials: vc, probeTemplate: face(7) });
      expect(near.success).toBe(false);
      expect(far).toEqual(near);
      expect(JSON.stringify(near)).not.toMatch(/distance|"score"|score \(/i);
    }
  });

  test('no continuous biometric score leaves the service: match or no match only', async () => {
    const near = await verifyAs(attacker, asHolder(withFace.userSignature), { credentials: withFace.vc, probeTemplate: face(1, 0.001) });
    const far = await verifyAs(attacker, asHolder(withFace.userSignature), { credentials: withFace.vc, probeTemplate: face(7) });
    expect(near).toMatchObject({ success: true, data: { biometricMatchScore: 'Match' } });
    expect(far).toMatchObject({ success: false, data: { biometricMatchScore: 'No Match' } });
    for (const r of [near, far]) {
      const text = JSON.stringify(r);
      expect(text).not.toMatch(/distance|score \(|"score"/i);
      expect(r.data.reasons.join(' ')).not.toMatch(/\d\.\d/);
    }
  });

  test('oracle: a tampered credential reveals nothing about the record its id names (existence, status, successor)', async () => {
    const values = { ...subject(), email: 'alice@two.example.com' };
    const headers = await consent(p, user, issuerDid, values);
    const first = unwrap(await p.fa.issue(p.issuerKey, headers, { schemaName: `${schemaName}:1`, credentialSubject: values }));
    unwrap(await p.fa.reissue(p.issuerKey, headers, { schemaName: `${schemaName}:1`, credentialSubject: values }, first.verifiableCredential));
    const tamper = (vc: Doc, id?: string): Doc => ({ ...clone(vc), issuanceDate: '2020-01-01T00:00:00Z', ...(id ? { id } : {}) });
    const answers = [];
    for (const vc of [tamper(first.verifiableCredential), tamper(enc.vc), tamper(enc.vc, `${schemaName}:1:00000000-0000-4000-8000-000000000000`)]) {
      const r = await verifyAs(attacker, asHolder(first.userSignature), { credentials: vc });
      expect(r.success).toBe(false);
      answers.push(r.data.reasons);
    }
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
  });

  test('context pinning: an appended inline @context that swaps birthDate and issueDate does not verify', async () => {
    const s = `Passport${randomBytes(3).toString('hex')}`;
    const body = schemaBody(s);
    body.attributes.attributes = [
      { attributeName: 'name', type: 'alphabet', description: 'Name', required: true },
      { attributeName: 'birthDate', type: 'date', description: 'Born', required: true },
      { attributeName: 'issueDate', type: 'date', description: 'Issued', required: true },
    ];
    unwrap(await p.fa.createSchema(p.issuerKey, body));
    const values = { name: 'Alice', birthDate: '1990-05-17', issueDate: '2020-01-02' };
    const headers = await consent(p, user, issuerDid, values);
    const issued = unwrap(await p.fa.issue(p.issuerKey, headers, { schemaName: `${s}:1`, credentialSubject: values }));
    expect((await verifyAs(attacker, asHolder(issued.userSignature), { credentials: issued.verifiableCredential })).success).toBe(true);
    const swapped = clone(issued.verifiableCredential);
    swapped['@context'] = [...swapped['@context'], { birthDate: `${CREDGATE_VOCAB}issueDate`, issueDate: `${CREDGATE_VOCAB}birthDate` }];
    swapped['credentialSubject'][0] = { ...swapped['credentialSubject'][0], birthDate: values.issueDate, issueDate: values.birthDate };
    const r = await verifyAs(attacker, asHolder(issued.userSignature), { credentials: swapped });
    expect(r.success).toBe(false);
    expect(r.data.reasons.join(' ')).toMatch(/@context/);
    const extraUrl = clone(issued.verifiableCredential);
    extraUrl['@context'] = [...extraUrl['@context'], 'https://www.w3.org/2018/credentials/v1'];
    expect((await verifyAs(attacker, asHolder(issued.userSignature), { credentials: extraUrl })).data.reasons.join(' ')).toMatch(/@context/);
  });

  test('zkpValidation=true still evaluates verifyParams: a wrong age=99 beside a valid certificate fails', async () => {
    const z = unwrap(await p.fa.createZkp(p.issuerKey, { credentials: enc.vc, age: { type: 'number', minimum: '18' } }));
    const zkpCertificate = zkpCertificateOf(z as never, enc.userSignature);
    const good = await verifyAs(attacker, asHolder(enc.userSignature), { credentials: enc.vc, zkpCertificate, verifyParams: ['age=30'] }, true);
    expect(good.success).toBe(true);
    const bad = await verifyAs(attacker, asHolder(enc.userSignature), { credentials: enc.vc, zkpCertificate, verifyParams: ['age=99'] }, true);
    expect(bad.success).toBe(false);
    expect(bad.data.reasons.join(' ')).toMatch(/verifyParams do not match: age/);
  });

  test('a ZKP condition that is false is not reported as a valid credential; message and result agree', async () => {
    const z = unwrap(await p.fa.createZkp(p.issuerKey, { credentials: enc.vc, age: { type: 'number', minimum: '40' } }));
    expect(z.certificate).toEqual({ age: false });
    const r = await verifyAs(attacker, asHolder(enc.userSignature), { credentials: enc.vc, zkpCertificate: zkpCertificateOf(z as never, enc.userSignature) }, true);
    expect(r.success).toBe(false);
    expect(r.message).not.toMatch(/credential is valid/);
    expect(r.message).toMatch(/ZKP condition/);
    expect(r.data).toMatchObject({ zkpMessage: { age: false }, zkpConditionsMet: false });
  });

  test('a superseded credential names its successor only to the issuer tenant', async () => {
    const values = { ...subject(), email: 'alice@one.example.com' };
    const headers = await consent(p, user, issuerDid, values);
    const first = unwrap(await p.fa.issue(p.issuerKey, headers, { schemaName: `${schemaName}:1`, credentialSubject: values }));
    const next = unwrap(await p.fa.reissue(p.issuerKey, headers, { schemaName: `${schemaName}:1`, credentialSubject: values }, first.verifiableCredential));
    const successor = next.verifiableCredential['id'] as string;
    const stranger = await verifyAs(attacker, asHolder(first.userSignature), { credentials: first.verifiableCredential });
    expect(stranger.success).toBe(false);
    expect(stranger.data.reasons.join(' ')).toMatch(/superseded/);
    expect(JSON.stringify(stranger)).not.toContain(successor);
    const own = await verifyAs(p, asHolder(first.userSignature), { credentials: first.verifiableCredential });
    expect(own.data.reasons.join(' ')).toContain(successor);
  });
});
