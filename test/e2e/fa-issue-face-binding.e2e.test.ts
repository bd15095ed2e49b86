import { randomBytes } from 'node:crypto';
import { FACE_MODEL_ID } from '../../src/biometrics/model';
import { encodeTemplate } from '../../src/biometrics/template-format';
import { decodeCryptograph } from '../../src/domain/cryptograph';
import { useTestServer } from '../support/harness';
import { FAMILY_A_TRANSPORTS, type Holder, type Party, consent, newHolder, newParty, schemaBody, subject, unwrap } from '../support/family-a-fixtures';
import type { HolderHeaders, IssueBody } from '../support/family-a-transports';

jest.setTimeout(60_000);

const server = useTestServer();

/**
 * Synthetic face templates in the engine's own format (no photo, no model run): `near` is within
 * the 0.6 match threshold of its base, another base is far beyond it.
 */
const descriptor = (): number[] => Array.from({ length: 128 }, () => (Math.random() - 0.5) * 0.2);
const near = (d: number[]): number[] => d.map((v) => v + (Math.random() - 0.5) * 0.004);
const template = (d: number[]): string => encodeTemplate(d, FACE_MODEL_ID);

/** Every spelling of the template a client could find in a response. */
function spellings(t: string): string[] {
  const raw = Buffer.from(t, 'base64');
  const descriptorBytes = raw.subarray(raw.length - 512);
  return [t.slice(0, 48), t.slice(-48), raw.toString('base64url').slice(8, 56), descriptorBytes.toString('hex').slice(0, 64), descriptorBytes.toString('base64').slice(0, 48)];
}

function expectNoTemplate(where: unknown, t: string): void {
  const text = JSON.stringify(where);
  for (const s of spellings(t)) expect(text.includes(s)).toBe(false);
}

type WithFace = Omit<IssueBody, 'credentialSubject'> & { credentialSubject: Record<string, unknown>; faceTemplate?: string | null };

describe.each(FAMILY_A_TRANSPORTS)('face binding through %s', (name) => {
  let p: Party;
  let h: Holder;
  let issuerDid: string;
  let schemaName: string;
  let headers: HolderHeaders;
  const alice = descriptor();
  const bob = descriptor();
  const aliceT = template(alice);

  const issue = (body: Partial<WithFace>, opts?: { isCryptograph?: boolean }) =>
    p.fa.issue(p.issuerKey, headers, { schemaName: `${schemaName}:1`, credentialSubject: subject(), ...body } as never, opts).then(unwrap);
  const verify = (credentialOrCryptograph: Record<string, unknown>, userSignature: string, probe: number[]) =>
    p.fa.verify(p.verifierKey, { publicKey: h.publicKey, userSignature }, { ...credentialOrCryptograph, probeTemplate: template(probe) }).then(unwrap);

  beforeAll(async () => {
    p = await newParty(server, name);
    h = await newHolder(p);
    issuerDid = unwrap(await p.fa.issuerDid(p.issuerKey));
    schemaName = `Face${randomBytes(3).toString('hex')}`;
    unwrap(await p.fa.createSchema(p.issuerKey, schemaBody(schemaName)));
    headers = await consent(p, h, issuerDid, subject());
  });

  test('unencrypted and encrypted credentials carry a salted commitment, never the template', async () => {
    const plain = await issue({ faceTemplate: aliceT });
    const enc = await issue({ faceTemplate: aliceT, isEncrypted: true });
    for (const r of [plain, enc]) {
      expectNoTemplate(r, aliceT);
      const bio = r.verifiableCredential['biometrics'] as Record<string, unknown>;
      expect(bio).toEqual({ face: expect.any(String), iris: null, finger: null });
    }
    // Salted: the same face in two credentials does not give the same value (not a face fingerprint).
    expect(plain.verifiableCredential['biometrics'].face).not.toBe(enc.verifiableCredential['biometrics'].face);
    // The stored copy holds no template either.
    const rows = await server.app.db.prisma.issuedCredential.findMany({ where: { holderDid: h.did } });
    for (const row of rows) expectNoTemplate(row.document, aliceT);

    for (const r of [plain, enc]) {
      const yes = await verify({ credentials: r.verifiableCredential }, r.userSignature, near(alice));
      expect(yes.data.biometricMatchScore).toMatch(/^Match/);
      expect(yes.success).toBe(true);
      const no = await verify({ credentials: r.verifiableCredential }, r.userSignature, bob);
      expect(no.data.biometricMatchScore).toMatch(/^No Match/);
      expect(no.success).toBe(false);
    }
  });

  test('a cryptograph carries no template and still verifies the face', async () => {
    const r = await issue({ faceTemplate: aliceT }, { isCryptograph: true });
    expectNoTemplate(r, aliceT);
    expectNoTemplate(decodeCryptograph(r.cryptograph!).credential, aliceT);
    const yes = await verify({ cryptograph: r.cryptograph! }, r.userSignature, near(alice));
    expect(yes.data.biometricMatchScore).toMatch(/^Match/);
    expect(yes.success).toBe(true);
    const no = await verify({ cryptograph: r.cryptograph! }, r.userSignature, bob);
    expect(no.data.biometricMatchScore).toMatch(/^No Match/);
  });

  test('re-issue answers biometrics {} and keeps the bound face unless told otherwise', async () => {
    const first = await issue({ faceTemplate: aliceT });
    const reissue = async (prior: Record<string, unknown>, extra: Partial<WithFace>) =>
      unwrap(await p.fa.reissue(p.issuerKey, headers, { schemaName: `${schemaName}:1`, credentialSubject: subject(), ...extra } as never, prior));

    const kept = await reissue(first.verifiableCredential, {});
    expect(kept.verifiableCredential['biometrics']).toEqual({});
    expectNoTemplate(kept, aliceT);
    expect((await verify({ credentials: kept.verifiableCredential }, kept.userSignature, near(alice))).success).toBe(true);
    expect((await verify({ credentials: kept.verifiableCredential }, kept.userSignature, bob)).success).toBe(false);

    // A new face replaces the bound one.
    const replaced = await reissue(kept.verifiableCredential, { faceTemplate: template(bob) });
    expect(replaced.verifiableCredential['biometrics']).toEqual({});
    expect((await verify({ credentials: replaced.verifiableCredential }, replaced.userSignature, near(bob))).success).toBe(true);
    expect((await verify({ credentials: replaced.verifiableCredential }, replaced.userSignature, near(alice))).success).toBe(false);

    // An explicit null removes the face: a probe then has nothing to match.
    const removed = await reissue(replaced.verifiableCredential, { faceTemplate: null });
    expect(removed.verifiableCredential['biometrics']).toEqual({});
    const none = await verify({ credentials: removed.verifiableCredential }, removed.userSignature, near(bob));
    expect(none.success).toBe(false);
    expect(none.data.reasons.join()).toMatch(/no face/);
    // The re-issued credential verifies without a probe.
    expect((await p.fa.verify(p.verifierKey, { publicKey: h.publicKey, userSignature: removed.userSignature }, { credentials: removed.verifiableCredential }).then(unwrap)).success).toBe(true);
  });
});
