import { ed25519 } from '@noble/curves/ed25519.js';
import { base58, base64urlnopad } from '@scure/base';
import { createDocumentLoader } from '../../src/domain/contexts';
import {
  DETACHED_EDDSA_HEADER,
  signEd25519Signature2018,
  verifyEd25519Signature2018,
  type JsonObject,
} from '../../src/domain/proofs';
import { AppError } from '../../src/errors';
import { readSharedJson } from '../support/shared';

type Json = JsonObject;
const vector = <T>(file: string): T => readSharedJson<T>('vectors', 'ed25519signature2018', file);

// keys_key.json: Ed25519VerificationKey2018 with publicKeyBase58 (32 bytes) and privateKeyBase58
// (64 bytes = RFC 8032 seed || public key, the NaCl/tweetnacl layout).
const key = vector<{ publicKeyBase58: string; privateKeyBase58: string; id: string }>('keys_key.json');
const publicKey = base58.decode(key.publicKeyBase58);
const seed = base58.decode(key.privateKeyBase58).slice(0, 32);
const loader = createDocumentLoader();

/** Deep copy of `doc` with the member at `path` replaced (or deleted when value is undefined). */
function withChange(doc: Json, path: readonly (string | number)[], value: unknown): Json {
  const copy = structuredClone(doc);
  let target: Record<string | number, unknown> = copy;
  for (const step of path.slice(0, -1)) target = target[step] as Record<string | number, unknown>;
  const last = path[path.length - 1] as string | number;
  if (value === undefined) delete target[last];
  else target[last] = value;
  return copy;
}

async function thrown(promise: Promise<unknown>): Promise<AppError> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('key material from keys_key.json', () => {
  it('is a 32-byte seed whose public key is publicKeyBase58', () => {
    expect(seed).toHaveLength(32);
    expect(Buffer.from(ed25519.getPublicKey(seed)).equals(Buffer.from(publicKey))).toBe(true);
  });
});

describe.each(['2', '5'])('digitalbazaar vector case-%s', (which) => {
  const credential = vector<Json>(`credentials_case-${which}.json`);
  const proof = vector<Json>(`proofs_digital-bazaar_case-${which}.json`);
  const signed: Json = { ...credential, proof };
  const { jws, ...proofOptions } = proof;

  it('verifies with the published public key', async () => {
    await expect(verifyEd25519Signature2018(signed, { publicKey, documentLoader: loader })).resolves.toEqual({ verified: true });
  });

  it('re-signing with the same key and proof options reproduces the exact jws', async () => {
    const resigned = await signEd25519Signature2018(credential, { seed, proof: proofOptions, documentLoader: loader });
    expect(resigned.proof.jws).toBe(jws);
    expect(resigned).toEqual(signed);
  });

  it('uses the b64:false detached header', () => {
    const [header, payload] = String(jws).split('.');
    expect(JSON.parse(Buffer.from(base64urlnopad.decode(header ?? '')).toString('utf8'))).toEqual(DETACHED_EDDSA_HEADER);
    expect(payload).toBe('');
  });

  const changes: [string, (string | number)[], unknown][] = [
    ['credential id', ['id'], 'https://example.com/credentials/1873'],
    ['issuanceDate', ['issuanceDate'], '2010-01-01T19:23:25Z'],
    ['credentialSubject.id', ['credentialSubject', 'id'], 'did:example:ebfeb1f712ebc6f1c276e12ec22'],
    ['proof.created', ['proof', 'created'], '2010-01-01T19:23:25Z'],
    ['proof.verificationMethod', ['proof', 'verificationMethod'], `${key.id}x`],
    ['proof.proofPurpose', ['proof', 'proofPurpose'], 'authentication'],
    ['proof.jws signature', ['proof', 'jws'], `${String(jws).slice(0, -2)}AA`],
    ['proof.jws header', ['proof', 'jws'], String(jws).replace(/^[^.]+/, base64urlnopad.encode(Buffer.from('{"alg":"EdDSA","b64":true,"crit":["b64"]}')))],
    ['proof.jws shape', ['proof', 'jws'], String(jws).replace('..', '.e30.')],
    ['proof.jws removed', ['proof', 'jws'], undefined],
    ['proof.type', ['proof', 'type'], 'Ed25519Signature2020'],
    ['the whole proof', ['proof'], undefined],
    ['a stray proofValue', ['proof', 'proofValue'], 'z123'],
  ];
  if (which === '5') changes.push(['issuer', ['issuer'], 'did:key:z6MkiTBz1ymuepAQ4HEHYSF1H8quG5GLVVQR3djdX3mDooWp']);

  it.each(changes)('does not verify after tampering with: %s', async (_label, path, value) => {
    const result = await verifyEd25519Signature2018(withChange(signed, path, value), { publicKey, documentLoader: loader });
    expect(result.verified).toBe(false);
    expect(typeof result.reason).toBe('string');
  });

  it('throws INVALID_INPUT (never verifies) when a claim the contexts do not define is added', async () => {
    const tampered = withChange(signed, ['credentialSubject', 'alumniOf'], 'x');
    await expect(verifyEd25519Signature2018(tampered, { publicKey, documentLoader: loader })).rejects.toThrow(AppError);
  });

  it('fails with another public key', async () => {
    const otherKey = ed25519.getPublicKey(new Uint8Array(32).fill(7));
    await expect(verifyEd25519Signature2018(signed, { publicKey: otherKey, documentLoader: loader })).resolves.toMatchObject({ verified: false });
  });
});

