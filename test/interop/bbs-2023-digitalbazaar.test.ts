import { join } from 'node:path';
import { Bbs2023Engine } from '../../src/formats/bbs-2023/engine';
import { g2DidKey } from '../../src/formats/bbs-2023/did-key';
import type { JsonObject } from '../../src/vc/ports';
import { askScript } from '../support/vc/digitalbazaar';

/**
 * bbs-2023 interop with Digital Bazaar (@digitalbazaar/vc + data-integrity + the cryptosuite, in a
 * child process: test/interop/bbs-digitalbazaar.mjs), both directions, derived proofs included:
 * what Credgate issues, Digital Bazaar derives and verifies; what Digital Bazaar issues, Credgate
 * derives and verifies, and Digital Bazaar verifies Credgate's derivation; tampering is refused by both.
 */
const SCRIPT = join(__dirname, 'bbs-digitalbazaar.mjs');

function askDigitalBazaar<T>(request: JsonObject): Promise<T> {
  return askScript<T>(SCRIPT, request);
}

const dbVerify = (verifiableCredential: JsonObject) => askDigitalBazaar<{ verified: boolean; errors: string[] }>({ op: 'verify', verifiableCredential });
const dbDerive = async (verifiableCredential: JsonObject, selectivePointers: string[]) => (await askDigitalBazaar<{ verifiableCredential: JsonObject }>({ op: 'derive', verifiableCredential, selectivePointers })).verifiableCredential;

const engine = new Bbs2023Engine({ size: 1, deadlineMs: 30_000, queuePerTenant: 8, retryAfterSeconds: 1 });
afterAll(() => engine.close());

const credential = (issuer: string): JsonObject => ({
  '@context': ['https://www.w3.org/ns/credentials/v2', { '@vocab': 'https://credgate.example/vocab#' }],
  id: 'urn:uuid:6a1f6f5e-2d0a-4a53-a1d6-3a4c8b7e9f10',
  type: ['VerifiableCredential', 'MembershipCredential'],
  issuer,
  validFrom: '2026-01-01T00:00:00Z',
  credentialSubject: { name: 'Ingrid Halvorsen', memberNumber: 'M-88412', tier: 'gold', since: 2019 },
});

const tamper = (vc: JsonObject): JsonObject => ({ ...vc, credentialSubject: { ...(vc['credentialSubject'] as JsonObject), tier: 'platinum' } });

describe('bbs-2023 with Digital Bazaar', () => {
  it('Credgate issues; Digital Bazaar derives and verifies; Credgate verifies that derivation; tampering fails on both', async () => {
    const key = await engine.generateKeyPair();
    const issued = await engine.sign(credential(g2DidKey(key.publicKey).did), key, ['/issuer', '/validFrom']);
    const theirs = await dbDerive(issued, ['/credentialSubject/tier']);
    expect(JSON.stringify(theirs)).not.toContain('Ingrid');
    expect(await dbVerify(theirs)).toEqual({ verified: true, errors: [] });
    expect((await engine.verify(theirs)).verified).toBe(true);
    expect((await dbVerify(tamper(theirs))).verified).toBe(false);
    expect((await engine.verify(tamper(theirs))).verified).toBe(false);
  });

  it('Credgate derives what it issued; Digital Bazaar verifies the derivation and refuses it tampered', async () => {
    const key = await engine.generateKeyPair();
    const issued = await engine.sign(credential(g2DidKey(key.publicKey).did), key, ['/issuer']);
    const ours = await engine.derive(issued, ['/credentialSubject/tier', '/validFrom']);
    expect(await dbVerify(ours)).toEqual({ verified: true, errors: [] });
    expect((await dbVerify(tamper(ours))).verified).toBe(false);
  });

  it('Digital Bazaar issues; Credgate derives and verifies; Digital Bazaar verifies the derivation Credgate made', async () => {
    const { did, verifiableCredential } = await askDigitalBazaar<{ did: string; verifiableCredential: JsonObject }>({ op: 'sign', credential: credential('did:example:placeholder'), mandatoryPointers: ['/issuer'] });
    expect(did).toMatch(/^did:key:zUC7/);
    const ours = await engine.derive(verifiableCredential, ['/credentialSubject/since']);
    expect(ours['credentialSubject']).toEqual({ since: 2019 });
    const r = await engine.verify(ours);
    expect(r).toMatchObject({ verified: true, controller: did });
    expect(await dbVerify(ours)).toEqual({ verified: true, errors: [] });
    expect((await engine.verify(tamper(ours))).verified).toBe(false);
  });
});
