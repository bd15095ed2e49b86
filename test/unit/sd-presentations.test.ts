import { AppError } from '../../src/errors';
import { canonicalize } from '../../src/domain/canonical';
import { bytesToBase64Url, bytesToHex } from '../../src/domain/encoding';
import { ed25519Sign, ed25519Verify, generateEd25519Keypair, generateSecp256k1Keypair } from '../../src/domain/keys';
import {
  PRESENTATION_PROOF_TYPE,
  SD_SALT_BYTES,
  buildPresentationSigningInput,
  checkDisclosedCredential,
  createDisclosure,
  createSdCredentialPayload,
  disclosureDigest,
  parseDisclosure,
  sdCommitment,
  sdDigestList,
  signPresentation,
  verifyDisclosure,
  verifyPresentationSignature,
  type PresentationProofOptions,
} from '../../src/domain/presentations';
import { expectAppError } from '../support/app-error';

/** Deterministic byte source for reproducible salts. */
function counterRandom(start = 1): (n: number) => Uint8Array {
  let next = start;
  return (n) => Uint8Array.from({ length: n }, () => next++ & 0xff);
}

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

// --- SD-JWT interoperability --------------------------------------------------------------

/**
 * Published examples of draft-ietf-oauth-selective-disclosure-jwt-07 §5 (the same construction as
 * RFC 9901): their disclosures use `", "` separators, so this also proves that digests are taken
 * over the disclosure string as sent, never over re-serialised JSON.
 */
const SD_JWT_EXAMPLES = [
  {
    disclosure: 'WyIyR0xDNDJzS1F2ZUNmR2ZyeU5STjl3IiwgImdpdmVuX25hbWUiLCAiSm9obiJd',
    digest: 'jsu9yVulwQQlhFlM_3JlzMaSFzglhQG0DpfayQwLUK4',
    salt: '2GLC42sKQveCfGfryNRN9w',
    name: 'given_name',
    value: 'John',
  },
  {
    disclosure: 'WyI2cU1RdlJMNWhhaiIsICJmYW1pbHlfbmFtZSIsICJNw7ZiaXVzIl0',
    digest: 'uutlBuYeMDyjLLTpf6Jxi7yNkEF35jdyWMn9U7b_RYY',
    salt: '6qMQvRL5haj',
    name: 'family_name',
    value: 'Möbius',
  },
];

describe('disclosures (SD-JWT)', () => {
  it.each(SD_JWT_EXAMPLES)('matches the published digest of $name', (ex) => {
    expect(disclosureDigest(ex.disclosure)).toBe(ex.digest);
    expect(parseDisclosure(ex.disclosure)).toEqual({ salt: ex.salt, name: ex.name, value: ex.value });
    expect(verifyDisclosure(ex.disclosure, ex.name, ex.digest)).toEqual({ ok: true, value: ex.value });
  });

  it('rejects the published array-element disclosure (two elements)', () => {
    expectAppError(() => parseDisclosure('WyJsa2x4RjVqTVlsR1RQVW92TU5JdkNBIiwgIkZSIl0'), 'INVALID_INPUT', /\[salt, name, value\]/);
  });

  it('creates [salt, name, value] as compact JSON', () => {
    const d = createDisclosure('c2FsdA', 'age', 42);
    expect(Buffer.from(d, 'base64url').toString('utf8')).toBe('["c2FsdA","age",42]');
    expect(parseDisclosure(d)).toEqual({ salt: 'c2FsdA', name: 'age', value: 42 });
  });

  it('verifyDisclosure fails on another name, another digest or garbage', () => {
    const [ex] = SD_JWT_EXAMPLES;
    if (!ex) throw new Error('no example');
    expect(verifyDisclosure(ex.disclosure, 'family_name', ex.digest).ok).toBe(false);
    expect(verifyDisclosure(ex.disclosure, ex.name, SD_JWT_EXAMPLES[1]?.digest ?? '').ok).toBe(false);
    const junk = bytesToBase64Url(new TextEncoder().encode('{"not":"an array"}'));
    expect(verifyDisclosure(junk, 'x', disclosureDigest(junk))).toEqual({
      ok: false,
      reason: 'disclosure must be a JSON array [salt, name, value]',
    });
  });

  it.each([
    ['empty', ''],
    ['padded', 'WyJhIiwiYiIsMV0='],
    ['not base64url', 'Wy+/'],
    ['invalid UTF-8', bytesToBase64Url(Uint8Array.from([0x5b, 0x22, 0xff, 0x22, 0x5d]))],
    ['not JSON', bytesToBase64Url(new TextEncoder().encode('[a,b,c]'))],
    ['four elements', bytesToBase64Url(new TextEncoder().encode('["s","n",1,2]'))],
    ['empty salt', bytesToBase64Url(new TextEncoder().encode('["","n",1]'))],
    ['numeric name', bytesToBase64Url(new TextEncoder().encode('["s",5,1]'))],
    ['reserved _sd', bytesToBase64Url(new TextEncoder().encode('["s","_sd",[]]'))],
    ['reserved __proto__', bytesToBase64Url(new TextEncoder().encode('["s","__proto__",{}]'))],
  ])('parseDisclosure rejects %s', (_label, d) => {
    expectAppError(() => parseDisclosure(d), 'INVALID_INPUT');
  });
});

