import { Bbs2023Engine } from '../../../src/formats/bbs-2023/engine';
import { g2DidKey } from '../../../src/formats/bbs-2023/did-key';
import type { JsonObject } from '../../../src/vc/ports';
import keyMaterial from '../../fixtures/vectors/vc-di-bbs/BBSKeyMaterial.json';
import deriveMaterial from '../../fixtures/vectors/vc-di-bbs/BBSDeriveMaterial.json';
import windDoc from '../../fixtures/vectors/vc-di-bbs/windDoc.json';
import windMandatory from '../../fixtures/vectors/vc-di-bbs/windMandatory.json';
import windSelective from '../../fixtures/vectors/vc-di-bbs/windSelective.json';
import signedBase from '../../fixtures/vectors/vc-di-bbs/addSignedSDBase.json';
import derivedReveal from '../../fixtures/vectors/vc-di-bbs/derivedRevealDocument.json';

/**
 * The W3C Data Integrity BBS Cryptosuites v1.0 test vectors (baseline bbs-2023), copied into
 * test/fixtures/vectors/vc-di-bbs with their source: the published derived credential verifies,
 * the published base credential derives what the specification derived, the published key pair
 * is the did:key the vectors name, and what we sign with that key derives and verifies.
 */
const engine = new Bbs2023Engine({ size: 1, deadlineMs: 30_000, queuePerTenant: 8, retryAfterSeconds: 1 });
afterAll(() => engine.close());

const fresh = <T>(v: T): T => structuredClone(v);
const header = Uint8Array.from(Buffer.from(deriveMaterial.presentationHeaderHex, 'hex'));
const withoutProof = ({ proof: _proof, ...rest }: JsonObject): JsonObject => rest;

describe('W3C vc-di-bbs test vectors', () => {
  it('the published key pair is the did:key the vectors name (Multikey zUC7…)', () => {
    const { verificationMethod } = g2DidKey(Uint8Array.from(Buffer.from(keyMaterial.publicKeyHex, 'hex')));
    expect(verificationMethod).toBe((signedBase.proof as JsonObject)['verificationMethod']);
  });

  it('the published derived credential verifies, bound to its presentation header', async () => {
    const r = await engine.verify(fresh(derivedReveal));
    expect(r.verified).toBe(true);
    expect((await engine.verify(fresh(derivedReveal), header)).verified).toBe(true);
    expect((await engine.verify(fresh(derivedReveal), Uint8Array.of(1, 2, 3, 4))).verified).toBe(false);
  });

  it('the published derived credential with one disclosed value changed does not verify', async () => {
    const tampered = fresh(derivedReveal) as JsonObject & { credentialSubject: { sailNumber: string } };
    tampered.credentialSubject.sailNumber = 'Mars101';
    expect((await engine.verify(tampered)).verified).toBe(false);
  });

  it('the published base credential is refused by a verifier and derives what the specification derived', async () => {
    expect((await engine.verify(fresh(signedBase))).verified).toBe(false);
    const derived = await engine.derive(fresh(signedBase) as JsonObject, windSelective, header);
    expect(withoutProof(derived)).toEqual(withoutProof(fresh(derivedReveal) as JsonObject));
    expect((derived['proof'] as JsonObject)['proofValue']).not.toBe((derivedReveal.proof as JsonObject)['proofValue']);
    expect((await engine.verify(derived, header)).verified).toBe(true);
  });

  it('the vector document signed here with the vector key and mandatory pointers derives and verifies', async () => {
    const key = { secretKey: Uint8Array.from(Buffer.from(keyMaterial.privateKeyHex, 'hex')), publicKey: Uint8Array.from(Buffer.from(keyMaterial.publicKeyHex, 'hex')) };
    const signed = await engine.sign(fresh(windDoc) as JsonObject, key, windMandatory);
    expect((signed['proof'] as JsonObject)['verificationMethod']).toBe((signedBase.proof as JsonObject)['verificationMethod']);
    const derived = await engine.derive(signed, windSelective);
    expect(withoutProof(derived)).toEqual(withoutProof(fresh(derivedReveal) as JsonObject));
    expect((await engine.verify(derived)).verified).toBe(true);
  });
});
