import { AppError } from '../../src/errors';
import { jsonTextTooDeep, parseJsonLimited, valueTooDeep } from '../../src/rest/middleware/json-depth';

describe('JSON depth limit', () => {
  test('counts objects and arrays, exactly at the limit', () => {
    expect(jsonTextTooDeep('{"a":[{"b":1}]}', 3)).toBe(false);
    expect(jsonTextTooDeep('{"a":[{"b":[]}]}', 3)).toBe(true);
    expect(jsonTextTooDeep('[]', 1)).toBe(false);
    expect(jsonTextTooDeep('1', 1)).toBe(false);
  });

  test('brackets inside strings, and escaped quotes, do not count', () => {
    expect(jsonTextTooDeep(`{"a":"${'['.repeat(100)}"}`, 2)).toBe(false);
    expect(jsonTextTooDeep(`{"a":"\\"[[[[","b":"\\\\"}`, 1)).toBe(false);
    expect(jsonTextTooDeep(`{"a":"\\\\",${'"x":['.repeat(1)}[[]]]}`, 3)).toBe(true);
  });

  test('works on bytes (UTF-8) as on text, with no recursion at any depth', () => {
    const deep = '['.repeat(200_000) + ']'.repeat(200_000);
    expect(jsonTextTooDeep(Buffer.from(deep), 64)).toBe(true);
    expect(jsonTextTooDeep(Buffer.from('{"é":["ü"]}'), 2)).toBe(false);
  });

  test('parsed values are measured iteratively', () => {
    let v: unknown = 1;
    for (let i = 0; i < 100_000; i++) v = [v];
    expect(valueTooDeep(v, 64)).toBe(true);
    expect(valueTooDeep({ a: [1, { b: 2 }] }, 3)).toBe(false);
    expect(valueTooDeep({ a: [1, { b: [] }] }, 3)).toBe(true);
  });

  test('parseJsonLimited refuses before parsing with JSON_TOO_DEEP', () => {
    expect(parseJsonLimited('{"a":1}', 4)).toEqual({ a: 1 });
    let caught: unknown;
    try {
      parseJsonLimited('[[[[[]]]]]', 4);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(AppError);
    expect((caught as AppError).code).toBe('JSON_TOO_DEEP');
  });
});