describe('createSdCredentialPayload', () => {
  const subject = { name: 'Ana', birthDate: '1990-01-02', score: 7.5, member: true, address: { city: 'Recife' } };

  it('makes one disclosure and digest per attribute, with 128-bit salts', () => {
    const { digests, disclosures } = createSdCredentialPayload(subject);
    expect(Object.keys(digests)).toEqual(Object.keys(subject));
    expect(Object.keys(disclosures)).toEqual(Object.keys(subject));
    for (const [name, value] of Object.entries(subject)) {
      const d = disclosures[name] as string;
      expect(digests[name]).toBe(disclosureDigest(d));
      const parsed = parseDisclosure(d);
      expect(parsed.name).toBe(name);
      expect(parsed.value).toEqual(value);
      expect(Buffer.from(parsed.salt, 'base64url')).toHaveLength(SD_SALT_BYTES);
    }
  });

  it('draws fresh salts, so equal subjects give unlinkable digests', () => {
    const a = createSdCredentialPayload(subject);
    const b = createSdCredentialPayload(subject);
    expect(Object.values(a.digests).some((d) => Object.values(b.digests).includes(d))).toBe(false);
  });

  it('is reproducible with an injected random source', () => {
    expect(createSdCredentialPayload(subject, counterRandom())).toEqual(createSdCredentialPayload(subject, counterRandom()));
  });

  it('refuses a random source that returns too few bytes', () => {
    expectAppError(() => createSdCredentialPayload(subject, () => new Uint8Array(8)), 'INVALID_INPUT', /16 bytes/);
  });

  it.each([
    ['empty', {}],
    ['reserved _sd', { _sd: 1 }],
    ['reserved ...', { '...': 1 }],
    ['own __proto__', JSON.parse('{"__proto__": 1}') as Record<string, unknown>],
    ['non-JSON value', { a: Number.NaN }],
    ['undefined value', { a: undefined }],
  ])('rejects %s', (_label, s) => {
    expectAppError(() => createSdCredentialPayload(s), 'INVALID_INPUT');
  });
});

