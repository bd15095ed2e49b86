import { CREDENTIALS_V1_URL } from '../../src/domain/contexts';
import { discloseOnly } from '../../src/domain/credentials/family-b-credential';
import { signPresentation } from '../../src/domain/presentations';
import { unwrap } from '../support/family-a-fixtures';
import { type FbParty, FB_VALUES, MovableClock, fbParty } from '../support/family-b-fixtures';
import { type TestServer, startTestServer } from '../support/harness';
import { FamilyBCredentialsService } from '../../src/services/family-b/credentials.service';

/*
 * Attacks on POST /verify-vp and POST /create-vp (issue 8, "Presentations", "Context pinning",
 * "Revocation reaches derived things"). The attacker is the holder: they hold their own key, so
 * they can re-sign any presentation they like; what they must not be able to do is make a
 * verifier accept credentials, members or contexts the issuer never signed.
 */

const clock = new MovableClock();
let server: TestServer;
beforeAll(async () => {
  // Large enough that the 850-copy presentation reaches the service (the cap is the service's).
  server = await startTestServer({ clock, env: { bodyLimitBytes: 8 * 1024 * 1024 } });
});
afterAll(async () => {
  await server?.stop();
});
afterEach(() => clock.reset());

type Json = Record<string, any>;
const clone = (d: Json): Json => JSON.parse(JSON.stringify(d)) as Json;
const iso = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** A presentation built and signed by the holder themselves (what any holder can do offline). */
function holderSigned(p: FbParty, vcs: Json[], attributes: Record<string, string[]>, opts: { challenge?: string; domain?: string; proofPurpose?: string; created?: string; extra?: Json } = {}): Json {
  const vp: Json = {
    '@context': [CREDENTIALS_V1_URL],
    type: ['VerifiablePresentation'],
    verifiableCredential: vcs,
    holder: p.holder.did,
    presentationAttributes: attributes,
    issuanceDate: iso(new Date()),
    ...(opts.extra ?? {}),
  };
  return signPresentation(vp, p.holder.privateKey, {
    created: opts.created ?? iso(new Date()),
    verificationMethod: p.holder.did,
    proofPurpose: opts.proofPurpose ?? 'authentication',
    ...(opts.challenge !== undefined ? { challenge: opts.challenge } : {}),
    ...(opts.domain !== undefined ? { domain: opts.domain } : {}),
  });
}

