import { createHmac } from 'node:crypto';
import { envelopeJwtCredential, issueJwtCredential, verifyJwtCredential, type JwtCredentialVerification } from '../../../src/vc/jwt';
import { checkValidityPeriod, prepareCredentialForIssuance } from '../../../src/vc/model';
import type { DidDocument } from '../../../src/domain/dids/did-document.types';
import { didKeyDocument } from '../../../src/domain/dids/did-key';
import type { JsonObject, ProofVerifyOptions } from '../../../src/vc/ports';
import { unsignedCredential } from '../../support/vc/credentials';
import { createTestDidResolver } from '../../support/vc/jwt-resolver';
import { newDidKeyIssuer, signerAs } from '../../support/vc/jwt-signers';
import { assemble, partsOf, reuseSignature, signAs } from '../../support/vc/jws';

/**
 * Every edit an attacker can make to a JWT credential, each performed for real against tokens
 * signed with real keys; each must be refused, and for the right reason.
 */
const issuer = newDidKeyIssuer('Ed25519');
const p256Issuer = newDidKeyIssuer('P-256');
const attacker = newDidKeyIssuer('Ed25519');
const NOW = new Date('2025-03-01T10:20:30Z');
const options = (extra: Partial<ProofVerifyOptions> = {}, documents: Record<string, DidDocument> = {}): ProofVerifyOptions => ({
  resolver: createTestDidResolver(documents),
  expectedProofPurpose: 'assertionMethod',
  ...extra,
});

const v2 = (extra: JsonObject = {}) => prepareCredentialForIssuance(unsignedCredential('2.0', 'did:example:holder', extra), { issuer: issuer.did, now: NOW });
const v1 = (extra: JsonObject = {}) => prepareCredentialForIssuance(unsignedCredential('1.1', 'did:example:holder', extra), { issuer: issuer.did, now: NOW });

function expectRefused(result: JwtCredentialVerification, type: string, title?: RegExp): void {
  expect(result.verified).toBe(false);
  expect(result.credential).toBeUndefined();
  expect(result.errors).toEqual(expect.arrayContaining([expect.objectContaining({ type, ...(title ? { title: expect.stringMatching(title) } : {}) })]));
}