describe('sdDigestList / sdCommitment', () => {
  const { digests } = createSdCredentialPayload({ a: 1, b: 2, c: 3 }, counterRandom());
  const base = {
    credentialId: 'urn:uuid:1',
    issuer: 'did:svcid:testnet:issuer',
    holder: 'did:svcid:testnet:holder',
    issuanceDate: '2026-01-01T00:00:00Z',
    expirationDate: '2027-01-01T00:00:00Z',
    type: ['VerifiableCredential', 'EmployeeCard'],
    digests,
  };

  it('sorts the digests and drops the names', () => {
    const list = sdDigestList(digests);
    expect(list).toEqual(Object.values(digests).sort());
    expect(sdDigestList(list.slice().reverse())).toEqual(list);
  });

  it('commits to every field and to the sorted digest list', () => {
    const text = new TextDecoder().decode(sdCommitment(base));
    expect(JSON.parse(text)).toEqual({
      v: 1,
      purpose: 'credgate-sd-credential',
      sdAlg: 'sha-256',
      credentialId: 'urn:uuid:1',
      issuer: base.issuer,
      holder: base.holder,
      issuanceDate: base.issuanceDate,
      expirationDate: base.expirationDate,
      type: base.type,
      digests: sdDigestList(digests),
    });
    expect(text).toBe(canonicalize(JSON.parse(text)));
    expect(text).not.toMatch(/"a"|"b"|"c"/);
  });

  it('is the same for a record or a list of the same digests', () => {
    expect(Array.from(sdCommitment({ ...base, digests: Object.values(digests) }))).toEqual(Array.from(sdCommitment(base)));
  });

  it.each([
    ['credentialId', { credentialId: 'urn:uuid:2' }],
    ['holder', { holder: 'did:svcid:testnet:other' }],
    ['expirationDate', { expirationDate: '2030-01-01T00:00:00Z' }],
    ['no expirationDate', { expirationDate: undefined }],
    ['type', { type: ['VerifiableCredential'] }],
    ['digests', { digests: { ...digests, d: disclosureDigest('x') } }],
  ])('changes when %s changes', (_label, change) => {
    expect(Buffer.from(sdCommitment({ ...base, ...change })).equals(Buffer.from(sdCommitment(base)))).toBe(false);
  });

  it('reports every bad field', () => {
    const err = expectAppError(
      () => sdCommitment({ ...base, credentialId: '', holder: 3 as unknown as string, type: [], digests: ['short'] }),
      'INVALID_INPUT',
    );
    expect(err.details?.map((d) => d.field)).toEqual(['credentialId', 'holder', 'type', 'digests']);
  });

  it.each([
    ['empty', []],
    ['duplicate', [disclosureDigest('x'), disclosureDigest('x')]],
    ['not 32 bytes', [bytesToBase64Url(new Uint8Array(31))]],
    ['padded', [`${disclosureDigest('x')}=`]],
  ])('sdDigestList rejects %s', (_label, list) => {
    expectAppError(() => sdDigestList(list), 'INVALID_INPUT');
  });
});

// --- End-to-end: issue, present 2 of 5, verify, and tamper ---------------------------------

const issuerKeys = generateEd25519Keypair();
const holderKeys = generateSecp256k1Keypair();
const holderSk = bytesToHex(holderKeys.privateKey);
const holderPk = bytesToHex(holderKeys.publicKey);
const HOLDER = 'did:svcid:testnet:holder1';
const ISSUER = 'did:svcid:testnet:issuer1';

interface IssuedCredential {
  id: string;
  type: string[];
  issuer: string;
  holder: string;
  issuanceDate: string;
  expirationDate: string;
  sdDigests: string[];
  proof: { type: string; created: string; proofPurpose: string; jws: string };
}

/** Issuer side: digests into the credential, signature over the commitment, disclosures to the holder. */
function issue(id: string, subject: Record<string, unknown>): { credential: IssuedCredential; disclosures: Record<string, string> } {
  const { digests, disclosures } = createSdCredentialPayload(subject);
  const fields = {
    credentialId: id,
    issuer: ISSUER,
    holder: HOLDER,
    issuanceDate: '2026-01-10T00:00:00Z',
    expirationDate: '2027-01-10T00:00:00Z',
    type: ['VerifiableCredential', 'Passport'],
    digests,
  };
  const sig = ed25519Sign(sdCommitment(fields), issuerKeys.privateKey);
  return {
    credential: {
      id,
      type: fields.type,
      issuer: ISSUER,
      holder: HOLDER,
      issuanceDate: fields.issuanceDate,
      expirationDate: fields.expirationDate,
      sdDigests: sdDigestList(digests),
      proof: { type: 'Ed25519Signature2018', created: fields.issuanceDate, proofPurpose: 'assertionMethod', jws: bytesToBase64Url(sig) },
    },
    disclosures,
  };
}

