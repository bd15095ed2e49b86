import { randomBytes } from 'node:crypto';
import { hexToBytes } from '../../src/domain/encoding';
import { CredgateGraphQLError } from '../../src/sdk';
import type { Outcome } from '../support/transports';
import { type Party, consent, newHolder, newParty, schemaBody, subject, unwrap } from '../support/family-a-fixtures';
import { MovableClock } from '../support/family-b-fixtures';
import { useTestServer } from '../support/harness';

/*
 * Issue 18, part Z2: POST /issuer/createZkp and POST /verifier/verify?zkpValidation=true with
 * proofSystem bbs-bulletproofs: the reference's `number` minimum/maximum and `date` value/unit
 * conditions proven in zero knowledge. The verifier sends no credential and no holder key; it gets
 * the per-attribute booleans. REST and GraphQL, the same assertions.
 */

jest.setTimeout(180_000);

const clock = new MovableClock();
const server = useTestServer(() => ({ clock }));
afterEach(() => clock.reset());

type Json = Record<string, any>;
const challenge = (verifierId = 'https://pharmacy.example') => ({ verifierId, nonce: randomBytes(16).toString('hex') });
const CONDITIONS = { age: { type: 'number', minimum: '18', maximum: '65' }, birthDate: { type: 'date', value: 18, unit: 'years' } };

/** createZkp with the additive fields: REST as the body; GraphQL with conditions gathered as the SDK takes them. */
async function createZk(name: string, p: Party, body: Json): Promise<Outcome<Json>> {
  if (name === 'REST') return p.fa.createZkp(p.issuerKey, body);
  const { credentials, verifyParams, proofSystem, verifierChallenge, ...conditions } = body;
  try {
    const input = { credentials, conditions, ...(verifyParams ? { verifyParams } : {}), ...(proofSystem ? { proofSystem } : {}), ...(verifierChallenge ? { verifierChallenge } : {}) };
    return { ok: true, data: (await server.sdk(p.issuerKey).createZkpCertificate({ input: input as never })).createZkpCertificate as Json };
  } catch (e) {
    if (!(e instanceof CredgateGraphQLError)) throw e;
    return { ok: false, status: (e.errors[0]?.extensions as Json | undefined)?.['status'] ?? e.httpStatus, code: e.code } as Outcome<Json>;
  }
}

