import {
  CREDENTIALS_V1_CONTEXT,
  CREDENTIALS_V1_URL,
  CREDGATE_V1_CONTEXT_URL,
  DID_V1_URL,
  ED25519_2018_V1_CONTEXT,
  ED25519_2018_V1_URL,
  PINNED_CONTEXTS,
  canonizeJsonLd,
  createDocumentLoader,
} from '../../src/domain/contexts';
import { AppError } from '../../src/errors';
import { readSharedJson } from '../support/shared';

const vector = (file: string): unknown => readSharedJson('vectors', 'ed25519signature2018', file);

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

const familyA = {
  '@context': [CREDENTIALS_V1_URL, CREDGATE_V1_CONTEXT_URL],
  id: 'Employee:1:0b8f3a52-7a57-4f7e-9d55-3c3c0d0e7a11',
  type: ['VerifiableCredential', 'Employee', 'Encrypted'],
  version: '1.0',
  issuer: 'did:credgate:local:abc;credgate:local:fid=0.0.7',
  issuanceDate: '2024-05-01T10:00:00Z',
  credentialSchema: { id: 'https://credgate.dev/schemas/Employee/1', type: 'JsonSchemaValidator2018' },
  credentialSubject: [{ id: 'did:credgate:local:xyz;credgate:local:fid=0.0.9', name: 'Alice' }],
  biometrics: { face: null, iris: null, finger: null },
};

describe('pinned JSON-LD contexts', () => {
  it('pins credentials/v1 exactly as published', () => {
    expect(CREDENTIALS_V1_CONTEXT).toEqual(vector('contexts_credential-v1.json'));
  });

  it('pins security/suites/ed25519-2018/v1 exactly as published', () => {
    expect(ED25519_2018_V1_CONTEXT).toEqual(vector('contexts_ed25519-2018-v1.json'));
  });

  it('freezes the pinned documents', () => {
    expect(Object.isFrozen(CREDENTIALS_V1_CONTEXT['@context'].VerifiableCredential['@context'])).toBe(true);
    expect(() => {
      (CREDENTIALS_V1_CONTEXT['@context'] as Record<string, unknown>).id = 'https://evil.example/id';
    }).toThrow(TypeError);
  });

  it('pins exactly the expected URLs', () => {
    expect([...PINNED_CONTEXTS.keys()].sort()).toEqual(
      [
        CREDENTIALS_V1_URL,
        CREDGATE_V1_CONTEXT_URL,
        DID_V1_URL,
        ED25519_2018_V1_URL,
        // published packages (src/domain/contexts/published-contexts.ts)
        'https://www.w3.org/ns/credentials/v2',
        'https://w3id.org/security/data-integrity/v1',
        'https://w3id.org/security/data-integrity/v2',
        'https://w3id.org/security/suites/ed25519-2020/v1',
        'https://w3id.org/security/multikey/v1',
        'https://www.w3.org/ns/credentials/status/v1',
        'https://www.w3.org/2018/credentials/examples/v1',
        'https://www.w3.org/ns/odrl.jsonld',
        'https://www.w3.org/ns/credentials/undefined-terms/v2',
        // committed with its source (src/domain/contexts/examples-v2.ts): no package ships it
        'https://www.w3.org/ns/credentials/examples/v2',
      ].sort(),
    );
    expect(CREDGATE_V1_CONTEXT_URL).toBe('https://credgate.dev/contexts/credgate/v1');
  });
});