interface PresentedCredential extends IssuedCredential {
  credentialSubject: Record<string, unknown>[];
  disclosures: string[];
}

/** Holder side: keep only the chosen attributes and their disclosures. */
function present(
  issued: { credential: IssuedCredential; disclosures: Record<string, string> },
  subject: Record<string, unknown>,
  names: string[],
): PresentedCredential {
  return {
    ...issued.credential,
    credentialSubject: [Object.fromEntries(names.map((n) => [n, subject[n]]))],
    disclosures: names.map((n) => issued.disclosures[n] as string),
  };
}

/** Verifier side, as POST /verify-vp would run it. */
function verifyVp(vp: unknown, expected: { challenge?: string; domain?: string; holderPk?: string }): { ok: boolean; reason?: string } {
  const sigCheck = verifyPresentationSignature(vp, expected.holderPk ?? holderPk, {
    challenge: expected.challenge,
    domain: expected.domain,
    holder: HOLDER,
  });
  if (!sigCheck.valid) return { ok: false, reason: sigCheck.reason };
  const p = vp as { verifiableCredential: PresentedCredential[]; presentationAttributes: Record<string, string[]> };
  for (const vc of p.verifiableCredential) {
    const commitment = sdCommitment({
      credentialId: vc.id,
      issuer: vc.issuer,
      holder: vc.holder,
      issuanceDate: vc.issuanceDate,
      expirationDate: vc.expirationDate,
      type: vc.type,
      digests: vc.sdDigests,
    });
    if (!ed25519Verify(Buffer.from(vc.proof.jws, 'base64url'), commitment, issuerKeys.publicKey)) {
      return { ok: false, reason: 'issuer signature' };
    }
    const check = checkDisclosedCredential({
      disclosed: vc.credentialSubject[0] ?? {},
      disclosures: vc.disclosures,
      digests: vc.sdDigests,
      expectedAttributes: p.presentationAttributes[vc.id],
    });
    if (!check.ok) return { ok: false, reason: check.reason };
  }
  return { ok: true };
}

const SUBJECT_A = { givenName: 'Ana', familyName: 'Souza', birthDate: '1990-01-02', nationality: 'BR', documentNumber: 'X1234567' };
const SUBJECT_B = { givenName: 'Ana', familyName: 'Souza', employer: 'ACME', role: 'Engineer', salary: 123456 };
const issuedA = issue('urn:uuid:cred-a', SUBJECT_A);
const issuedB = issue('urn:uuid:cred-b', SUBJECT_B);
const OPTIONS: PresentationProofOptions = {
  created: '2026-02-01T12:00:00Z',
  verificationMethod: `${HOLDER}#keys-1`,
  proofPurpose: 'authentication',
  challenge: 'nonce-123',
  domain: 'verifier.example',
};

function unsignedVp(credentials: PresentedCredential[]): Record<string, unknown> {
  return {
    '@context': ['https://www.w3.org/2018/credentials/v1'],
    type: ['VerifiablePresentation'],
    verifiableCredential: credentials,
    holder: HOLDER,
    presentationAttributes: Object.fromEntries(credentials.map((c) => [c.id, Object.keys(c.credentialSubject[0] ?? {})])),
    issuanceDate: '2026-02-01T12:00:00Z',
  };
}

function makeVp(credentials: PresentedCredential[], options = OPTIONS): Record<string, unknown> {
  return signPresentation(unsignedVp(credentials), holderSk, options);
}

