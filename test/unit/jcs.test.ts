import { readdirSync } from 'node:fs';
import canonicalizePackage from 'canonicalize';
import { canonicalBytes, canonicalize } from '../../src/domain/canonical';
import { AppError } from '../../src/errors';
import { readSharedText, sharedPath } from '../support/shared';

const vector = (dir: string, file: string): string => readSharedText('vectors', 'jcs-rfc8785', dir, file);
const names = readdirSync(sharedPath('vectors', 'jcs-rfc8785', 'input'))
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.replace(/\.json$/, ''))
  .sort();

function hexBytes(text: string): Uint8Array {
  return Uint8Array.from(text.trim().split(/\s+/).map((h) => Number.parseInt(h, 16)));
}

function expectInvalid(value: unknown, fragment: string): void {
  let caught: unknown;
  try {
    canonicalize(value);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(AppError);
  expect((caught as AppError).code).toBe('INVALID_INPUT');
  expect((caught as AppError).message).toContain(fragment);
}

describe('RFC 8785 JCS', () => {
  it('has the published vectors', () => {
    expect(names).toEqual(['arrays', 'french', 'structures', 'unicode', 'values', 'weird']);
  });

  describe.each(names)('vector %s', (name) => {
    const input: unknown = JSON.parse(vector('input', `${name}.json`));

    it('canonicalizes to the exact output text', () => {
      expect(canonicalize(input)).toBe(vector('output', `${name}.json`));
    });

    it('canonicalizes to the exact outhex bytes', () => {
      expect(Buffer.from(canonicalBytes(input)).toString('hex')).toBe(
        Buffer.from(hexBytes(vector('outhex', `${name}.txt`))).toString('hex'),
      );
    });

    it('agrees with the canonicalize package', () => {
      expect(canonicalize(input)).toBe(canonicalizePackage(input));
    });
  });

  it('serializes numbers the ECMAScript way', () => {
    expect(canonicalize([-0, 1e21, 1e-7, 0.1 + 0.2, 2 ** 53 + 2, 5e-324])).toBe(
      '[0,1e+21,1e-7,0.30000000000000004,9007199254740994,5e-324]',
    );
  });

  it('sorts keys by UTF-16 code units, not code points', () => {
    // U+1F600 (surrogates D83D DE00) sorts before U+FB33 in UTF-16 although its code point is larger.
    expect(canonicalize({ '\ufb33': 1, '\u{1f600}': 2 })).toBe('{"\u{1f600}":2,"\ufb33":1}');
  });

  it('omits object members whose value is undefined, like JSON', () => {
    expect(canonicalize({ b: 1, a: undefined })).toBe('{"b":1}');
  });

  it('serializes objects with toJSON through it', () => {
    expect(canonicalize({ at: new Date(Date.UTC(2020, 0, 2, 3, 4, 5)) })).toBe('{"at":"2020-01-02T03:04:05.000Z"}');
  });

  it('encodes as UTF-8', () => {
    expect(Array.from(canonicalBytes('\u00e9\u20ac'))).toEqual([0x22, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0x22]);
  });

  it('does not mistake a shared (non-circular) reference for a cycle', () => {
    const shared = { x: 1 };
    expect(canonicalize({ a: shared, b: [shared] })).toBe('{"a":{"x":1},"b":[{"x":1}]}');
  });

  it.each<[string, unknown, string]>([
    ['undefined at top level', undefined, 'undefined'],
    ['undefined in an array', [1, undefined], 'undefined'],
    ['NaN', { n: Number.NaN }, 'NaN'],
    ['Infinity', [Number.POSITIVE_INFINITY], 'Infinity'],
    ['-Infinity', -Infinity, '-Infinity'],
    ['bigint', { n: BigInt(1) }, 'bigint'],
    ['a function at top level', () => 1, 'function'],
    ['a function nested in an object', { f: () => 1 }, 'function'],
    ['a symbol', { s: Symbol('s') }, 'symbol'],
    ['a Map', new Map([['a', 1]]), 'Map'],
    ['a typed array', { b: new Uint8Array([1]) }, 'Uint8Array'],
    ['an unpaired surrogate in a value', { s: '\ud800' }, 'surrogate'],
    ['an unpaired surrogate in a key', { '\udc00': 1 }, 'surrogate'],
  ])('rejects %s with INVALID_INPUT', (_label, value, fragment) => {
    expectInvalid(value, fragment);
  });

  it('rejects cycles', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expectInvalid(cyclic, 'circular');
  });

  it('names the offending path', () => {
    expectInvalid({ a: [{ b: Number.NaN }] }, '$.a[0].b');
  });
});

describe('strings: the no-escape shortcut matches JSON string escaping', () => {
  test('every BMP code unit that is not a surrogate, alone and inside text, serialises as JSON.stringify does', () => {
    const differ: number[] = [];
    for (let c = 0; c <= 0xffff; c++) {
      if (c >= 0xd800 && c <= 0xdfff) continue;
      const ch = String.fromCharCode(c);
      if ([ch, `a${ch}b`, `${ch}${ch}`].some((s) => canonicalize(s) !== JSON.stringify(s))) differ.push(c);
    }
    expect(differ).toEqual([]);
  });

  test('paired surrogates are copied, lone ones refused', () => {
    expect(canonicalize('x\u{1F600}y')).toBe(JSON.stringify('x\u{1F600}y'));
    expect(() => canonicalize('x\ud800y')).toThrow(AppError);
    expect(() => canonicalize({ ['k\udc00']: 1 })).toThrow(AppError);
  });
});