describe('verifyEd25519Signature2018 input handling', () => {
  const credential = vector<Json>('credentials_case-2.json');
  const proof = vector<Json>('proofs_digital-bazaar_case-2.json');

  it.each<[string, unknown]>([
    ['a non-object document', 'not a credential'],
    ['a proof set', { ...credential, proof: [proof, proof] }],
    ['a non-object proof', { ...credential, proof: 'x' }],
    ['a non-string jws', { ...credential, proof: { ...proof, jws: 42 } }],
    ['a jws with a non-64-byte signature', { ...credential, proof: { ...proof, jws: `${String(proof.jws).split('..')[0]}..AAAA` } }],
    ['a jws with padding', { ...credential, proof: { ...proof, jws: `${String(proof.jws)}==` } }],
  ])('returns verified false (no throw) for %s', async (_label, document) => {
    await expect(verifyEd25519Signature2018(document, { publicKey, documentLoader: loader })).resolves.toMatchObject({ verified: false });
  });

  it('returns verified false for a public key that is not 32 bytes', async () => {
    const result = await verifyEd25519Signature2018({ ...credential, proof }, { publicKey: publicKey.slice(1), documentLoader: loader });
    expect(result).toEqual({ verified: false, reason: 'public key is not a 32-byte Ed25519 key' });
  });

  it('throws INVALID_INPUT for a term no context defines', async () => {
    const error = await thrown(
      verifyEd25519Signature2018({ ...credential, nickname: 'x', proof }, { publicKey, documentLoader: loader }),
    );
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.message).toContain('nickname');
  });

  it('throws INVALID_INPUT for an unknown context', async () => {
    const error = await thrown(
      verifyEd25519Signature2018(
        { ...credential, '@context': ['https://www.w3.org/2018/credentials/v1', 'https://example.org/x'], proof },
        { publicKey, documentLoader: loader },
      ),
    );
    expect(error.message).toBe('unknown JSON-LD context https://example.org/x');
  });
});

describe('signEd25519Signature2018 input handling', () => {
  const credential = vector<Json>('credentials_case-2.json');
  const { jws: _jws, ...proofOptions } = vector<Json>('proofs_digital-bazaar_case-2.json');

  it('rejects a seed that is not 32 bytes without echoing it', async () => {
    const error = await thrown(signEd25519Signature2018(credential, { seed: seed.slice(0, 31), proof: proofOptions, documentLoader: loader }));
    expect(error.code).toBe('INVALID_PRIVATE_KEY');
    expect(error.message).not.toMatch(/[0-9a-f]{16}/i);
  });

  it.each<[string, Json, Json]>([
    ['a document that already has a proof', { ...credential, proof: {} }, proofOptions],
    ['another proof type', credential, { ...proofOptions, type: 'Ed25519Signature2020' }],
    ['a jws in the proof options', credential, { ...proofOptions, jws: 'x' }],
    ['a null proof option', credential, { ...proofOptions, created: null }],
  ])('rejects %s with INVALID_INPUT', async (_label, document, proof) => {
    const error = await thrown(signEd25519Signature2018(document, { seed, proof, documentLoader: loader }));
    expect(error.code).toBe('INVALID_INPUT');
  });

  it('defaults the proof type and does not mutate its inputs', async () => {
    const { type: _type, ...untyped } = proofOptions;
    const before = structuredClone(credential);
    const signed = await signEd25519Signature2018(credential, { seed, proof: untyped, documentLoader: loader });
    expect(signed.proof.type).toBe('Ed25519Signature2018');
    expect(credential).toEqual(before);
    await expect(verifyEd25519Signature2018(signed, { publicKey, documentLoader: loader })).resolves.toEqual({ verified: true });
  });
});