const EXPECT = { challenge: 'nonce-123', domain: 'verifier.example' };

describe('presentation happy path: 2 of 5 attributes', () => {
  const presented = present(issuedA, SUBJECT_A, ['givenName', 'nationality']);
  const vp = makeVp([presented]);

  it('verifies', () => {
    expect(verifyVp(vp, EXPECT)).toEqual({ ok: true });
  });

  it('returns the disclosed values', () => {
    const check = checkDisclosedCredential({ disclosed: { givenName: 'Ana', nationality: 'BR' }, disclosures: presented.disclosures, digests: presented.sdDigests });
    expect(check).toEqual({ ok: true, values: { givenName: 'Ana', nationality: 'BR' } });
  });

  it('reveals neither the values nor the names of the other three attributes', () => {
    const text = JSON.stringify(vp);
    for (const hidden of ['Souza', '1990-01-02', 'X1234567', 'familyName', 'birthDate', 'documentNumber']) {
      expect(text).not.toContain(hidden);
    }
    expect(presented.sdDigests).toHaveLength(5);
  });

  it('has the spec §2.11 proof shape', () => {
    const proof = vp.proof as Record<string, unknown>;
    expect(proof.type).toBe(PRESENTATION_PROOF_TYPE);
    expect(proof.signatureValue).toMatch(/^[0-9a-f]{128}$/);
    expect(Object.keys(proof).sort()).toEqual(['challenge', 'created', 'domain', 'proofPurpose', 'signatureValue', 'type', 'verificationMethod']);
  });

  it('verifies with two credentials and no expectations, and with the bare holder DID as verificationMethod', () => {
    const two = makeVp([presented, present(issuedB, SUBJECT_B, ['employer'])], { created: OPTIONS.created, verificationMethod: HOLDER });
    expect(verifyVp(two, {})).toEqual({ ok: true });
    expect((two.proof as Record<string, unknown>).challenge).toBeUndefined();
  });

  it('shows every attribute when all five are disclosed', () => {
    expect(verifyVp(makeVp([present(issuedA, SUBJECT_A, Object.keys(SUBJECT_A))]), EXPECT)).toEqual({ ok: true });
  });
});

