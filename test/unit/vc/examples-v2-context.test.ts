import { PINNED_CONTEXTS, canonizeJsonLd, createDocumentLoader } from '../../../src/domain/contexts';
import { CREDENTIALS_EXAMPLES_V2_URL } from '../../../src/domain/contexts';
import { checkCredentialShape } from '../../../src/vc/model';
import { vectorJson } from '../../support/vc/vectors';

/**
 * The VCDM 2.0 examples context is pinned from committed bytes (src/domain/contexts/examples-v2.ts):
 * they must equal the published document the vc-di-eddsa vectors were signed under, and the
 * loader must refuse to have it replaced.
 */
test('the pinned examples/v2 context is the published document, and cannot be replaced', () => {
  expect(PINNED_CONTEXTS.get(CREDENTIALS_EXAMPLES_V2_URL)).toEqual(vectorJson('examples-v2-context.json'));
  expect(() => createDocumentLoader({ [CREDENTIALS_EXAMPLES_V2_URL]: { '@context': { '@vocab': 'https://attacker.example/#' } } })).toThrow(/pinned/);
});

test('a language value with @direction canonicalises to an i18n datatype (as Digital Bazaar cryptosuites do); without one it stays a language string', async () => {
  const doc = (name: unknown) => ({ '@context': ['https://www.w3.org/ns/credentials/v2'], type: ['VerifiableCredential'], issuer: 'did:example:i', name, credentialSubject: { id: 'did:example:s' } });
  const load = createDocumentLoader();
  expect(await canonizeJsonLd(doc({ '@value': 'Exemple', '@language': 'fr', '@direction': 'ltr' }), load)).toContain('"Exemple"^^<https://www.w3.org/ns/i18n#fr_ltr>');
  expect(await canonizeJsonLd(doc({ '@value': 'Exemple', '@language': 'fr' }), load)).toContain('"Exemple"@fr');
});

describe('VCDM 2.0 shape rules (structural, no JSON-LD)', () => {
  const base = { '@context': ['https://www.w3.org/ns/credentials/v2'], type: ['VerifiableCredential'], issuer: 'did:example:i', credentialSubject: { id: 'did:example:s' } };
  const titles = (extra: Record<string, unknown>) => checkCredentialShape({ ...base, ...extra }).map((p) => p.title);
  const SRI = 'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=';

  test.each<[string, Record<string, unknown>]>([
    ['string name and description', { name: 'N', description: 'D' }],
    ['language-tagged issuer name', { issuer: { id: 'did:example:i', name: [{ '@value': 'A', '@language': 'en' }, { '@value': 'B', '@language': 'fr', '@direction': 'rtl' }] } }],
    ['relatedResource with SRI (sha256, padded) and multibase', { relatedResource: [{ id: 'https://a.example/x', digestSRI: SRI }, { id: 'https://a.example/y', digestMultibase: 'zQmYtUc4iTCbbfVSDNKvtQqrfyezPPnFvE33wFmutw9PBBk' }] }],
    ['typed evidence list', { evidence: [{ type: 'E' }, { type: ['E', 'F'], id: 'urn:uuid:1' }] }],
  ])('accepts %s', (_what, extra) => {
    expect(titles(extra)).toEqual([]);
  });

  test.each<[string, Record<string, unknown>, string]>([
    ['@direction other than ltr/rtl', { name: { '@value': 'x', '@direction': 'up' } }, 'name @direction must be ltr or rtl'],
    ['a language object without @value', { description: { '@language': 'en' } }, 'description must be a string or a language value object with a string @value'],
    ['a malformed @language', { name: { '@value': 'x', '@language': 'not a tag' } }, 'name @language must be a BCP 47 language tag'],
    ['an SRI digest of the wrong length', { relatedResource: { id: 'https://a.example/x', digestSRI: 'sha256-47DEQpj8HBSa' } }, 'relatedResource digestSRI must be an SRI hash expression'],
    ['a digestMultibase without a known base', { relatedResource: { id: 'https://a.example/x', digestMultibase: 'Q0000' } }, 'relatedResource digestMultibase must be a multibase string'],
    ['an empty refreshService list', { refreshService: [] }, 'refreshService must not be an empty list'],
    ['a termsOfUse id that is no URL', { termsOfUse: { type: 'T', id: 'not a url' } }, 'termsOfUse id must be a URL'],
  ])('refuses %s', (_what, extra, title) => {
    expect(titles(extra)).toContain(title);
  });
});