describe.each(['REST', 'GraphQL'])('zero-knowledge ZKP certificates (bbs-bulletproofs) through %s', (name) => {
  let p: Party;
  let vc: Json;
  let asked: { verifierId: string; nonce: string };
  let z: Json;

  /** What the verifier sends: the proof, the issuer key, its challenge; no credential, no holder key. */
  const verifyZk = async (cert: Json, verifierChallenge: Json = asked) =>
    p.fa.verify(p.verifierKey, { publicKey: cert['publicKey'] } as never, { zkpCertificate: { certificate: cert['certificate'], zkpSignature: cert['userSignature'], publicKey: cert['publicKey'], proofSystem: 'bbs-bulletproofs' }, verifierChallenge }, true);

  beforeAll(async () => {
    p = await newParty(server, name);
    const user = await newHolder(p);
    const issuerDid = unwrap(await p.fa.issuerDid(p.issuerKey));
    const schemaName = `Zk${randomBytes(3).toString('hex')}`;
    unwrap(await p.fa.createSchema(p.issuerKey, schemaBody(schemaName)));
    const headers = await consent(p, user, issuerDid, subject());
    vc = unwrap(await p.fa.issue(p.issuerKey, headers, { schemaName: `${schemaName}:1`, credentialSubject: subject() })).verifiableCredential as Json;
    asked = challenge();
    z = unwrap(await createZk(name, p, { credentials: vc, ...CONDITIONS, proofSystem: 'bbs-bulletproofs', verifierChallenge: asked }));
  });

  test('the conditions are proven; the verifier, given no credential, learns the booleans', async () => {
    expect(z).toMatchObject({ certificate: { age: true, birthDate: true }, proofSystem: 'bbs-bulletproofs' });
    expect(z['statement'] ?? null).toBeNull();
    expect(Buffer.from(z['publicKey'] as string, 'base64')).toHaveLength(96);
    const out = unwrap(await verifyZk(z));
    expect(out.success).toBe(true);
    expect(out.data).toMatchObject({ isVCValid: 'Success', isIssuerDIDValid: 'Success', zkpMessage: { age: true, birthDate: true } });
    expect((out.data as Json)['proofSystem']).toBe('bbs-bulletproofs');
  });

  test("the verifier's input holds no hidden value", () => {
    const envelope = JSON.parse(Buffer.from(hexToBytes(z['userSignature'] as string)).toString('utf8')) as { statement: Json; proof: string };
    const { evaluatedAt: _at, ...rest } = envelope.statement;
    const readable = JSON.stringify({ rest, certificate: z['certificate'] });
    const s = subject();
    for (const text of [...['birthDate', 'name', 'email', 'employeeId'].map((k) => s[k] as string), vc['id'] as string]) {
      expect(readable).not.toContain(text);
      expect((z['userSignature'] as string).toLowerCase()).not.toContain(Buffer.from(text, 'utf8').toString('hex'));
    }
    expect(readable).not.toMatch(new RegExp(`\\b${s['age'] as string}\\b`));
  });

  test('a false condition cannot be proven (422), a replay with another nonce or verifier fails, a tampered proof fails', async () => {
    const tooOld = await createZk(name, p, { credentials: vc, age: { type: 'number', minimum: '40' }, proofSystem: 'bbs-bulletproofs', verifierChallenge: challenge() });
    expect(tooOld).toMatchObject({ ok: false, status: 422, code: 'PREDICATE_NOT_MET' });
    const replay = unwrap(await verifyZk(z, { ...asked, nonce: randomBytes(16).toString('hex') }));
    expect(replay.success).toBe(false);
    expect(replay.data.zkpMessage).toBeNull();
    expect(unwrap(await verifyZk(z, { ...asked, verifierId: 'https://elsewhere.example' })).success).toBe(false);
    const env = JSON.parse(Buffer.from(hexToBytes(z['userSignature'] as string)).toString('utf8')) as { statement: Json; proof: string };
    const proof = Buffer.from(env.proof, 'base64');
    proof[40]! ^= 1;
    const tampered = Buffer.from(JSON.stringify({ proof: proof.toString('base64'), statement: env.statement }), 'utf8').toString('hex');
    expect(unwrap(await verifyZk({ ...z, userSignature: tampered })).success).toBe(false);
    clock.advance(10 * 60 * 1000);
    expect(unwrap(await verifyZk(z)).success).toBe(false);
  });

  test('malformed proofs and oversized predicates are 400; bad input stores nothing and breaks nothing', async () => {
    const stored = async (): Promise<number> => Number((await server.app.db.prisma.$queryRawUnsafe<{ n: bigint }[]>('SELECT count(*) AS n FROM zkp_certificates'))[0]!.n);
    const before = await stored();
    const bad = await verifyZk({ ...z, userSignature: 'deadbeef' });
    expect(bad).toMatchObject({ ok: false, status: 400 });
    const oversized = await createZk(name, p, { credentials: vc, age: { type: 'number', minimum: '9999999999999999' }, proofSystem: 'bbs-bulletproofs', verifierChallenge: challenge() });
    expect(oversized).toMatchObject({ ok: false, status: 400 });
    const noChallenge = await createZk(name, p, { credentials: vc, ...CONDITIONS, proofSystem: 'bbs-bulletproofs' });
    expect(noChallenge).toMatchObject({ ok: false, status: 400 });
    const withParams = await createZk(name, p, { credentials: vc, ...CONDITIONS, verifyParams: ['name=Alice'], proofSystem: 'bbs-bulletproofs', verifierChallenge: challenge() });
    expect(withParams).toMatchObject({ ok: false, status: 400 });
    expect(unwrap(await verifyZk(z)).success).toBe(true);
    // A zero-knowledge certificate is never stored (unlike an attestation's statement), good or bad.
    unwrap(await createZk(name, p, { credentials: vc, age: { type: 'number', minimum: '18' }, proofSystem: 'bbs-bulletproofs', verifierChallenge: challenge() }));
    expect(await stored()).toBe(before);
  });

  test('a revoked credential can no longer prove', async () => {
    const user = await newHolder(p);
    const issuerDid = unwrap(await p.fa.issuerDid(p.issuerKey));
    const schemaName = `ZkR${randomBytes(3).toString('hex')}`;
    unwrap(await p.fa.createSchema(p.issuerKey, schemaBody(schemaName)));
    const headers = await consent(p, user, issuerDid, subject());
    const issued = unwrap(await p.fa.issue(p.issuerKey, headers, { schemaName: `${schemaName}:1`, credentialSubject: subject() }));
    unwrap(await p.fa.revoke(p.issuerKey, { publicKey: user.publicKey, userSignature: issued.userSignature }, issued.verifiableCredential as Json));
    const out = await createZk(name, p, { credentials: issued.verifiableCredential, ...CONDITIONS, proofSystem: 'bbs-bulletproofs', verifierChallenge: challenge() });
    expect(out.ok).toBe(false);
    expect(!out.ok && out.status >= 400 && out.status < 500).toBe(true);
  });

  test('the default stays the attestation, and says so', async () => {
    const att = unwrap(await createZk(name, p, { credentials: vc, age: { type: 'number', minimum: '18' } }));
    expect(att).toMatchObject({ certificate: { age: true }, proofSystem: 'attestation' });
  });
});
