/**
 * The seed's own credentials, issued through its REST families, verified as W3C proofs by
 * verifyProof with the composite DID resolver built from the app's own DidsService (issue 11:
 * "verify the seed's Ed25519Signature2018 / EcdsaSecp256k1Signature2019"). Every tampering must
 * fail with a stable problem type (src/vc/proofs/problems.ts), never verify.
 */
import { randomBytes } from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519.js';
import { didKeyFromPublicKey } from '../../src/domain/dids/did-key';
import { discloseOnly } from '../../src/domain/credentials/family-b-credential';
import { createDocumentLoader } from '../../src/domain/contexts';
import { signEd25519Signature2018 } from '../../src/domain/proofs';
import type { DidResolver, JsonObject, ProofVerification } from '../../src/vc/ports';
import { verifyProof } from '../../src/vc/proofs';
import { createDidResolver, serviceDidLookup } from '../../src/vc/resolver';
import { type Holder, type Party, newHolder, newParty, subject, schemaBody, unwrap } from '../support/family-a-fixtures';
import { type FbParty, fbParty } from '../support/family-b-fixtures';
import { useTestServer } from '../support/harness';
import { request } from '../support/http';

type Json = Record<string, any>;

const server = useTestServer();
let resolver: DidResolver;

beforeAll(() => {
  // In-process, as the composition root wires it: the service's method answered from its records.
  resolver = createDidResolver({ didWeb: false, serviceDids: serviceDidLookup(server.app.services.dids, server.config.didMethod) });
});

const clone = <T>(v: T): T => structuredClone(v);
const verify = (doc: JsonObject, issuer: string, purpose: 'assertionMethod' | 'authentication' = 'assertionMethod'): Promise<ProofVerification> =>
  verifyProof(doc, { resolver, expectedProofPurpose: purpose, expectedController: issuer });
const types = (r: ProofVerification): string[] => r.errors.map((e) => e.type);

/** The same base64url text with its last signature character changed (a different, well-formed signature). */
function flipLast(jws: string): string {
  const last = jws.at(-2) === 'A' ? 'B' : 'A';
  return `${jws.slice(0, -2)}${last}${jws.at(-1)}`;
}

/** Fails unless verification refused with `type` among its problems. */
async function expectRefused(doc: JsonObject, issuer: string, type: string): Promise<ProofVerification> {
  const r = await verify(doc, issuer);
  expect(r.verified).toBe(false);
  expect(types(r)).toContain(type);
  for (const e of r.errors) expect(typeof e.title).toBe('string');
  return r;
}