describe('presentation tampering', () => {
  const names = ['givenName', 'nationality'];
  const good = (): PresentedCredential => clone(present(issuedA, SUBJECT_A, names));
  /** A malicious holder re-signs after editing, so only the credential checks can catch it. */
  const reSigned = (vc: PresentedCredential, attrs?: string[]): Record<string, unknown> => {
    const vp = unsignedVp([vc]);
    if (attrs) vp.presentationAttributes = { [vc.id]: attrs };
    return signPresentation(vp, holderSk, OPTIONS);
  };

  it('changing a disclosed value fails', () => {
    const vc = good();
    (vc.credentialSubject[0] as Record<string, unknown>).nationality = 'PT';
    expect(verifyVp(reSigned(vc), EXPECT)).toEqual({ ok: false, reason: 'attribute "nationality" differs from its disclosure' });
  });

  it('changing the value inside a disclosure fails (its digest is not signed)', () => {
    const vc = good();
    const salt = parseDisclosure(vc.disclosures[1] as string).salt;
    vc.disclosures[1] = createDisclosure(salt, 'nationality', 'PT');
    (vc.credentialSubject[0] as Record<string, unknown>).nationality = 'PT';
    expect(verifyVp(reSigned(vc), EXPECT)).toEqual({ ok: false, reason: 'disclosure 1 is not covered by the signed digests' });
  });

  it('adding an attribute without a disclosure fails', () => {
    const vc = good();
    (vc.credentialSubject[0] as Record<string, unknown>).age = 40;
    expect(verifyVp(reSigned(vc, [...names, 'age']), EXPECT)).toEqual({ ok: false, reason: 'attribute "age" has no disclosure' });
  });

  it('adding an attribute with a self-made disclosure fails', () => {
    const vc = good();
    (vc.credentialSubject[0] as Record<string, unknown>).age = 40;
    vc.disclosures.push(createDisclosure('AAAAAAAAAAAAAAAAAAAAAA', 'age', 40));
    expect(verifyVp(reSigned(vc, [...names, 'age']), EXPECT)).toEqual({ ok: false, reason: 'disclosure 2 is not covered by the signed digests' });
  });

  it('adding a digest for a forged attribute breaks the issuer signature', () => {
    const vc = good();
    const forged = createDisclosure('AAAAAAAAAAAAAAAAAAAAAA', 'age', 40);
    vc.sdDigests = sdDigestList([...vc.sdDigests, disclosureDigest(forged)]);
    vc.disclosures.push(forged);
    (vc.credentialSubject[0] as Record<string, unknown>).age = 40;
    expect(verifyVp(reSigned(vc, [...names, 'age']), EXPECT)).toEqual({ ok: false, reason: 'issuer signature' });
  });

  it('removing the disclosure of a shown attribute fails', () => {
    const vc = good();
    vc.disclosures.pop();
    expect(verifyVp(reSigned(vc), EXPECT)).toEqual({ ok: false, reason: 'attribute "nationality" has no disclosure' });
  });

  it('removing a shown attribute but keeping its disclosure fails', () => {
    const vc = good();
    delete (vc.credentialSubject[0] as Record<string, unknown>).nationality;
    expect(verifyVp(reSigned(vc, ['givenName']), EXPECT)).toEqual({ ok: false, reason: 'attribute "nationality" is disclosed but not shown' });
  });

  it('showing attributes other than the presentationAttributes list fails', () => {
    expect(verifyVp(reSigned(good(), ['givenName']), EXPECT)).toEqual({
      ok: false,
      reason: 'shown attributes differ from the requested attribute list',
    });
  });

  it('repeating a disclosure fails', () => {
    const vc = good();
    vc.disclosures.push(vc.disclosures[0] as string);
    expect(verifyVp(reSigned(vc), EXPECT)).toEqual({ ok: false, reason: 'disclosure 2 is repeated' });
  });

  it('swapping disclosures between credentials fails', () => {
    const a = good();
    const b = clone(present(issuedB, SUBJECT_B, ['givenName', 'employer']));
    // Both subjects have givenName 'Ana': the values agree, but the salts (digests) do not.
    const aGiven = a.disclosures[0] as string;
    a.disclosures[0] = b.disclosures[0] as string;
    b.disclosures[0] = aGiven;
    const vp = signPresentation(unsignedVp([a, b]), holderSk, OPTIONS);
    expect(verifyVp(vp, EXPECT)).toEqual({ ok: false, reason: 'disclosure 0 is not covered by the signed digests' });
  });

  it('moving a whole shown credential view onto another credential fails', () => {
    const b = clone(present(issuedB, SUBJECT_B, ['givenName']));
    const a = good();
    b.disclosures = [a.disclosures[0] as string];
    expect(verifyVp(reSigned(b), EXPECT).ok).toBe(false);
  });

  it('replaying with another challenge or domain fails', () => {
    const vp = makeVp([good()]);
    expect(verifyVp(vp, { ...EXPECT, challenge: 'nonce-999' })).toEqual({ ok: false, reason: 'challenge does not match' });
    expect(verifyVp(vp, { ...EXPECT, domain: 'evil.example' })).toEqual({ ok: false, reason: 'domain does not match' });
    const noChallenge = makeVp([good()], { created: OPTIONS.created, verificationMethod: HOLDER });
    expect(verifyVp(noChallenge, EXPECT)).toEqual({ ok: false, reason: 'challenge does not match' });
  });

  it('rewriting the challenge without re-signing fails', () => {
    const vp = makeVp([good()]);
    (vp.proof as Record<string, unknown>).challenge = 'nonce-999';
    expect(verifyVp(vp, { challenge: 'nonce-999' })).toEqual({ ok: false, reason: 'signature does not verify with the holder public key' });
  });

  it('a wrong holder key fails', () => {
    const vp = makeVp([good()]);
    const other = bytesToHex(generateSecp256k1Keypair().publicKey);
    expect(verifyVp(vp, { ...EXPECT, holderPk: other })).toEqual({ ok: false, reason: 'signature does not verify with the holder public key' });
  });

  it('any edit after signing fails', () => {
    const edits: ((vp: Record<string, unknown>) => void)[] = [
      (vp) => {
        vp.issuanceDate = '2026-02-02T12:00:00Z';
      },
      (vp) => {
        vp.extra = true;
      },
      (vp) => {
        (vp.presentationAttributes as Record<string, string[]>)['urn:uuid:cred-a'] = ['givenName'];
      },
      (vp) => {
        ((vp.verifiableCredential as PresentedCredential[])[0] as PresentedCredential).credentialSubject = [{ givenName: 'Ana' }];
      },
      (vp) => {
        (vp.proof as Record<string, unknown>).created = '2026-02-01T12:00:01Z';
      },
      (vp) => {
        delete (vp.proof as Record<string, unknown>).proofPurpose;
      },
    ];
    for (const edit of edits) {
      const vp = clone(makeVp([good()]));
      edit(vp);
      expect(verifyPresentationSignature(vp, holderPk, EXPECT).valid).toBe(false);
    }
  });

  it('another holder cannot present the credential as theirs', () => {
    const vp = clone(makeVp([good()]));
    vp.holder = 'did:svcid:testnet:mallory';
    expect(verifyPresentationSignature(vp, holderPk, { holder: HOLDER })).toEqual({
      valid: false,
      reason: 'presentation holder is not the expected holder',
    });
  });
});