describe('a changed payload, header or signature', () => {
  it.each(['2.0', '1.1'] as const)('VCDM %s: a changed claim breaks the signature', async (version) => {
    const jwt = await issueJwtCredential(version === '2.0' ? v2() : v1(), issuer.signer);
    const edited = reuseSignature(jwt, ({ payload }) => {
      const subject = (version === '2.0' ? payload.credentialSubject : (payload.vc as JsonObject).credentialSubject) as JsonObject;
      subject.degree = { type: 'ExampleDoctorateDegree', name: 'Doctor of Everything' };
    });
    expectRefused(await verifyJwtCredential(edited, options()), 'PROOF_VERIFICATION_ERROR', /signature does not verify/);
  });

  it('a changed @context breaks the signature', async () => {
    const jwt = await issueJwtCredential(v2(), issuer.signer);
    const edited = reuseSignature(jwt, ({ payload }) => {
      payload['@context'] = ['https://www.w3.org/ns/credentials/v2', 'https://attacker.example/ctx'];
    });
    expectRefused(await verifyJwtCredential(edited, options()), 'PROOF_VERIFICATION_ERROR', /signature does not verify/);
  });

  it('a 1.1 sub claim moved to another holder breaks the signature', async () => {
    const jwt = await issueJwtCredential(v1(), issuer.signer);
    const edited = reuseSignature(jwt, ({ payload }) => {
      payload.sub = 'did:example:someone-else';
    });
    expectRefused(await verifyJwtCredential(edited, options()), 'PROOF_VERIFICATION_ERROR', /signature does not verify/);
  });

  it('a flipped signature byte is refused', async () => {
    const jwt = await issueJwtCredential(v2(), issuer.signer);
    const { header, payload, signature } = partsOf(jwt);
    const bytes = Buffer.from(signature, 'base64url');
    bytes[10] = (bytes[10] ?? 0) ^ 0x01;
    expectRefused(await verifyJwtCredential(assemble(header, payload, bytes.toString('base64url')), options()), 'PROOF_VERIFICATION_ERROR', /signature/);
  });

  it.each([
    ['EdDSA key, header says ES256', 'ES256'],
    ['EdDSA key, header says ES384', 'ES384'],
  ])('a changed alg is refused before any signature check (%s)', async (_label, alg) => {
    const jwt = await issueJwtCredential(v2(), issuer.signer);
    const edited = reuseSignature(jwt, ({ header }) => {
      header.alg = alg;
    });
    expectRefused(await verifyJwtCredential(edited, options()), 'PROOF_VERIFICATION_ERROR', /does not match the Ed25519 key/);
  });

  it('a P-256 key cannot be used under ES384 (curve/hash confusion), even with a real ES384-shaped signature', async () => {
    const credential = prepareCredentialForIssuance(unsignedCredential('2.0'), { issuer: p256Issuer.did, now: NOW });
    const forged = await signAs({ alg: 'ES384', kid: p256Issuer.signer.verificationMethod, typ: 'vc+jwt' }, credential, p256Issuer.signer);
    expectRefused(await verifyJwtCredential(forged, options()), 'PROOF_VERIFICATION_ERROR', /does not match the P-256 key/);
  });

  it.each([
    ['JWT (the 1.1 type on a 2.0 payload)', 'JWT', /must carry a vc claim/],
    ['vp+jwt (a presentation type)', 'vp+jwt', /not a credential type/],
    ['vc+ld+json+jwt (a withdrawn draft type)', 'vc+ld+json+jwt', /not a credential type/],
  ])('a changed typ is refused: %s', async (_label, typ, title) => {
    const credential = v2();
    const forged = await signAs({ alg: 'EdDSA', kid: issuer.signer.verificationMethod, typ }, credential, issuer.signer);
    expectRefused(await verifyJwtCredential(forged, options()), 'MALFORMED_VALUE_ERROR', title);
  });

  it('an unknown critical header is refused (jose enforces crit)', async () => {
    const forged = await signAs({ alg: 'EdDSA', kid: issuer.signer.verificationMethod, typ: 'vc+jwt', crit: ['exp2'], exp2: 1 }, v2(), issuer.signer);
    expectRefused(await verifyJwtCredential(forged, options()), 'PROOF_VERIFICATION_ERROR');
  });
});