describe('Family A credentials (Ed25519Signature2018, Credgate profile) verify as W3C proofs', () => {
  let p: Party;
  let user: Holder;
  let issuerDid: string;
  let plain: Json;
  let encrypted: Json;

  beforeAll(async () => {
    p = await newParty(server, 'REST');
    user = await newHolder(p);
    issuerDid = unwrap(await p.fa.issuerDid(p.issuerKey));
    const schemaName = `Badge${randomBytes(3).toString('hex')}`;
    unwrap(await p.fa.createSchema(p.issuerKey, schemaBody(schemaName)));
    const issue = async (isEncrypted: boolean): Promise<Json> => {
      const userSignature = unwrap(await p.fa.sign(p.holderKey, user.privateKey, issuerDid, { credentialSubject: { id: user.did, ...subject() } }));
      const headers = { did: user.did, publicKey: user.publicKey, userSignature };
      return unwrap(await p.fa.issue(p.issuerKey, headers, { schemaName: `${schemaName}:1`, isEncrypted, credentialSubject: subject() })).verifiableCredential;
    };
    plain = await issue(false);
    encrypted = await issue(true);
  });

  test('a plain and an encrypted credential verify; the issuer (a Family A DID) controls the key', async () => {
    for (const vc of [plain, encrypted]) {
      expect(await verify(vc, issuerDid)).toEqual({ verified: true, suite: 'Ed25519Signature2018', verificationMethod: `${issuerDid}#did-root-key`, controllers: [issuerDid], errors: [] });
    }
    // The issuer must be the one expected, and the purpose the one signed.
    const other = unwrap(await (await newParty(server, 'REST')).fa.issuerDid((await newParty(server, 'REST')).issuerKey));
    expect(types(await verify(plain, other))).toEqual(['CONTROLLER_MISMATCH']);
    expect(types(await verify(plain, issuerDid, 'authentication'))).toEqual(['PROOF_PURPOSE_MISMATCH']);
  });

  test("the resolver's view of a Family A DID is its own document; the seed's resolver route is unchanged", async () => {
    const { didDocument } = await resolver.resolve(issuerDid);
    const plainDid = issuerDid.split(';')[0]!;
    expect(didDocument).toMatchObject({ id: issuerDid, controller: issuerDid, assertionMethod: [`${issuerDid}#keys-1`, `${issuerDid}#did-root-key`] });
    expect(didDocument.verificationMethod?.map((m) => [m.id, m.controller])).toEqual([
      [`${issuerDid}#keys-1`, issuerDid],
      [`${issuerDid}#did-root-key`, issuerDid],
    ]);
    expect(didDocument.alsoKnownAs).toContain(plainDid);
    const route = unwrap(await p.slice.resolveDocument(p.verifierKey, issuerDid));
    expect(route['id']).toBe(plainDid);
    expect((route['verificationMethod'] as Json[]).map((m) => m['id'])).toEqual([`${plainDid}#keys-1`, `${plainDid}#did-root-key`]);
  });

  test('a changed claim fails: plain value, encrypted value, encrypted value respelled as the same IRI', async () => {
    const changed = clone(plain);
    changed.credentialSubject[0].name = 'Mallory';
    await expectRefused(changed, issuerDid, 'PROOF_VERIFICATION_ERROR');
    const shown = encrypted.credentialSubject[0] as Record<string, string>;
    const flipped = clone(encrypted);
    flipped.credentialSubject[0].email = shown['email']!.startsWith('AB') ? `AC${shown['email']!.slice(2)}` : `AB${shown['email']!.slice(2)}`;
    await expectRefused(flipped, issuerDid, 'PROOF_VERIFICATION_ERROR');
    // Under the profile's JSON-LD base the absolute spelling is the same RDF: the signature alone would accept it.
    const respelled = clone(encrypted);
    respelled.credentialSubject[0].id = `https://credgate.dev/ciphertext/${shown['id']}`;
    const r = await expectRefused(respelled, issuerDid, 'PROOF_VERIFICATION_ERROR');
    expect(r.errors[0]!.detail).toMatch(/not a ciphertext/);
    const dates = clone(plain);
    dates.expirationDate = '2099-01-01T00:00:00Z';
    await expectRefused(dates, issuerDid, 'PROOF_VERIFICATION_ERROR');
  });

  test('a changed jws or created fails', async () => {
    const jws = clone(plain);
    jws.proof.jws = flipLast(plain.proof.jws);
    await expectRefused(jws, issuerDid, 'PROOF_VERIFICATION_ERROR');
    const created = clone(plain);
    created.proof.created = '2020-01-01T00:00:00Z';
    await expectRefused(created, issuerDid, 'PROOF_VERIFICATION_ERROR');
    const future = clone(plain);
    future.proof.created = '2999-01-01T00:00:00Z';
    const r = await expectRefused(future, issuerDid, 'PROOF_CREATED_IN_FUTURE');
    expect(types(r)).toContain('PROOF_VERIFICATION_ERROR');
  });

  test('a changed verification method fails: same key under another name, another issuer, an unknown ledger file, a key of my own', async () => {
    const renamed = clone(plain);
    renamed.proof.vcVerificationMethod = `${issuerDid}#keys-1`;
    await expectRefused(renamed, issuerDid, 'PROOF_VERIFICATION_ERROR');

    const q = await newParty(server, 'REST');
    const otherIssuer = unwrap(await q.fa.issuerDid(q.issuerKey));
    const borrowed = clone(plain);
    borrowed.proof.creator = otherIssuer;
    borrowed.proof.vcVerificationMethod = `${otherIssuer}#did-root-key`;
    const b = await expectRefused(borrowed, issuerDid, 'CONTROLLER_MISMATCH');
    expect(types(b)).toContain('PROOF_VERIFICATION_ERROR');

    const unknownFile = issuerDid.replace(/fid=0\.0\.\d+$/, 'fid=0.0.999999999');
    const ghost = clone(plain);
    ghost.proof.creator = unknownFile;
    ghost.proof.vcVerificationMethod = `${unknownFile}#did-root-key`;
    await expectRefused(ghost, issuerDid, 'VERIFICATION_METHOD_NOT_FOUND');

    const inconsistent = clone(plain);
    inconsistent.proof.creator = otherIssuer;
    await expectRefused(inconsistent, issuerDid, 'MALFORMED_PROOF');

    // Re-signed by an attacker's own did:key in the same profile: a valid signature, by the wrong controller.
    const seed = randomBytes(32);
    const attacker = didKeyFromPublicKey('Ed25519', ed25519.getPublicKey(seed));
    const { proof: _p, credentialStatus: _s, ...unsigned } = clone(plain);
    const forged = await signEd25519Signature2018(unsigned, {
      seed,
      proof: { type: 'Ed25519Signature2018', creator: attacker, created: plain.proof.created, proofPurpose: 'assertionMethod', vcVerificationMethod: `${attacker}#${attacker.slice('did:key:'.length)}` },
      documentLoader: createDocumentLoader(),
      base: 'https://credgate.dev/ciphertext/',
    });
    const f = await verify({ ...forged, credentialStatus: '' }, issuerDid);
    expect(types(f)).toEqual(['CONTROLLER_MISMATCH']);
  });

  test('content outside the signature is refused, not ignored: credentialStatus, extra context, extra proof member', async () => {
    const status = clone(plain);
    status.credentialStatus = 'https://evil.example/status/1';
    await expectRefused(status, issuerDid, 'UNSIGNED_CONTENT');
    const context = clone(plain);
    context['@context'] = [...plain['@context'], { name: 'https://credgate.dev/vocab#email' }];
    await expectRefused(context, issuerDid, 'UNSIGNED_CONTENT');
    const member = clone(plain);
    member.proof.domain = 'example.com';
    await expectRefused(member, issuerDid, 'UNSIGNED_CONTENT');
    // Naming a W3C verificationMethod leaves the profile: "" is no IRI to a plain Ed25519Signature2018
    // verifier, and without it the added member was never signed.
    const w3c = clone(plain);
    w3c.proof.verificationMethod = `${issuerDid}#did-root-key`;
    await expectRefused(w3c, issuerDid, 'INVALID_JSONLD');
    delete w3c.credentialStatus;
    await expectRefused(w3c, issuerDid, 'PROOF_VERIFICATION_ERROR');
    // Without its "" status the credential is exactly what was signed.
    const { credentialStatus: _s, ...noStatus } = clone(plain);
    expect((await verify(noStatus, issuerDid)).verified).toBe(true);
  });
});