describe('Credgate Family A credential', () => {
  const issuer = 'did:credgate:local:abc;credgate:local:fid=0.0.7';
  const familyA: Json = {
    '@context': ['https://www.w3.org/2018/credentials/v1', 'https://credgate.dev/contexts/credgate/v1'],
    id: 'Employee:1:6f1c2b1e-1111-4a2b-9c3d-123456789abc',
    type: ['VerifiableCredential', 'Employee', 'Encrypted'],
    version: '1.0',
    credentialSchema: { id: 'https://credgate.dev/schemas/Employee/1.json', type: 'JsonSchemaValidator2018' },
    issuer,
    credentialSubject: [{ id: 'did:credgate:local:xyz;credgate:local:fid=0.0.9', name: 'Alice', age: '30', email: 'a@b.c' }],
    issuanceDate: '2024-01-01T00:00:00Z',
    expirationDate: '2025-01-01T00:00:00Z',
    biometrics: { face: null, iris: null, finger: null },
  };
  const proofOptions: Json = {
    type: 'Ed25519Signature2018',
    creator: issuer,
    created: '2024-01-01T00:00:01Z',
    proofPurpose: 'assertionMethod',
    vcVerificationMethod: `${issuer}#did-root-key`,
  };
  const sign = (document: Json): Promise<Json> => signEd25519Signature2018(document, { seed, proof: proofOptions, documentLoader: loader });
  const verify = (document: unknown) => verifyEd25519Signature2018(document, { publicKey, documentLoader: loader });

  let signed: Json;
  let signedWithFace: Json;
  let signedWithStatus: Json;
  beforeAll(async () => {
    signed = await sign(familyA);
    signedWithFace = await sign({ ...familyA, biometrics: { face: 'data:image/png;base64,iVBORw0KGgo=', iris: null, finger: null } });
    signedWithStatus = await sign({ ...familyA, credentialStatus: 'https://credgate.dev/status/1#94567' });
  });

  it('signs and verifies, with the proof members in order and jws last', async () => {
    expect(Object.keys(signed.proof as Json)).toEqual(['type', 'creator', 'created', 'proofPurpose', 'vcVerificationMethod', 'jws']);
    await expect(verify(signed)).resolves.toEqual({ verified: true });
    await expect(verify(signedWithFace)).resolves.toEqual({ verified: true });
    await expect(verify(signedWithStatus)).resolves.toEqual({ verified: true });
  });

  it('is deterministic', async () => {
    await expect(sign(familyA)).resolves.toEqual(signed);
  });

  const changes: [string, (string | number)[], unknown][] = [
    ['id', ['id'], 'Employee:1:6f1c2b1e-1111-4a2b-9c3d-123456789abd'],
    ['type schema name', ['type', 1], 'Contractor'],
    ['type Encrypted removed', ['type'], ['VerifiableCredential', 'Employee']],
    ['type entry added', ['type'], ['VerifiableCredential', 'Employee', 'Encrypted', 'Revoked']],
    ['version', ['version'], '1.1'],
    ['version as number', ['version'], 1],
    ['credentialSchema.id', ['credentialSchema', 'id'], 'https://credgate.dev/schemas/Employee/2.json'],
    ['credentialSchema.type', ['credentialSchema', 'type'], 'JsonSchema'],
    ['issuer', ['issuer'], 'did:credgate:local:abc;credgate:local:fid=0.0.8'],
    ['subject id', ['credentialSubject', 0, 'id'], 'did:credgate:local:xyz;credgate:local:fid=0.0.10'],
    ['subject name', ['credentialSubject', 0, 'name'], 'Alicia'],
    ['subject age', ['credentialSubject', 0, 'age'], '31'],
    ['subject age type', ['credentialSubject', 0, 'age'], 30],
    ['subject email', ['credentialSubject', 0, 'email'], 'a@b.d'],
    ['subject claim removed', ['credentialSubject', 0, 'email'], undefined],
    ['subject claim added', ['credentialSubject', 0, 'role'], 'admin'],
    ['a second subject', ['credentialSubject', 1], { id: 'did:credgate:local:evil', name: 'Mallory' }],
    ['issuanceDate', ['issuanceDate'], '2024-01-01T00:00:01Z'],
    ['expirationDate', ['expirationDate'], '2035-01-01T00:00:00Z'],
    ['expirationDate removed', ['expirationDate'], undefined],
    ['biometrics.face', ['biometrics', 'face'], 'data:image/png;base64,AAAA'],
    ['biometrics.iris', ['biometrics', 'iris'], {}],
    ['biometrics.finger key removed', ['biometrics', 'finger'], undefined],
    ['biometrics', ['biometrics'], null],
    ['a new top-level field', ['note'], 'x'],
    ['credentialStatus added', ['credentialStatus'], 'https://credgate.dev/status/1#1'],
    ['proof.created', ['proof', 'created'], '2024-01-01T00:00:02Z'],
    ['proof.creator', ['proof', 'creator'], 'did:credgate:local:abd;credgate:local:fid=0.0.7'],
    ['proof.vcVerificationMethod', ['proof', 'vcVerificationMethod'], `${issuer}#key-2`],
    ['proof.proofPurpose', ['proof', 'proofPurpose'], 'authentication'],
    ['proof field added', ['proof', 'domain'], 'credgate.dev'],
    ['proof.jws', ['proof', 'jws'], 'eyJhbGciOiJFZERTQSIsImI2NCI6ZmFsc2UsImNyaXQiOlsiYjY0Il19..' + 'A'.repeat(86)],
  ];

  it.each(changes)('does not verify after tampering with: %s', async (_label, path, value) => {
    await expect(verify(withChange(signed, path, value))).resolves.toMatchObject({ verified: false });
  });

  it('fails when the face image of the face variant changes', async () => {
    await expect(verify(withChange(signedWithFace, ['biometrics', 'face'], 'data:image/png;base64,iVBORw0KGgp='))).resolves.toMatchObject({ verified: false });
    await expect(verify(withChange(signedWithFace, ['biometrics', 'face'], null))).resolves.toMatchObject({ verified: false });
  });

  it('fails when an IRI credentialStatus changes or is removed', async () => {
    await expect(verify(withChange(signedWithStatus, ['credentialStatus'], 'https://credgate.dev/status/1#94568'))).resolves.toMatchObject({ verified: false });
    await expect(verify(withChange(signedWithStatus, ['credentialStatus'], undefined))).resolves.toMatchObject({ verified: false });
  });

  it('cannot sign credentialStatus: "" (credentials/v1 makes it an IRI) and never verifies it as unsigned', async () => {
    const error = await thrown(sign({ ...familyA, credentialStatus: '' }));
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.message).toContain('relative object reference');
    await expect(verify({ ...signed, credentialStatus: '' })).rejects.toThrow(AppError);
  });

  it('never verifies a member JSON-LD would drop (null, [], @index): it throws INVALID_INPUT instead', async () => {
    for (const [path, value] of [
      [['expirationDate'], null],
      [['credentialSubject', 0, 'phone'], null],
      [['note'], []],
      [['@index'], 'x'],
    ] as const) {
      const error = await thrown(verify(withChange(signed, [...path], value)));
      expect(error.code).toBe('INVALID_INPUT');
    }
  });

  it('covers the RDF graph, not the JSON shape: array order is not signed', async () => {
    // Characterisation of Linked Data proofs, for callers: reordering a set-valued member keeps
    // the same graph, hence the same signature. Values themselves can never be changed.
    await expect(verify(withChange(signed, ['type'], ['Encrypted', 'Employee', 'VerifiableCredential']))).resolves.toEqual({ verified: true });
  });

  it('rejects a credential id whose prefix is not a URI scheme instead of leaving it unsigned', async () => {
    const error = await thrown(sign({ ...familyA, id: 'Employee Record:1:6f1c2b1e' }));
    expect(error.code).toBe('INVALID_INPUT');
  });

  it('rejects a claim name that cannot become an IRI instead of leaving it unsigned', async () => {
    const error = await thrown(sign(withChange(familyA, ['credentialSubject', 0, 'first name'], 'Alice')));
    expect(error.code).toBe('INVALID_INPUT');
  });

  it('does not verify under the credentials/v1 context alone (creator, version, biometrics are then undefined)', async () => {
    await expect(verify({ ...signed, '@context': ['https://www.w3.org/2018/credentials/v1'] })).rejects.toThrow(AppError);
  });
});