describe('algorithm attacks', () => {
  it('alg none with an empty signature is not even a JWS we read', async () => {
    const token = assemble({ alg: 'none', typ: 'vc+jwt' }, v2(), '');
    expectRefused(await verifyJwtCredential(token, options()), 'PARSING_ERROR');
  });

  it('alg none with a signature part is refused by name', async () => {
    const token = assemble({ alg: 'none', kid: issuer.signer.verificationMethod, typ: 'vc+jwt' }, v2(), 'AAAA');
    expectRefused(await verifyJwtCredential(token, options()), 'PROOF_VERIFICATION_ERROR', /alg none is not accepted/);
  });

  it('HS256 keyed with the issuer public key (the classic confusion attack) is refused', async () => {
    const method = didKeyDocument(issuer.did).verificationMethod?.[0];
    const secrets = [Buffer.from(method?.publicKeyBase58 ?? ''), issuer.pair.publicKey, Buffer.from(JSON.stringify(method))];
    for (const secret of secrets) {
      const header = { alg: 'HS256', kid: issuer.signer.verificationMethod, typ: 'vc+jwt' };
      const unsigned = assemble(header, v2(), '').slice(0, -1);
      const token = `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
      expectRefused(await verifyJwtCredential(token, options()), 'PROOF_VERIFICATION_ERROR', /alg HS256 is not accepted/);
    }
  });
});

describe('key binding', () => {
  it('a kid naming the attacker\'s own key, for a credential claiming the victim as issuer, is refused', async () => {
    const forged = await signAs({ alg: 'EdDSA', kid: attacker.signer.verificationMethod, typ: 'vc+jwt' }, v2(), attacker.signer);
    expectRefused(await verifyJwtCredential(forged, options()), 'PROOF_VERIFICATION_ERROR', /kid is not a key of the signer/);
  });

  it('a kid moved to another key of the same DID (its X25519 key-agreement key) is refused', async () => {
    const agreement = didKeyDocument(issuer.did).keyAgreement?.[0] as string;
    const jwt = await issueJwtCredential(v2(), issuer.signer);
    const edited = reuseSignature(jwt, ({ header }) => {
      header.kid = agreement;
    });
    expectRefused(await verifyJwtCredential(edited, options()), 'PROOF_VERIFICATION_ERROR', /not authorized for assertionMethod/);
  });

  it('a DID document that lists someone else\'s key is not the issuer\'s key', async () => {
    const victim = 'did:web:issuer.example';
    const foreign = { ...(didKeyDocument(attacker.did).verificationMethod?.[0] as NonNullable<DidDocument['verificationMethod']>[number]) };
    const document: DidDocument = {
      '@context': ['https://www.w3.org/ns/did/v1'],
      id: victim,
      verificationMethod: [{ ...foreign, id: `${victim}#key-1` }],
      assertionMethod: [`${victim}#key-1`],
    };
    const credential = prepareCredentialForIssuance(unsignedCredential('2.0'), { issuer: victim, now: NOW });
    const forged = await issueJwtCredential(credential, signerAs(attacker, `${victim}#key-1`));
    expectRefused(await verifyJwtCredential(forged, options({}, { [victim]: document })), 'PROOF_VERIFICATION_ERROR', /not controlled by the signer/);

    // The same document with the method controlled by the issuer verifies: the refusal above is about the controller.
    const owned: DidDocument = { ...document, verificationMethod: [{ ...foreign, id: `${victim}#key-1`, controller: victim }] };
    expect((await verifyJwtCredential(forged, options({}, { [victim]: owned }))).verified).toBe(true);
  });

  it('a relative kid is resolved against the issuer', async () => {
    const fragment = issuer.signer.verificationMethod.slice(issuer.did.length);
    const token = await signAs({ alg: 'EdDSA', kid: fragment, typ: 'vc+jwt' }, v2(), issuer.signer);
    const result = await verifyJwtCredential(token, options());
    expect(result).toMatchObject({ verified: true, verificationMethod: issuer.signer.verificationMethod });
  });

  it('a credential from another issuer than the expected one is refused', async () => {
    const jwt = await issueJwtCredential(v2(), issuer.signer);
    expectRefused(await verifyJwtCredential(jwt, options({ expectedController: attacker.did })), 'PROOF_VERIFICATION_ERROR', /expected issuer/);
  });
});

describe('validity in time', () => {
  it('VCDM 1.1: an expired credential (exp) is refused', async () => {
    const jwt = await issueJwtCredential(v1({ issuanceDate: '2020-01-01T00:00:00Z', expirationDate: '2021-01-01T00:00:00Z' }), issuer.signer);
    const result = await verifyJwtCredential(jwt, options());
    expect(result.verified).toBe(false);
    expect(result.errors).toEqual([expect.objectContaining({ type: 'EXPIRED' })]);
  });

  it('VCDM 1.1: a credential not valid yet (nbf) is refused', async () => {
    const jwt = await issueJwtCredential(v1({ issuanceDate: '2999-01-01T00:00:00Z' }), issuer.signer);
    const result = await verifyJwtCredential(jwt, options());
    expect(result.verified).toBe(false);
    expect(result.errors).toEqual([expect.objectContaining({ type: 'NOT_YET_VALID' })]);
  });

  it('VCDM 2.0: exp / nbf / iat claims a producer adds are honoured', async () => {
    const kid = issuer.signer.verificationMethod;
    const expired = await signAs({ alg: 'EdDSA', kid, typ: 'vc+jwt' }, { ...v2(), exp: 1_600_000_000 }, issuer.signer);
    expect((await verifyJwtCredential(expired, options())).errors).toEqual([expect.objectContaining({ type: 'EXPIRED' })]);
    const early = await signAs({ alg: 'EdDSA', kid, typ: 'vc+jwt' }, { ...v2(), nbf: 32_000_000_000 }, issuer.signer);
    expect((await verifyJwtCredential(early, options())).errors).toEqual([expect.objectContaining({ type: 'NOT_YET_VALID' })]);
    const future = await signAs({ alg: 'EdDSA', kid, typ: 'vc+jwt' }, { ...v2(), iat: 32_000_000_000 }, issuer.signer);
    expect((await verifyJwtCredential(future, options())).errors).toEqual([expect.objectContaining({ type: 'NOT_YET_VALID' })]);
  });

  it('VCDM 2.0: validUntil is the model\'s check on the verified credential', async () => {
    const jwt = await issueJwtCredential(v2({ validFrom: '2020-01-01T00:00:00Z', validUntil: '2021-01-01T00:00:00Z' }), issuer.signer);
    const result = await verifyJwtCredential(jwt, options());
    expect(result.verified).toBe(true);
    expect(checkValidityPeriod(result.credential as JsonObject, NOW)).toEqual([expect.objectContaining({ type: 'EXPIRED' })]);
  });
});