describe('Family B credentials (EcdsaSecp256k1Signature2019, selective disclosure) verify as W3C proofs', () => {
  let f: FbParty;
  let vc: Json;
  let documentId: string;

  beforeAll(async () => {
    f = await fbParty(server, 'REST');
    vc = await f.issue();
    documentId = vc.proof.verificationMethod.split('#')[0];
  });

  test('a credential and a selectively disclosed copy verify; the plain-DID issuer controls the key', async () => {
    expect(documentId).toMatch(new RegExp(`^${f.issuer.did}:0\\.0\\.\\d+$`));
    expect(await verify(vc, f.issuer.did)).toEqual({ verified: true, suite: 'EcdsaSecp256k1Signature2019', verificationMethod: `${documentId}#keys-1`, controllers: [f.issuer.did], errors: [] });
    expect((await verify(discloseOnly(vc, ['name']), f.issuer.did)).verified).toBe(true);
    const other = await fbParty(server, 'REST');
    expect(types(await verify(vc, other.issuer.did))).toEqual(['CONTROLLER_MISMATCH']);
    expect(types(await verify(vc, f.issuer.did, 'authentication'))).toEqual(['PROOF_PURPOSE_MISMATCH']);
    // The resolver's view: the stored-document spelling of each method, controlled by the plain DID and authorized by it.
    const { didDocument } = await resolver.resolve(documentId);
    expect(didDocument.id).toBe(f.issuer.did);
    expect(didDocument.assertionMethod).toEqual([`${f.issuer.did}#keys-1`, `${documentId}#keys-1`]);
    expect(didDocument.verificationMethod?.find((m) => m.id === `${documentId}#keys-1`)).toMatchObject({ controller: f.issuer.did, type: 'EcdsaSecp256k1VerificationKey2019' });
  });

  test('a changed claim fails: value, hidden value shown, issuer, dates', async () => {
    const value = clone(vc);
    value.credentialSubject[0].employeeNo = 8;
    await expectRefused(value, f.issuer.did, 'PROOF_VERIFICATION_ERROR');
    const added = discloseOnly(vc, ['name']) as Json;
    added.credentialSubject[0].employeeNo = 8;
    await expectRefused(added, f.issuer.did, 'PROOF_VERIFICATION_ERROR');
    const dates = clone(vc);
    dates.expirationDate = '2099-01-01T00:00:00Z';
    await expectRefused(dates, f.issuer.did, 'PROOF_VERIFICATION_ERROR');
    const holder = clone(vc);
    holder.credentialSubject[0].id = f.issuer.did;
    await expectRefused(holder, f.issuer.did, 'PROOF_VERIFICATION_ERROR');
  });

  test('a changed jws or created fails', async () => {
    const jws = clone(vc);
    jws.proof.jws = flipLast(vc.proof.jws);
    await expectRefused(jws, f.issuer.did, 'PROOF_VERIFICATION_ERROR');
    const created = clone(vc);
    created.proof.created = '2020-01-01T00:00:00Z';
    await expectRefused(created, f.issuer.did, 'PROOF_VERIFICATION_ERROR');
  });

  test('a changed verification method fails: same key under the plain name, another issuer, an unknown ledger file', async () => {
    const renamed = clone(vc);
    renamed.proof.verificationMethod = `${f.issuer.did}#keys-1`;
    await expectRefused(renamed, f.issuer.did, 'PROOF_VERIFICATION_ERROR');
    const other = await fbParty(server, 'REST');
    const otherVc = await other.issue();
    const borrowed = clone(vc);
    borrowed.proof.verificationMethod = otherVc.proof.verificationMethod;
    const b = await expectRefused(borrowed, f.issuer.did, 'CONTROLLER_MISMATCH');
    expect(types(b)).toContain('PROOF_VERIFICATION_ERROR');
    const ghost = clone(vc);
    ghost.proof.verificationMethod = `${f.issuer.did}:0.0.999999999#keys-1`;
    await expectRefused(ghost, f.issuer.did, 'VERIFICATION_METHOD_NOT_FOUND');
  });

  test('content outside the signature is refused: an extra member, an extra proof member', async () => {
    const evidence = clone(vc);
    evidence.evidence = [{ id: 'https://evil.example/evidence', type: ['Document'] }];
    const r = await expectRefused(evidence, f.issuer.did, 'UNSIGNED_CONTENT');
    expect(r.errors.find((e) => e.type === 'UNSIGNED_CONTENT')!.detail).toMatch(/evidence/);
    const member = clone(vc);
    member.proof.challenge = 'abc';
    await expectRefused(member, f.issuer.did, 'UNSIGNED_CONTENT');
  });

  test("the issuer's public status list credential verifies, before and after a revocation; tampering fails", async () => {
    const path = new URL(vc.credentialStatus.statusListCredential).pathname;
    const before = (await request(server.baseUrl, 'GET', path)).json as Json;
    expect(before.proof).toMatchObject({ type: 'EcdsaSecp256k1Signature2019', verificationMethod: `${documentId}#keys-1` });
    expect(await verify(before, f.issuer.did)).toEqual({ verified: true, suite: 'EcdsaSecp256k1Signature2019', verificationMethod: `${documentId}#keys-1`, controllers: [f.issuer.did], errors: [] });
    const revoked = await f.issue();
    unwrap(await f.t.revoke(f.keys.issuer, revoked.id));
    const after = (await request(server.baseUrl, 'GET', path)).json as Json;
    expect(after.credentialSubject.encodedList).not.toBe(before.credentialSubject.encodedList);
    expect((await verify(after, f.issuer.did)).verified).toBe(true);

    // The revocation undone by showing the old bits under the new signature, or the other way round.
    await expectRefused({ ...clone(after), credentialSubject: before.credentialSubject }, f.issuer.did, 'PROOF_VERIFICATION_ERROR');
    await expectRefused({ ...clone(before), proof: after.proof }, f.issuer.did, 'PROOF_VERIFICATION_ERROR');
    const created = clone(after);
    created.proof.created = '2020-01-01T00:00:00Z';
    await expectRefused(created, f.issuer.did, 'PROOF_VERIFICATION_ERROR');
    const extra = clone(after);
    extra.validUntil = '2999-01-01T00:00:00Z';
    await expectRefused(extra, f.issuer.did, 'PROOF_VERIFICATION_ERROR');
    const jws = clone(after);
    jws.proof.jws = flipLast(after.proof.jws);
    await expectRefused(jws, f.issuer.did, 'PROOF_VERIFICATION_ERROR');
    const other = await fbParty(server, 'REST');
    expect(types(await verify(after, other.issuer.did))).toEqual(['CONTROLLER_MISMATCH']);
  });

  test("the CCG's RDF-canonicalised EcdsaSecp256k1Signature2019 (no digests) is refused as unsupported", async () => {
    const { sdAlg: _a, digests: _d, disclosures: _x, ...ccgProof } = clone(vc.proof);
    await expectRefused({ ...clone(vc), proof: ccgProof }, f.issuer.did, 'UNSUPPORTED_PROOF_SUITE');
  });
});
