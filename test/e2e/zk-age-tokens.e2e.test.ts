import { randomBytes } from 'node:crypto';
import { hexToBytes } from '../../src/domain/encoding';
import { OFFSET, dayNumber } from '../../src/zk/encoding';
import { unwrap } from '../support/family-a-fixtures';
import { type FbParty, MovableClock, fbParty } from '../support/family-b-fixtures';
import { useTestServer } from '../support/harness';

/*
 * Issue 18, part Z2: POST /createZkpToken and /verifyZkpToken with proofSystem bbs-bulletproofs.
 * The token is a BBS signature proof with Bulletproofs++ range proofs (birth date early enough,
 * signature still valid), bound to the verifier's challenge; the verifier learns the boolean and
 * the issuer, nothing else. Every scenario runs through REST and GraphQL with the same assertions.
 */

jest.setTimeout(180_000);

const clock = new MovableClock();
const server = useTestServer(() => ({ clock }));
afterEach(() => clock.reset());

type Json = Record<string, any>;

/** A birth date `years` years (and `days` days) before today, as a template date value. */
function bornYearsAgo(years: number, days = 0): string {
  const now = new Date();
  const d = new Date(Date.UTC(now.getUTCFullYear() - years, now.getUTCMonth(), now.getUTCDate() - days));
  return d.toISOString().slice(0, 10);
}

const challenge = (verifierId = 'https://shop.example/verifier') => ({ verifierId, nonce: randomBytes(16).toString('hex') });

function tokenText(zkpToken: string): string {
  return Buffer.from(hexToBytes(zkpToken)).toString('utf8');
}

/** The same token with one byte of its proof changed (the envelope stays well formed). */
function tamper(zkpToken: string): string {
  const env = JSON.parse(tokenText(zkpToken)) as { statement: Json; proof: string };
  const proof = Buffer.from(env.proof, 'base64');
  proof[Math.floor(proof.length / 2)]! ^= 0x01;
  return Buffer.from(JSON.stringify({ proof: proof.toString('base64'), statement: env.statement }), 'utf8').toString('hex');
}

/** The token with its statement edited (and re-serialised canonically: keys sorted). */
function editStatement(zkpToken: string, edit: (s: Json) => void): string {
  const env = JSON.parse(tokenText(zkpToken)) as { statement: Json; proof: string };
  edit(env.statement);
  const sortKeys = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(sortKeys) : v !== null && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys((v as Json)[k])])) : v;
  return Buffer.from(JSON.stringify(sortKeys({ proof: env.proof, statement: env.statement })), 'utf8').toString('hex');
}