describe('signPresentation / verifyPresentationSignature details', () => {
  const vp = unsignedVp([]);

  it('signing input excludes signatureValue and ignores an existing proof', () => {
    const signed = signPresentation(vp, holderSk, OPTIONS);
    const a = buildPresentationSigningInput(vp, OPTIONS);
    const b = buildPresentationSigningInput(signed, OPTIONS);
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
    const text = new TextDecoder().decode(a);
    expect(text).not.toContain('signatureValue');
    expect(text).toContain('"challenge":"nonce-123"');
    expect(text).toContain(`"type":"${PRESENTATION_PROOF_TYPE}"`);
  });

  it('does not mutate its input', () => {
    const before = JSON.stringify(vp);
    signPresentation(vp, holderSk, OPTIONS);
    expect(JSON.stringify(vp)).toBe(before);
  });

  it('rejects bad proof options when signing', () => {
    const err = expectAppError(
      () => signPresentation(vp, holderSk, { created: 'yesterday', verificationMethod: 'did:svcid:testnet:other#k', challenge: '' }),
      'INVALID_INPUT',
    );
    expect(err.details?.map((d) => d.field)).toEqual(['proof.created', 'proof.verificationMethod', 'proof.challenge']);
  });

  it('rejects a presentation without holder or type', () => {
    const err = expectAppError(() => signPresentation({ type: ['VerifiableCredential'] }, holderSk, OPTIONS), 'INVALID_INPUT');
    expect(err.details?.map((d) => d.field)).toEqual(['type', 'holder']);
  });

  it('rejects a bad private key', () => {
    expectAppError(() => signPresentation(vp, 'ab', OPTIONS), 'INVALID_PRIVATE_KEY');
  });

  it('throws INVALID_PUBLIC_KEY for a malformed holder key', () => {
    expectAppError(() => verifyPresentationSignature(signPresentation(vp, holderSk, OPTIONS), 'zz', {}), 'INVALID_PUBLIC_KEY');
  });

  it.each([
    ['not an object', () => 'vp'],
    ['no proof', () => ({ ...vp })],
    ['other proof type', (s: Record<string, unknown>) => ({ ...s, proof: { ...(s.proof as object), type: 'Ed25519Signature2018' } })],
    ['unknown proof member', (s: Record<string, unknown>) => ({ ...s, proof: { ...(s.proof as object), nonce: 'x' } })],
    ['short signature', (s: Record<string, unknown>) => ({ ...s, proof: { ...(s.proof as object), signatureValue: 'ab' } })],
    ['holder removed', (s: Record<string, unknown>) => ({ ...s, holder: undefined })],
  ])('is invalid (not thrown) for %s', (_label, mutate) => {
    const signed = signPresentation(vp, holderSk, OPTIONS) as Record<string, unknown>;
    const result = verifyPresentationSignature(mutate(signed), holderPk, {});
    expect(result.valid).toBe(false);
    expect(typeof result.reason).toBe('string');
  });

  it('accepts upper-case signature hex', () => {
    const signed = signPresentation(vp, holderSk, OPTIONS);
    const upper = { ...signed, proof: { ...signed.proof, signatureValue: signed.proof.signatureValue.toUpperCase() } };
    expect(verifyPresentationSignature(upper, holderPk, EXPECT)).toEqual({ valid: true });
  });
});