describe('createDocumentLoader', () => {
  it('serves every pinned context as a jsonld remote document', async () => {
    const load = createDocumentLoader();
    for (const [url, document] of PINNED_CONTEXTS) {
      await expect(load(url)).resolves.toEqual({ contextUrl: null, documentUrl: url, document });
    }
  });

  it('hands out copies, so jsonld cannot alter the pinned text', async () => {
    const load = createDocumentLoader();
    const first = (await load(CREDENTIALS_V1_URL)).document as Record<string, unknown>;
    first['@context'] = 'tampered';
    expect((await load(CREDENTIALS_V1_URL)).document).toEqual(CREDENTIALS_V1_CONTEXT);
  });

  it('rejects any other URL without fetching it', async () => {
    const fetchSpy = jest.spyOn(globalThis, 'fetch');
    try {
      const load = createDocumentLoader();
      const error = await rejection(load('https://www.w3.org/2018/credentials/v2'));
      expect(error.code).toBe('INVALID_INPUT');
      expect(error.message).toBe('unknown JSON-LD context https://www.w3.org/2018/credentials/v2');
      // Exact-string lookup: scheme or trailing-slash variants are different, unknown documents.
      await expect(load('http://www.w3.org/2018/credentials/v1')).rejects.toThrow('unknown JSON-LD context');
      await expect(load(`${CREDENTIALS_V1_URL}/`)).rejects.toThrow('unknown JSON-LD context');
      expect(fetchSpy).not.toHaveBeenCalled();
    } finally {
      fetchSpy.mockRestore();
    }
  });

  it('serves extra documents to that loader only', async () => {
    const extra = { '@context': { nick: 'https://example.org/nick' } };
    const load = createDocumentLoader({ 'https://example.org/ctx': extra });
    await expect(load('https://example.org/ctx')).resolves.toMatchObject({ document: extra });
    await expect(createDocumentLoader()('https://example.org/ctx')).rejects.toThrow('unknown JSON-LD context');
  });

  it('refuses extra documents that would replace a pinned context', () => {
    expect(() => createDocumentLoader({ [CREDENTIALS_V1_URL]: { '@context': {} } })).toThrow(AppError);
  });
});

