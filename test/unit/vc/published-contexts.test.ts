import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CREDENTIALS_V1_CONTEXT, DID_V1_CONTEXT, PINNED_CONTEXTS, canonizeJsonLd, createDocumentLoader } from '../../../src/domain/contexts';
import { PUBLISHED_CONTEXT_SOURCES, packageRoot } from '../../../src/domain/contexts';
import { createCanonicalizer } from '../../../src/canon';
import { registerCanonicalizationExecutor, DEFAULT_JSONLD_BUDGET } from '../../../src/domain/contexts';
import { vectorJson } from '../../support/vc/vectors';

const REQUIRED = [
  'https://www.w3.org/2018/credentials/v1',
  'https://www.w3.org/ns/credentials/v2',
  'https://www.w3.org/ns/credentials/undefined-terms/v2',
  'https://w3id.org/security/data-integrity/v1',
  'https://w3id.org/security/data-integrity/v2',
  'https://w3id.org/security/suites/ed25519-2020/v1',
  'https://w3id.org/security/multikey/v1',
  'https://www.w3.org/ns/did/v1',
  'https://www.w3.org/ns/credentials/status/v1',
  'https://www.w3.org/2018/credentials/examples/v1',
  'https://www.w3.org/ns/odrl.jsonld',
];

/**
 * A Family A seed credential as the service signs it, with its canonical form computed (by
 * jsonld, RDFC-1.0) under the former hand-copied credentials/v1 context (commit e857203). Switching to
 * the package's copy must not change one byte, or every credential issued before would stop verifying.
 */
const seedCredential = {
  '@context': ['https://www.w3.org/2018/credentials/v1', 'https://credgate.dev/contexts/credgate/v1'],
  id: 'Employee:1:0b8f3a52-7a57-4f7e-9d55-3c3c0d0e7a11',
  type: ['VerifiableCredential', 'Employee'],
  version: '1.0',
  issuer: 'did:credgate:local:abc',
  issuanceDate: '2024-05-01T10:00:00Z',
  credentialSchema: { id: 'https://credgate.dev/schemas/Employee/1', type: 'JsonSchemaValidator2018' },
  credentialSubject: [{ id: 'did:credgate:local:xyz', name: 'Alice' }],
};

describe('contexts from the published packages', () => {
  it('pins every required URL, each read from its package file', () => {
    for (const url of REQUIRED) expect(PINNED_CONTEXTS.has(url)).toBe(true);
    for (const source of PUBLISHED_CONTEXT_SOURCES) {
      const file = JSON.parse(readFileSync(join(packageRoot(source.packageName), source.file), 'utf8')) as unknown;
      expect(PINNED_CONTEXTS.get(source.url)).toEqual(file);
    }
  });

  it('serves the package copies of credentials v1 and DID v1, which equal the published vectors and the former hand copies', () => {
    expect(PINNED_CONTEXTS.get('https://www.w3.org/2018/credentials/v1')).toBe(CREDENTIALS_V1_CONTEXT);
    expect(PINNED_CONTEXTS.get('https://www.w3.org/ns/did/v1')).toBe(DID_V1_CONTEXT);
    // credentials-context (the non-scoped package) ships the same v1 document as JavaScript.
    expect(CREDENTIALS_V1_CONTEXT).toEqual(require('credentials-context').contexts.get('https://www.w3.org/2018/credentials/v1'));
  });

  it('leaves the canonical form of a seed credential unchanged', async () => {
    const nquads = await canonizeJsonLd(seedCredential, createDocumentLoader());
    expect(nquads).toBe(readFileSync(join(__dirname, '..', '..', 'fixtures', 'vc', 'seed-credential.nq'), 'utf8'));
  });

  it('gives the canonicalisation worker pool the same contexts (a v2 Data Integrity credential canonicalises off-thread)', async () => {
    const canonicalizer = createCanonicalizer({ workers: 1, deadlineMs: 10_000, queueLimit: 4, budget: DEFAULT_JSONLD_BUDGET });
    const unregister = registerCanonicalizationExecutor(canonicalizer);
    try {
      const signed = vectorJson('eddsa-rdfc-2022', 'signedDataInt.json');
      const { proof: _p, ...doc } = signed;
      const v2 = { ...doc, '@context': ['https://www.w3.org/ns/credentials/v2'], type: ['VerifiableCredential'], credentialSubject: { id: 'did:example:abcdefgh' } };
      const inWorker = await canonizeJsonLd(v2, createDocumentLoader());
      expect(canonicalizer.stats.completed).toBe(1);
      unregister();
      expect(await canonizeJsonLd(v2, createDocumentLoader())).toBe(inWorker);
    } finally {
      unregister();
      await canonicalizer.close();
    }
  });
});