describe('checkDisclosedCredential edge cases', () => {
  const issued = issue('urn:uuid:edge', { a: 1, b: { nested: [1, 2] }, c: null });
  const d = issued.disclosures;
  const digests = issued.credential.sdDigests;

  it('compares values as JSON (member order does not matter)', () => {
    const check = checkDisclosedCredential({ disclosed: { b: JSON.parse('{"nested":[1,2]}') as unknown }, disclosures: [d.b as string], digests });
    expect(check.ok).toBe(true);
    expect(checkDisclosedCredential({ disclosed: { b: { nested: [2, 1] } }, disclosures: [d.b as string], digests }).ok).toBe(false);
  });

  it('distinguishes null from absent and from a string', () => {
    expect(checkDisclosedCredential({ disclosed: { c: null }, disclosures: [d.c as string], digests }).ok).toBe(true);
    expect(checkDisclosedCredential({ disclosed: { c: 'null' }, disclosures: [d.c as string], digests }).ok).toBe(false);
  });

  it('accepts an empty view (nothing disclosed)', () => {
    expect(checkDisclosedCredential({ disclosed: {}, disclosures: [], digests })).toEqual({ ok: true, values: {} });
  });

  it('rejects malformed inputs without throwing', () => {
    expect(checkDisclosedCredential({ disclosed: { a: 1 }, disclosures: [d.a as string], digests: [] }).ok).toBe(false);
    expect(checkDisclosedCredential({ disclosed: [] as unknown as Record<string, unknown>, disclosures: [], digests }).ok).toBe(false);
    expect(checkDisclosedCredential({ disclosed: {}, disclosures: 'x' as unknown as string[], digests }).ok).toBe(false);
    expect(checkDisclosedCredential({ disclosed: {}, disclosures: [5 as unknown as string], digests }).ok).toBe(false);
    expect(checkDisclosedCredential({ disclosed: { a: 1 }, disclosures: [d.a as string], digests, expectedAttributes: ['a', 'a'] }).ok).toBe(false);
  });

  it('rejects two disclosures of the same name even when both are signed', () => {
    const twin = createSdCredentialPayload({ a: 1 });
    const both = [...digests, twin.digests.a as string];
    expect(checkDisclosedCredential({ disclosed: { a: 1 }, disclosures: [d.a as string, twin.disclosures.a as string], digests: both })).toEqual({
      ok: false,
      reason: 'attribute "a" is disclosed twice',
    });
  });

  it('an own __proto__ member in the shown view is not covered', () => {
    const disclosed = JSON.parse('{"__proto__": 1}') as Record<string, unknown>;
    expect(checkDisclosedCredential({ disclosed, disclosures: [], digests })).toEqual({ ok: false, reason: 'attribute "__proto__" has no disclosure' });
  });
});