describe('canonizeJsonLd with the pinned contexts', () => {
  const load = createDocumentLoader();

  it('surfaces an unknown context in a document as the loader AppError', async () => {
    const error = await rejection(canonizeJsonLd({ ...familyA, '@context': [CREDENTIALS_V1_URL, 'https://evil.example/ctx'] }, load));
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.message).toBe('unknown JSON-LD context https://evil.example/ctx');
  });

  it('loads the Credgate context after credentials/v1 without a protected-term error and maps every field', async () => {
    const nquads = await canonizeJsonLd({ ...familyA, credentialSubject: [{ ...familyA.credentialSubject[0], 'favourite-colour': 'blue' }] }, load);
    const subject = '<did:credgate:local:xyz;credgate:local:fid=0.0.9>';
    const credential = `<${familyA.id}>`;
    expect(nquads).toContain(`${credential} <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <https://credgate.dev/vocab#Employee> .`);
    expect(nquads).toContain(`${credential} <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <https://credgate.dev/vocab#Encrypted> .`);
    expect(nquads).toContain(`${credential} <https://credgate.dev/vocab#version> "1.0" .`);
    expect(nquads).toContain(
      `${credential} <https://credgate.dev/vocab#biometrics> "{\\"face\\":null,\\"finger\\":null,\\"iris\\":null}"^^<http://www.w3.org/1999/02/22-rdf-syntax-ns#JSON> .`,
    );
    expect(nquads).toContain(`${credential} <https://www.w3.org/2018/credentials#issuer> <${familyA.issuer}> .`);
    expect(nquads).toContain(
      '<https://credgate.dev/schemas/Employee/1> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <https://www.w3.org/2018/credentials#JsonSchemaValidator2018> .',
    );
    expect(nquads).toContain(`${subject} <https://credgate.dev/vocab#name> "Alice" .`);
    expect(nquads).toContain(`${subject} <https://credgate.dev/vocab#favourite-colour> "blue" .`);
  });

  it('maps the Credgate proof terms inside an Ed25519Signature2018 proof', async () => {
    const nquads = await canonizeJsonLd(
      {
        '@context': familyA['@context'],
        type: 'Ed25519Signature2018',
        creator: `${familyA.issuer}#did-root-key`,
        vcVerificationMethod: `${familyA.issuer}#did-root-key`,
      },
      load,
    );
    expect(nquads).toContain(`<http://purl.org/dc/terms/creator> <${familyA.issuer}#did-root-key>`);
    expect(nquads).toContain(`<https://credgate.dev/vocab#vcVerificationMethod> <${familyA.issuer}#did-root-key>`);
  });

  it('keeps the Credgate terms protected', async () => {
    const redefine = createDocumentLoader({ 'https://example.org/redefine': { '@context': { biometrics: 'https://example.org/b' } } });
    const error = await rejection(
      canonizeJsonLd({ ...familyA, '@context': [...familyA['@context'], 'https://example.org/redefine'] }, redefine),
    );
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.message).toContain('protected term redefinition');
  });

  it('runs in safe mode: an undefined term is an error, not a silently unsigned field', async () => {
    const error = await rejection(
      canonizeJsonLd({ '@context': [CREDENTIALS_V1_URL], type: ['VerifiableCredential'], nickname: 'x' }, load),
    );
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.message).toContain('invalid property');
    expect(error.message).toContain('nickname');
  });

  it('runs in safe mode: a relative IRI is an error (e.g. credentialStatus: "")', async () => {
    const error = await rejection(canonizeJsonLd({ ...familyA, credentialStatus: '' }, load));
    expect(error.message).toContain('relative object reference');
  });

  it('rejects a credential id that is not an absolute IRI instead of dropping it', async () => {
    const error = await rejection(canonizeJsonLd({ ...familyA, id: 'Employee_Record:1:abc' }, load));
    expect(error.message).toContain('relative @id reference');
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['a null member', { ...familyA, expirationDate: null }, '$.expirationDate is null'],
    ['a null claim', { ...familyA, credentialSubject: [{ id: 'did:example:1', name: null }] }, '$.credentialSubject[0].name is null'],
    ['an empty array', { ...familyA, credentialSubject: [] }, '$.credentialSubject is an empty array'],
    ['an @index', { ...familyA, '@index': 'x' }, '$.@index is an @index'],
  ])('rejects %s, which JSON-LD would drop without a safe-mode event', async (_label, document, fragment) => {
    const error = await rejection(canonizeJsonLd(document, load));
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.message).toContain(fragment);
  });

  it('keeps null inside JSON literals, distinct from an absent key or a null literal', async () => {
    const withNull = await canonizeJsonLd({ ...familyA, biometrics: { face: null } }, load);
    const without = await canonizeJsonLd({ ...familyA, biometrics: {} }, load);
    const nullBiometrics = await canonizeJsonLd({ ...familyA, biometrics: null }, load);
    expect(new Set([withNull, without, nullBiometrics]).size).toBe(3);
  });

  it('serves the DID v1 context together with the Ed25519 2018 suite context', async () => {
    const did = 'did:key:z6MktWjP95fMqCMrfNULcdszFeTVUCE1zcgz3Hv5bVAisHgk';
    const nquads = await canonizeJsonLd(
      {
        '@context': [DID_V1_URL, ED25519_2018_V1_URL],
        id: did,
        verificationMethod: [
          { id: `${did}#k`, type: 'Ed25519VerificationKey2018', controller: did, publicKeyBase58: 'F4ULYqQvVesPYsddw4v9QYuVecxAajSdMH19mDChx4uN' },
        ],
        assertionMethod: [`${did}#k`],
      },
      load,
    );
    expect(nquads).toContain(`<${did}> <https://w3id.org/security#assertionMethod> <${did}#k> .`);
    expect(nquads).toContain(`<${did}#k> <https://w3id.org/security#publicKeyBase58> "F4ULYqQvVesPYsddw4v9QYuVecxAajSdMH19mDChx4uN" .`);
  });
});
