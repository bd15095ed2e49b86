import { randomBytes } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import { DEFAULT_JSONLD_BUDGET, assertWithinJsonLdBudget } from '../../src/domain/contexts';
import { base45Encode, decodeCryptograph, encodeCryptograph, signCompactEdDsaJws } from '../../src/domain/cryptograph';
import { MAX_ATTRIBUTES } from '../../src/domain/schemas/attribute-definitions';
import { expectAppError } from '../support/app-error';

describe('assertWithinJsonLdBudget', () => {
  const budget = { maxObjects: 4, maxValues: 20, maxDepth: 4, maxChars: 200 };
  it('accepts a document within every limit', () => {
    expect(() => assertWithinJsonLdBudget({ a: [1, 'x', { b: null }], c: { d: true } }, budget)).not.toThrow();
  });
  it.each([
    ['objects', { a: [{}, {}, {}, {}] }, /more than 4 objects/],
    ['values', { a: Array.from({ length: 30 }, () => 1) }, /more than 20 values/],
    ['nesting', { a: { b: { c: { d: {} } } } }, /more than 4 levels of nesting/],
    ['characters', { a: 'x'.repeat(300) }, /more than 200 characters/],
  ])('refuses too many %s with DOCUMENT_TOO_LARGE (413)', (_what, doc, message) => {
    const error = expectAppError(() => assertWithinJsonLdBudget(doc, budget, 'credential'), 'DOCUMENT_TOO_LARGE', message);
    expect(error.status).toBe(413);
    expect(error.details).toEqual([{ field: 'credential', message: error.message }]);
  });
  it('stops at the first limit: a huge array is refused without walking it, deep nesting without recursion', () => {
    expectAppError(() => assertWithinJsonLdBudget({ a: new Array(10_000_000).fill(0) }), 'DOCUMENT_TOO_LARGE', /values/);
    let deep: unknown = {};
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expectAppError(() => assertWithinJsonLdBudget(deep), 'DOCUMENT_TOO_LARGE', /nesting/);
  });
  it('leaves room for the largest credential this service issues (128 attributes, encrypted)', () => {
    const subject = Object.fromEntries(Array.from({ length: MAX_ATTRIBUTES + 1 }, (_, i) => [`a${i}`, 'A'.repeat(120)]));
    const credential = { '@context': ['a', 'b'], id: 'x', type: ['VerifiableCredential', 'Encrypted'], credentialSubject: [subject], credentialSchema: { id: 's', type: 't' }, biometrics: { face: 'f' }, proof: { type: 'p', jws: 'j' } };
    expect(() => assertWithinJsonLdBudget(credential, DEFAULT_JSONLD_BUDGET)).not.toThrow();
  });
});

describe('decodeCryptograph and the JSON-LD budget', () => {
  it('refuses a credential of thousands of blank nodes with DOCUMENT_TOO_LARGE before anyone canonicalises it', () => {
    const text = encodeCryptograph({ '@context': ['https://www.w3.org/2018/credentials/v1'], credentialSubject: { name: Array.from({ length: 5000 }, () => ({})) } }, { seed: randomBytes(32), kid: 'did:example:1#k' });
    expect(text.length).toBeLessThan(3391);
    expectAppError(() => decodeCryptograph(text), 'DOCUMENT_TOO_LARGE', /^cryptograph exceeds the JSON-LD budget/);
  });

  it('refuses a payload nested 60,000 deep (481 characters) with DOCUMENT_TOO_LARGE, not a stack overflow', () => {
    const depth = 60_000;
    const payload = `{"a":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    const jws = signCompactEdDsaJws({ kid: 'did:example:1#k' }, new TextEncoder().encode(payload), randomBytes(32));
    const text = `CG1:${base45Encode(deflateRawSync(Buffer.from(jws), { level: 9 }))}`;
    expect(text.length).toBeLessThan(1000);
    expectAppError(() => decodeCryptograph(text), 'DOCUMENT_TOO_LARGE', /levels of nesting/);
  });
});