describe('claims that disagree with the credential', () => {
  it('VCDM 2.0: an iss claim naming someone other than the issuer', async () => {
    const token = await signAs({ alg: 'EdDSA', kid: issuer.signer.verificationMethod, typ: 'vc+jwt' }, { ...v2(), iss: attacker.did }, issuer.signer);
    expectRefused(await verifyJwtCredential(token, options()), 'CLAIM_MISMATCH', /iss claim and the credential issuer/);
  });

  it.each([
    ['iss ≠ vc.issuer', (c: JsonObject) => ({ ...c, vc: { ...(c.vc as JsonObject), issuer: attacker.did } }), /iss claim and vc.issuer/],
    ['sub ≠ credentialSubject.id', (c: JsonObject) => ({ ...c, vc: { ...(c.vc as JsonObject), credentialSubject: { id: 'did:example:other', a: 1 } } }), /sub claim/],
    ['jti ≠ vc.id', (c: JsonObject) => ({ ...c, vc: { ...(c.vc as JsonObject), id: 'urn:uuid:another' } }), /jti claim and vc.id/],
    ['nbf ≠ vc.issuanceDate', (c: JsonObject) => ({ ...c, vc: { ...(c.vc as JsonObject), issuanceDate: '2001-01-01T00:00:00Z' } }), /nbf claim/],
    ['exp ≠ vc.expirationDate', (c: JsonObject) => ({ ...c, exp: 32_000_000_000, vc: { ...(c.vc as JsonObject), expirationDate: '2998-01-01T00:00:00Z' } }), /exp claim/],
  ])('VCDM 1.1: %s, even when signed by the issuer', async (_label, change, title) => {
    const jwt = await issueJwtCredential(v1(), issuer.signer);
    const { header, payload } = partsOf(jwt);
    const token = await signAs(header, change(payload), issuer.signer);
    expectRefused(await verifyJwtCredential(token, options()), 'CLAIM_MISMATCH', title);
  });

  it('VCDM 1.1: a vc claim carrying a 2.0 credential under typ JWT is refused', async () => {
    const token = await signAs({ alg: 'EdDSA', kid: issuer.signer.verificationMethod, typ: 'JWT' }, { iss: issuer.did, vc: v2() }, issuer.signer);
    expectRefused(await verifyJwtCredential(token, options()), 'MALFORMED_VALUE_ERROR', /must be VCDM 1.1/);
  });
});

describe('envelopes', () => {
  it.each([
    ['a presentation media type', 'data:application/vp+jwt,'],
    ['a withdrawn draft media type', 'data:application/vc+ld+json+jwt,'],
    ['a base64 flag', 'data:application/vc+jwt;base64,'],
    ['no media type', 'data:,'],
    ['not a data: URL', 'https://issuer.example/'],
  ])('an envelope with %s is refused', async (_label, prefix) => {
    const jwt = await issueJwtCredential(v2(), issuer.signer);
    const envelope = { ...envelopeJwtCredential(jwt), id: `${prefix}${jwt}` };
    expectRefused(await verifyJwtCredential(envelope, options()), 'MALFORMED_VALUE_ERROR');
  });

  it('a VCDM 1.1 VC-JWT inside an envelope (typ JWT) is refused', async () => {
    const jwt = await issueJwtCredential(v1(), issuer.signer);
    expectRefused(await verifyJwtCredential(envelopeJwtCredential(jwt), options()), 'MALFORMED_VALUE_ERROR', /typ must be vc\+jwt/);
  });

  it('anything else is refused without a crash', async () => {
    for (const input of ['', 'a.b', 'x'.repeat(300_000), '....', 'eyJhbGciOiJFZERTQSJ9.bm90IGpzb24.AAAA']) {
      expect((await verifyJwtCredential(input, options())).verified).toBe(false);
    }
    expect((await verifyJwtCredential({ type: 'VerifiableCredential' }, options())).verified).toBe(false);
  });
});