describe.each(['REST', 'GraphQL'])('zero-knowledge ZKP tokens (bbs-bulletproofs) through %s', (name) => {
  let party: FbParty;
  let adult: Json;
  const adultBirth = bornYearsAgo(20, 3);
  let token: { zkpToken: string; zkpData: Json; publicKey: string; proofSystem?: string };
  let asked: { verifierId: string; nonce: string };

  const verify = (body: Json) => party.t.verifyZkpToken(party.keys.verifier, { proofSystem: 'bbs-bulletproofs', ...body });

  beforeAll(async () => {
    party = await fbParty(server, name);
    adult = await party.issue({ name: 'Ada Adult', birthDate: adultBirth, employeeNo: 424242 });
    asked = challenge();
    token = unwrap(await party.t.createZkpToken(party.keys.issuer, { credentialId: adult['id'], condition: { age: 18 }, proofSystem: 'bbs-bulletproofs', verifierChallenge: asked }));
  });

  test('an adult proves age >= 18; the verifier learns the boolean and the issuer, not the age or the credential', async () => {
    expect(token.proofSystem).toBe('bbs-bulletproofs');
    expect(token.zkpData).toMatchObject({ condition: { age: 18 }, conditionMet: true });
    expect(token.zkpData['calculatedAge'] ?? null).toBeNull();
    expect(token.publicKey).toMatch(/^[0-9a-f]{192}$/);
    const out = unwrap(await verify({ zkpToken: token.zkpToken, zkpData: { condition: { age: 18 }, conditionMet: true }, publicKey: token.publicKey, verifierChallenge: asked }));
    expect(out).toMatchObject({ success: true, conditionMet: true, proofSystem: 'bbs-bulletproofs', issuer: party.issuer.did });
    expect((out as Json)['calculatedAge'] ?? null).toBeNull();
    expect((out as Json)['credentialId'] ?? null).toBeNull();
    expect((out as Json)['holder'] ?? null).toBeNull();
  });

  test("the verifier's input contains none of the hidden values (searched in the text, the hex and the proof bytes)", () => {
    const input = JSON.stringify({ zkpToken: token.zkpToken, zkpData: token.zkpData, publicKey: token.publicKey });
    const envelope = JSON.parse(tokenText(token.zkpToken)) as { statement: Json; proof: string };
    expect(Object.keys(envelope).sort()).toEqual(['proof', 'statement']);
    // Everything readable the verifier gets: the statement and zkpData (the proof and key are binary).
    const readable = JSON.stringify({ statement: envelope.statement, zkpData: token.zkpData });
    const proof = Buffer.from(envelope.proof, 'base64');
    const [y, m, d] = adultBirth.split('-').map(Number) as [number, number, number];
    const day = dayNumber({ year: y, month: m, day: d });
    const age = new Date().getUTCFullYear() - y - 1;
    for (const text of [adultBirth, adultBirth.replaceAll('-', ''), 'Ada Adult', adult['id'] as string, party.holder.did]) {
      expect(readable).not.toContain(text);
      expect(input.toLowerCase()).not.toContain(Buffer.from(text, 'utf8').toString('hex'));
      expect(proof.includes(Buffer.from(text, 'utf8'))).toBe(false);
    }
    for (const n of [day, OFFSET + day, 424242, OFFSET + 424242]) {
      expect(readable).not.toMatch(new RegExp(`\\b${n}\\b`));
      // The signed encodings (64-bit integers, either byte order) are not in the proof either.
      const le = Buffer.alloc(8);
      le.writeBigUInt64LE(BigInt(n));
      const be = Buffer.alloc(8);
      be.writeBigUInt64BE(BigInt(n));
      expect(proof.includes(le) || proof.includes(be)).toBe(false);
    }
    expect(readable).not.toMatch(new RegExp(`"(calculatedAge|age)":${age}\\b`));
    expect(readable).not.toMatch(/"calculatedAge":[0-9]/);
  });

  test('a 17-year-old cannot get a proof: the service refuses to prove a false statement', async () => {
    const minor = await party.issue({ name: 'Mia Minor', birthDate: bornYearsAgo(17, 200), employeeNo: 5 });
    const out = await party.t.createZkpToken(party.keys.issuer, { credentialId: minor['id'], condition: { age: 18 }, proofSystem: 'bbs-bulletproofs', verifierChallenge: challenge() });
    expect(out).toMatchObject({ ok: false, status: 422, code: 'PREDICATE_NOT_MET' });
  });

  test("a forged statement fails: the adult's proof does not prove age >= 25, nor for another attribute", async () => {
    const older = editStatement(token.zkpToken, (s) => {
      s['condition'] = { age: 25 };
    });
    expect(await verify({ zkpToken: older, zkpData: { condition: { age: 25 }, conditionMet: true }, publicKey: token.publicKey, verifierChallenge: asked })).toMatchObject({ ok: false, status: 400, code: 'VERIFICATION_FAILED' });
    const otherAttribute = editStatement(token.zkpToken, (s) => {
      s['attribute'] = 'employeeNo';
    });
    expect(await verify({ zkpToken: otherAttribute, zkpData: { condition: { age: 18 }, conditionMet: true }, publicKey: token.publicKey, verifierChallenge: asked })).toMatchObject({ ok: false, status: 400, code: 'VERIFICATION_FAILED' });
    // The verifier states what it asks: a genuine proof of age >= 18 is no answer to age >= 21.
    expect(await verify({ zkpToken: token.zkpToken, zkpData: { condition: { age: 21 }, conditionMet: true }, publicKey: token.publicKey, verifierChallenge: asked })).toMatchObject({ ok: false, status: 400, code: 'VERIFICATION_FAILED' });
  });

  test('replayed with another nonce, to another verifier, or later, it fails', async () => {
    const body = { zkpToken: token.zkpToken, zkpData: { condition: { age: 18 }, conditionMet: true }, publicKey: token.publicKey };
    expect(await verify({ ...body, verifierChallenge: { ...asked, nonce: randomBytes(16).toString('hex') } })).toMatchObject({ ok: false, status: 400, code: 'VERIFICATION_FAILED' });
    expect(await verify({ ...body, verifierChallenge: { ...asked, verifierId: 'https://other.example/verifier' } })).toMatchObject({ ok: false, status: 400, code: 'VERIFICATION_FAILED' });
    // Rewriting the statement's challenge to the new one does not help: it is bound into the proof.
    const fresh = challenge();
    const rebound = editStatement(token.zkpToken, (s) => {
      s['verifier'] = { id: fresh.verifierId, nonce: fresh.nonce };
    });
    expect(await verify({ ...body, zkpToken: rebound, verifierChallenge: fresh })).toMatchObject({ ok: false, status: 400, code: 'VERIFICATION_FAILED' });
    clock.advance(6 * 60 * 1000);
    expect(await verify({ ...body, verifierChallenge: asked })).toMatchObject({ ok: false, status: 400, code: 'VERIFICATION_FAILED' });
  });

  test('a tampered proof fails; a proof checked under another key fails', async () => {
    const body = { zkpData: { condition: { age: 18 }, conditionMet: true }, verifierChallenge: asked };
    expect(await verify({ ...body, zkpToken: tamper(token.zkpToken), publicKey: token.publicKey })).toMatchObject({ ok: false, status: 400, code: 'VERIFICATION_FAILED' });
    const otherKey = `${token.publicKey.slice(0, 190)}${token.publicKey.endsWith('00') ? '01' : '00'}`;
    expect(await verify({ ...body, zkpToken: token.zkpToken, publicKey: otherKey })).toMatchObject({ ok: false, status: 400 });
  });

  test('a revoked credential can no longer prove', async () => {
    const cred = await party.issue({ name: 'Rex Revoked', birthDate: bornYearsAgo(30), employeeNo: 9 });
    unwrap(await party.t.revoke(party.keys.issuer, cred['id']));
    const out = await party.t.createZkpToken(party.keys.issuer, { credentialId: cred['id'], condition: { age: 18 }, proofSystem: 'bbs-bulletproofs', verifierChallenge: challenge() });
    expect(out).toMatchObject({ ok: false, status: 400 });
  });

  test('malformed tokens, challenges and oversized predicates are 4xx', async () => {
    const body = { zkpData: { condition: { age: 18 }, conditionMet: true }, publicKey: token.publicKey, verifierChallenge: asked };
    for (const zkpToken of ['zz', 'abcd', Buffer.from('{"proof":"","statement":{}}').toString('hex'), 'a'.repeat(70_000)]) {
      const out = await verify({ ...body, zkpToken });
      expect(out.ok).toBe(false);
      expect(!out.ok && out.status >= 400 && out.status < 500).toBe(true);
    }
    const create = (extra: Json) => party.t.createZkpToken(party.keys.issuer, { credentialId: adult['id'], condition: { age: 18 }, proofSystem: 'bbs-bulletproofs', verifierChallenge: challenge(), ...extra });
    for (const extra of [{ condition: { age: 151 } }, { condition: { age: 18, extra: 1 } }, { verifierChallenge: { verifierId: 'v', nonce: 'short' } }, { verifierChallenge: undefined }, { proofSystem: 'groth16' }]) {
      const out = await create(extra);
      expect(out.ok).toBe(false);
      expect(!out.ok && out.status >= 400 && out.status < 500).toBe(true);
    }
  });

  test('per-verifier pseudonym: stable for one verifier, different for another verifier or credential, and proven', async () => {
    const other = await party.issue({ name: 'Otto Other', birthDate: bornYearsAgo(40), employeeNo: 1 });
    const pseudonymFor = async (credentialId: string, verifierId: string): Promise<string> => {
      const c = challenge(verifierId);
      const t = unwrap(await party.t.createZkpToken(party.keys.issuer, { credentialId, condition: { age: 18 }, proofSystem: 'bbs-bulletproofs', verifierChallenge: c, pseudonym: true }));
      const out = unwrap(await verify({ zkpToken: t.zkpToken, zkpData: { condition: { age: 18 }, conditionMet: true }, publicKey: t.publicKey, verifierChallenge: c })) as Json;
      expect(out['pseudonym']).toMatch(/^[A-Za-z0-9+/]{64}$/);
      return out['pseudonym'] as string;
    };
    const shopA1 = await pseudonymFor(adult['id'] as string, 'https://shop-a.example');
    const shopA2 = await pseudonymFor(adult['id'] as string, 'https://shop-a.example');
    const shopB = await pseudonymFor(adult['id'] as string, 'https://shop-b.example');
    const otherAtA = await pseudonymFor(other['id'] as string, 'https://shop-a.example');
    expect(shopA2).toBe(shopA1);
    expect(shopB).not.toBe(shopA1);
    expect(otherAtA).not.toBe(shopA1);
    // Claiming another credential's pseudonym in the statement does not verify.
    const c = challenge('https://shop-a.example');
    const t = unwrap(await party.t.createZkpToken(party.keys.issuer, { credentialId: adult['id'], condition: { age: 18 }, proofSystem: 'bbs-bulletproofs', verifierChallenge: c, pseudonym: true }));
    const swapped = editStatement(t.zkpToken, (st) => {
      st['pseudonym'] = otherAtA;
    });
    expect(await verify({ zkpToken: swapped, zkpData: { condition: { age: 18 }, conditionMet: true }, publicKey: t.publicKey, verifierChallenge: c })).toMatchObject({ ok: false, status: 400, code: 'VERIFICATION_FAILED' });
  });

  test('the default is unchanged: without proofSystem the token is the attestation, and says so', async () => {
    const att = unwrap(await party.t.createZkpToken(party.keys.issuer, { credentialId: adult['id'], condition: { age: 18 } }));
    expect(att.zkpData).toMatchObject({ conditionMet: true, calculatedAge: 20 });
    expect((att as Json)['proofSystem']).toBe('attestation');
    const out = unwrap(await party.t.verifyZkpToken(party.keys.verifier, att));
    expect(out).toMatchObject({ success: true, conditionMet: true, calculatedAge: 20, proofSystem: 'attestation' });
  });
});
