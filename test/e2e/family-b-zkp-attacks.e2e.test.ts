import { canonicalBytes } from '../../src/domain/canonical';
import { bytesToHex, hexToBytes } from '../../src/domain/encoding';
import { secp256k1SignMessage } from '../../src/domain/keys';
import { unwrap } from '../support/family-a-fixtures';
import { type FbParty, MovableClock, fbParty } from '../support/family-b-fixtures';
import { useTestServer } from '../support/harness';

/*
 * Attacks on POST /verifyZkpToken (issue 8, "ZKP tokens", "Revocation reaches derived things").
 * The attacker is another tenant: they register their own DID (POST /dids) with a key they hold,
 * take the format of a genuine token of their own, and sign "condition met" claims about a
 * credential they did not issue.
 */

const clock = new MovableClock();
const server = useTestServer(() => ({ clock }));
afterEach(() => clock.reset());

type Json = Record<string, any>;
type Token = { zkpToken: string; zkpData: Json; publicKey: string };

function openToken(zkpToken: string): { claims: Json; sig: string } {
  return JSON.parse(Buffer.from(hexToBytes(zkpToken)).toString('utf8')) as { claims: Json; sig: string };
}

/** Re-signs edited claims with `privateKey`: what anyone holding a registered key can do. */
function forge(genuine: Token, edit: (claims: Json) => void, privateKey: string, publicKey: string): Token {
  const { claims } = openToken(genuine.zkpToken);
  edit(claims);
  const sig = bytesToHex(secp256k1SignMessage(canonicalBytes(claims), hexToBytes(privateKey)));
  return { zkpToken: bytesToHex(canonicalBytes({ claims, sig })), zkpData: claims['zkpData'] as Json, publicKey };
}

describe.each(['REST', 'GraphQL'])('Family B ZKP token attacks through %s', (name) => {
  let victim: FbParty;
  let attacker: FbParty;
  let victimCredential: Json;
  let attackerToken: Token;

  beforeAll(async () => {
    victim = await fbParty(server, name);
    attacker = await fbParty(server, name);
    victimCredential = await victim.issue({ name: 'Young Victim', birthDate: '2015-01-01', employeeNo: 1 });
    const own = await attacker.issue();
    attackerToken = unwrap(await attacker.t.createZkpToken(attacker.keys.issuer, { credentialId: own['id'], condition: { age: 18 } }));
  });

  test("a key registered through POST /dids cannot sign for someone else's (or a made-up) credential", async () => {
    const adult = (claims: Json) => {
      claims['zkpData'] = { condition: { age: 40 }, conditionMet: true, calculatedAge: 40 };
    };
    const forged = forge(attackerToken, (c) => {
      adult(c);
      c['credentialId'] = victimCredential['id'];
      if ('holder' in c) c['holder'] = victim.holder.did;
    }, attacker.issuer.privateKey, attacker.issuer.publicKey);
    const out = await victim.t.verifyZkpToken(victim.keys.verifier, forged);
    expect(out).toMatchObject({ ok: false, status: 400 });
    expect(!out.ok && out.message).toMatch(/issuer/);
    const madeUp = forge(attackerToken, (c) => {
      adult(c);
      c['credentialId'] = 'urn:uuid:00000000-0000-4000-8000-000000000000';
    }, attacker.issuer.privateKey, attacker.issuer.publicKey);
    expect(await victim.t.verifyZkpToken(victim.keys.verifier, madeUp)).toMatchObject({ ok: false, status: 400 });
    // Naming the victim's issuer DID as the signer does not help either: the key is not its key.
    const asVictimIssuer = forge(attackerToken, (c) => {
      adult(c);
      c['credentialId'] = victimCredential['id'];
      c['issuer'] = victim.issuer.did;
    }, attacker.issuer.privateKey, attacker.issuer.publicKey);
    expect(await victim.t.verifyZkpToken(victim.keys.verifier, asVictimIssuer)).toMatchObject({ ok: false, status: 400 });
  });

  test('a genuine token says who signed it, about which credential and holder, and when', async () => {
    const z = unwrap(await victim.t.createZkpToken(victim.keys.issuer, { credentialId: victimCredential['id'], condition: { age: 5 } }));
    const ok = unwrap(await victim.t.verifyZkpToken(victim.keys.verifier, z)) as Json;
    expect(ok).toMatchObject({
      success: true,
      conditionMet: true,
      issuer: victim.issuer.did,
      credentialId: victimCredential['id'],
      holder: victim.holder.did,
      issuedAt: expect.any(String),
      expiresAt: expect.any(String),
    });
    expect(Date.parse(ok['expiresAt'])).toBeGreaterThan(Date.parse(ok['issuedAt']));
    // A verifier that expects another holder refuses it.
    expect(await victim.t.verifyZkpToken(victim.keys.verifier, { ...z, holderDID: attacker.holder.did })).toMatchObject({ ok: false, status: 400 });
    expect(unwrap(await victim.t.verifyZkpToken(victim.keys.verifier, { ...z, holderDID: victim.holder.did }))).toMatchObject({ success: true });
  });

  test('a token expires', async () => {
    const z = unwrap(await victim.t.createZkpToken(victim.keys.issuer, { credentialId: victimCredential['id'], condition: { age: 5 } }));
    unwrap(await victim.t.verifyZkpToken(victim.keys.verifier, z));
    clock.advance(2 * 86_400_000);
    const out = await victim.t.verifyZkpToken(victim.keys.verifier, z);
    expect(out).toMatchObject({ ok: false, status: 400 });
    expect(!out.ok && out.message).toMatch(/expired/);
  });

  test('revoking the credential makes its tokens fail', async () => {
    const c = await victim.issue();
    const z = unwrap(await victim.t.createZkpToken(victim.keys.issuer, { credentialId: c['id'], condition: { age: 18 } }));
    unwrap(await victim.t.verifyZkpToken(victim.keys.verifier, z));
    unwrap(await victim.t.revoke(victim.keys.issuer, c['id']));
    const out = await victim.t.verifyZkpToken(victim.keys.verifier, z);
    expect(out).toMatchObject({ ok: false, status: 400 });
    expect(!out.ok && out.message).toMatch(/revoked/);
  });
});