describe.each(['REST', 'GraphQL'])('Family B presentation attacks through %s', (name) => {
  let p: FbParty;
  let c1: Json;
  let c2: Json;
  const verifyBody = (vpToken: Json, shared: Record<string, string[]>, extra: Json = {}) => ({ vpToken, sharedAttributes: shared, holderDID: p.holder.did, holderPublicKey: p.holder.publicKey, ...extra });

  beforeAll(async () => {
    p = await fbParty(server, name);
    c1 = await p.issue();
    c2 = await p.issue({ ...FB_VALUES, employeeNo: 8 });
  });

  test('a presentation naming two credentials but carrying one is refused', async () => {
    const shared = { [c1['id']]: ['name'], [c2['id']]: ['name'] };
    const vp = unwrap(await p.t.createVp(p.keys.holder, { credentialIds: [c1['id'], c2['id']], sharedAttributes: shared, holderDID: p.holder.did }));
    expect(unwrap(await p.t.verifyVp(p.keys.verifier, verifyBody(vp, shared)))).toEqual({ message: 'VP and attributes verified' });
    // The holder drops the second credential and re-signs: presentationAttributes still names it.
    const onlyOne = holderSigned(p, [vp['verifiableCredential'][0]], shared);
    const out = await p.t.verifyVp(p.keys.verifier, verifyBody(onlyOne, shared));
    expect(out).toMatchObject({ ok: false, status: 400 });
    expect(!out.ok && out.message).toMatch(/not presented/);
  });

  test('challenge and domain bind a presentation to one verifier request (replay across verifiers fails)', async () => {
    const shared = { [c1['id']]: ['name'] };
    const vp = unwrap(await p.t.createVp(p.keys.holder, { credentialIds: [c1['id']], sharedAttributes: shared, holderDID: p.holder.did, challenge: 'nonce-of-A', domain: 'verifier-a.example' }));
    expect(unwrap(await p.t.verifyVp(p.keys.verifier, verifyBody(vp, shared, { challenge: 'nonce-of-A', domain: 'verifier-a.example' })))).toEqual({ message: 'VP and attributes verified' });
    // Verifier B, with its own nonce and identity, receives A's presentation.
    expect(await p.t.verifyVp(p.keys.verifier, verifyBody(vp, shared, { challenge: 'nonce-of-B', domain: 'verifier-b.example' }))).toMatchObject({ ok: false, status: 400 });
    expect(await p.t.verifyVp(p.keys.verifier, verifyBody(vp, shared, { challenge: 'nonce-of-A', domain: 'verifier-b.example' }))).toMatchObject({ ok: false, status: 400 });
    expect(await p.t.verifyVp(p.keys.verifier, verifyBody(vp, shared, { challenge: 'nonce-of-B', domain: 'verifier-a.example' }))).toMatchObject({ ok: false, status: 400 });
    // A presentation made without any challenge cannot answer a verifier that sent one.
    const unbound = unwrap(await p.t.createVp(p.keys.holder, { credentialIds: [c1['id']], sharedAttributes: shared, holderDID: p.holder.did }));
    expect(await p.t.verifyVp(p.keys.verifier, verifyBody(unbound, shared, { challenge: 'nonce-of-B' }))).toMatchObject({ ok: false, status: 400 });
    expect(await p.t.verifyVp(p.keys.verifier, verifyBody(unbound, shared, { domain: 'verifier-b.example' }))).toMatchObject({ ok: false, status: 400 });
  });

  test('members the issuer did not sign, added to a presented credential, fail verification', async () => {
    const shared = { [c1['id']]: ['name'] };
    const shown = discloseOnly(c1, ['name']);
    const edits: ((vc: Json) => void)[] = [
      (vc) => (vc['evidence'] = [{ type: 'DocumentVerification', verifier: 'https://trusted.example', result: 'passed' }]),
      (vc) => (vc['termsOfUse'] = { type: 'Anything' }),
      (vc) => (vc['proof'].note = 'unsigned'),
      (vc) => (vc['credentialSubject'] = [...vc['credentialSubject'], { id: 'did:example:other', name: 'X' }]),
    ];
    for (const edit of edits) {
      const vc = clone(shown);
      edit(vc);
      const out = await p.t.verifyVp(p.keys.verifier, verifyBody(holderSigned(p, [vc], shared), shared));
      expect(out).toMatchObject({ ok: false, status: 400 });
    }
    // The same credential untouched, signed the same way, verifies: the edits are what fails.
    expect(unwrap(await p.t.verifyVp(p.keys.verifier, verifyBody(holderSigned(p, [shown], shared), shared)))).toEqual({ message: 'VP and attributes verified' });
  });

  test('proofPurpose, created and the presentation dates are checked', async () => {
    const shared = { [c1['id']]: ['name'] };
    const shown = discloseOnly(c1, ['name']);
    const bad: Json[] = [
      holderSigned(p, [shown], shared, { proofPurpose: 'assertionMethod' }),
      holderSigned(p, [shown], shared, { created: '2099-01-01T00:00:00Z' }),
      holderSigned(p, [shown], shared, { extra: { issuanceDate: 'yesterday' } }),
      holderSigned(p, [shown], shared, { extra: { issuanceDate: '2099-01-01T00:00:00Z' } }),
      holderSigned(p, [shown], shared, { extra: { expirationDate: '2000-01-01T00:00:00Z' } }),
    ];
    for (const vp of bad) expect(await p.t.verifyVp(p.keys.verifier, verifyBody(vp, shared))).toMatchObject({ ok: false, status: 400 });
  });

  test('a credential that is not yet valid fails in a presentation', async () => {
    clock.advance(3 * 86_400_000);
    const future = await p.issue();
    clock.reset();
    const shared = { [future['id']]: ['name'] };
    const out = await p.t.verifyVp(p.keys.verifier, verifyBody(holderSigned(p, [discloseOnly(future, ['name'])], shared), shared));
    expect(out).toMatchObject({ ok: false, status: 400 });
    expect(!out.ok && out.message).toMatch(/not yet valid/);
  });

  test('an appended inline @context fails with a reason (presentation and credential)', async () => {
    const shared = { [c1['id']]: ['name'] };
    const shown = discloseOnly(c1, ['name']);
    const inline = { name: 'https://schema.org/familyName', birthDate: 'https://schema.org/issueDate' };
    const vpCtx = holderSigned(p, [shown], shared, { extra: { '@context': [CREDENTIALS_V1_URL, inline] } });
    const out = await p.t.verifyVp(p.keys.verifier, verifyBody(vpCtx, shared));
    expect(out).toMatchObject({ ok: false, status: 400 });
    expect(!out.ok && out.message).toMatch(/@context/);
    const vcCtx = clone(shown);
    vcCtx['@context'] = [...vcCtx['@context'], inline];
    const out2 = await p.t.verifyVp(p.keys.verifier, verifyBody(holderSigned(p, [vcCtx], shared), shared));
    expect(out2).toMatchObject({ ok: false, status: 400 });
    expect(!out2.ok && out2.message).toMatch(/@context/);
    // POST /credentials/verify names the context in the format check.
    const full = clone(c1);
    full['@context'] = [...full['@context'], inline];
    const v = unwrap(await p.t.verify(p.keys.verifier, full));
    expect(v.verified).toBe(false);
    expect(v.checks.find((c) => c.check === 'format')).toMatchObject({ ok: false, detail: expect.stringMatching(/@context/) });
  });

  test('a credential repeated 850 times is refused before any per-credential work; repeats are refused', async () => {
    const shared = { [c1['id']]: ['name'] };
    const shown = discloseOnly(c1, ['name']);
    // Count the per-credential checks (issuer lookup, signature, status) the service runs.
    // Patched on the class: the services object may hand out a rate-limited view of the instance.
    const fb = FamilyBCredentialsService.prototype as unknown as { presentedProblem: (...a: unknown[]) => Promise<unknown> };
    const original = fb.presentedProblem;
    let checked = 0;
    fb.presentedProblem = function (this: unknown, ...a: unknown[]) {
      checked += 1;
      return original.apply(this, a);
    };
    try {
      const many = await p.t.verifyVp(p.keys.verifier, verifyBody(holderSigned(p, Array.from({ length: 850 }, () => shown), shared), shared));
      expect(many).toMatchObject({ ok: false, status: 400 });
      expect(!many.ok && many.message).toMatch(/at most \d+ credentials/);
      const twice = await p.t.verifyVp(p.keys.verifier, verifyBody(holderSigned(p, [shown, shown], shared), shared));
      expect(twice).toMatchObject({ ok: false, status: 400 });
      expect(!twice.ok && twice.message).toMatch(/more than once/);
      expect(checked).toBe(0);
      unwrap(await p.t.verifyVp(p.keys.verifier, verifyBody(holderSigned(p, [shown], shared), shared)));
      expect(checked).toBe(1);
    } finally {
      fb.presentedProblem = original;
    }
  });

  test('create-vp refuses revoked and expired credentials (by id and as documents)', async () => {
    const revoked = await p.issue();
    unwrap(await p.t.revoke(p.keys.issuer, revoked['id']));
    const shared = { [revoked['id']]: ['name'] };
    expect(await p.t.createVp(p.keys.holder, { credentialIds: [revoked['id']], sharedAttributes: shared, holderDID: p.holder.did })).toMatchObject({ ok: false, status: 400 });
    expect(await p.t.createVp(p.keys.holder, { credentials: [revoked], sharedAttributes: shared, holderDID: p.holder.did })).toMatchObject({ ok: false, status: 400 });
    // Two years and a day later the credentials have expired.
    clock.advance((2 * 366 + 1) * 86_400_000);
    const shared1 = { [c1['id']]: ['name'] };
    expect(await p.t.createVp(p.keys.holder, { credentialIds: [c1['id']], sharedAttributes: shared1, holderDID: p.holder.did })).toMatchObject({ ok: false, status: 400 });
    expect(await p.t.createVp(p.keys.holder, { credentials: [c1], sharedAttributes: shared1, holderDID: p.holder.did })).toMatchObject({ ok: false, status: 400 });
  });
});
