import { AppError } from '../../../src/errors';
import { Bbs2023Engine } from '../../../src/formats/bbs-2023/engine';
import { g2DidKey } from '../../../src/formats/bbs-2023/did-key';
import type { JsonObject } from '../../../src/vc/ports';

/**
 * bbs-2023 through the worker pool: issue, derive, verify, and the zero-knowledge properties a
 * test can see (what is not disclosed is not in the bytes; derivations share no proof bytes).
 */
const engine = new Bbs2023Engine({ size: 1, deadlineMs: 30_000, queuePerTenant: 8, retryAfterSeconds: 1 });
afterAll(() => engine.close());

const SECRET_NAME = 'Zebulon Quartermaine';
const SECRET_DOB = '1987-03-14';

function credential(issuer: string): JsonObject {
  return {
    '@context': ['https://www.w3.org/ns/credentials/v2', 'https://www.w3.org/ns/credentials/examples/v2'],
    type: ['VerifiableCredential', 'ExampleIdentityCredential'],
    issuer,
    validFrom: '2026-01-01T00:00:00Z',
    credentialSubject: { name: SECRET_NAME, birthDate: SECRET_DOB, nationality: 'Utopia', level: 5 },
  };
}

/** Whether two byte strings have any common run of `n` bytes. */
function shareRun(a: Uint8Array, b: Uint8Array, n: number): boolean {
  const seen = new Set<string>();
  for (let i = 0; i + n <= a.length; i++) seen.add(Buffer.from(a.subarray(i, i + n)).toString('hex'));
  for (let i = 0; i + n <= b.length; i++) if (seen.has(Buffer.from(b.subarray(i, i + n)).toString('hex'))) return true;
  return false;
}

const proofBytes = (vc: JsonObject): Uint8Array => Buffer.from(String((vc['proof'] as JsonObject)['proofValue']).slice(1), 'base64url');

describe('bbs-2023 engine', () => {
  let issued: JsonObject;
  let did: string;

  beforeAll(async () => {
    const key = await engine.generateKeyPair();
    did = g2DidKey(key.publicKey).did;
    expect(did.startsWith('did:key:zUC7')).toBe(true);
    issued = await engine.sign(credential(did), key, ['/issuer', '/validFrom']);
  });

  it('issues a base proof that verifiers refuse (the holder derives first)', async () => {
    const proof = issued['proof'] as JsonObject;
    expect(proof['cryptosuite']).toBe('bbs-2023');
    expect(String(proof['proofValue']).startsWith('u2V0C')).toBe(true);
    const r = await engine.verify(issued);
    expect(r.verified).toBe(false);
  });

  it('derives a credential that discloses only the selected claims and verifies with the public key alone', async () => {
    const derived = await engine.derive(issued, ['/credentialSubject/nationality']);
    const text = JSON.stringify(derived);
    expect(text).not.toContain(SECRET_NAME);
    expect(text).not.toContain(SECRET_DOB);
    expect((derived['credentialSubject'] as JsonObject)['nationality']).toBe('Utopia');
    expect(derived['issuer']).toBe(did);
    const r = await engine.verify(derived);
    expect(r).toEqual({ verified: true, verificationMethod: `${did}#${did.slice('did:key:'.length)}`, controller: did });
  });

  it('two derivations of one credential share no proof bytes', async () => {
    const a = await engine.derive(issued, ['/credentialSubject/nationality']);
    const b = await engine.derive(issued, ['/credentialSubject/nationality']);
    expect(a['credentialSubject']).toEqual(b['credentialSubject']);
    // 16 bytes: no signature component, digest or nonce in common (the CBOR framing and the small
    // label-map and index integers are shorter than that).
    expect(shareRun(proofBytes(a), proofBytes(b), 16)).toBe(false);
    expect(shareRun(proofBytes(a), proofBytes(issued), 16)).toBe(false);
  });

  it('refuses a tampered derived credential and a tampered proof', async () => {
    const derived = await engine.derive(issued, ['/credentialSubject/nationality']);
    const changed = { ...derived, credentialSubject: { ...(derived['credentialSubject'] as JsonObject), nationality: 'Atlantis' } };
    expect((await engine.verify(changed)).verified).toBe(false);
    const bytes = proofBytes(derived);
    bytes[bytes.length - 40] = (bytes[bytes.length - 40] ?? 0) ^ 0x01;
    const flipped = { ...derived, proof: { ...(derived['proof'] as JsonObject), proofValue: `u${Buffer.from(bytes).toString('base64url')}` } };
    expect((await engine.verify(flipped)).verified).toBe(false);
  });

  it('refuses a derived credential whose undisclosed claim was added back', async () => {
    const derived = await engine.derive(issued, ['/credentialSubject/nationality']);
    const added = { ...derived, credentialSubject: { ...(derived['credentialSubject'] as JsonObject), name: SECRET_NAME } };
    expect((await engine.verify(added)).verified).toBe(false);
  });

  it('an unknown pointer is INVALID_INPUT', async () => {
    await expect(engine.derive(issued, ['/credentialSubject/favouriteColour'])).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(engine.derive(issued, ['not-a-pointer'])).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });

  it('a base proof naming a key of another curve is INVALID_INPUT', async () => {
    const ed25519 = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
    const wrong = { ...issued, proof: { ...(issued['proof'] as JsonObject), verificationMethod: `${ed25519}#${ed25519.slice(8)}` } };
    const error = await engine.derive(wrong, ['/credentialSubject/nationality']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('INVALID_INPUT');
  });

  it('a job over its deadline is stopped with 503 and Retry-After, and the pool serves the next job', async () => {
    const tight = new Bbs2023Engine({ size: 1, deadlineMs: 1, queuePerTenant: 8, retryAfterSeconds: 3 });
    try {
      const key = await engine.generateKeyPair();
      const error = await tight.sign(credential(g2DidKey(key.publicKey).did), key, []).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', retryAfterSeconds: 3 });
    } finally {
      await tight.close();
    }
    expect((await engine.verify(await engine.derive(issued, ['/credentialSubject/level']))).verified).toBe(true);
  });
});
