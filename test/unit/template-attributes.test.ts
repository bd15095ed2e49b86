import { AppError } from '../../src/errors';
import {
  EXPIRATION_UNITS,
  MAX_EXPIRATION_VALUE,
  TEMPLATE_ATTRIBUTE_TYPES,
  addExpiration,
  isDid,
  isEmail,
  isRfc3339DateTime,
  parseCalendarDate,
  parseDateValue,
  parseTemplateAttributes,
  parseTemplateExpiration,
  validateTemplateSubject,
  type TemplateAttribute,
} from '../../src/domain/templates';
import { expectAppError } from '../support/app-error';

const fields = (err: AppError): string[] => (err.details ?? []).map((d) => d.field);

const DEFS = [
  { attributeName: 'name', type: 'string', description: 'Full name' },
  { attributeName: 'score', type: 'number', description: 'Score' },
  { attributeName: 'children', type: 'integer', description: 'Number of children' },
  { attributeName: 'member', type: 'boolean', description: 'Is a member' },
  { attributeName: 'birthDate', type: 'date', description: 'Date of birth' },
  { attributeName: 'email', type: 'email', description: 'Contact' },
];

const GOOD_SUBJECT = {
  name: 'Ana Souza',
  score: 9.5,
  children: 2,
  member: false,
  birthDate: '1990-02-28',
  email: 'ana@example.org',
};

describe('parseTemplateAttributes', () => {
  it('accepts every documented type and defaults required to true', () => {
    const attrs = parseTemplateAttributes(DEFS);
    expect(attrs.map((a) => a.type)).toEqual([...TEMPLATE_ATTRIBUTE_TYPES]);
    expect(attrs.every((a) => a.required)).toBe(true);
    expect(attrs[0]).toEqual({ attributeName: 'name', type: 'string', description: 'Full name', required: true });
  });

  it('keeps an explicit required: false', () => {
    const [attr] = parseTemplateAttributes([{ attributeName: 'nick', type: 'string', description: '', required: false }]);
    expect(attr?.required).toBe(false);
  });

  it('names the allowed values for an unknown type', () => {
    const err = expectAppError(
      () => parseTemplateAttributes([{ attributeName: 'a', type: 'alphanumeric', description: 'x' }]),
      'INVALID_INPUT',
    );
    expect(err.details).toEqual([
      { field: 'attributes[0].type', message: 'must be one of string, number, integer, boolean, date, email' },
    ]);
  });

  it('rejects duplicates, naming both positions', () => {
    const err = expectAppError(
      () =>
        parseTemplateAttributes([
          { attributeName: 'a', type: 'string', description: '' },
          { attributeName: 'b', type: 'string', description: '' },
          { attributeName: 'a', type: 'number', description: '' },
        ]),
      'INVALID_INPUT',
    );
    expect(err.details).toEqual([{ field: 'attributes[2].attributeName', message: 'duplicates attributes[0].attributeName' }]);
  });

  it('reports every problem of every item at once', () => {
    const err = expectAppError(
      () =>
        parseTemplateAttributes([
          { attributeName: '1bad', type: 'string', description: 'x' },
          { attributeName: 'ok', type: 'str', description: 5, extra: 1 },
          'not an object',
          { attributeName: 'id', type: 'string', description: 'x', required: 'yes' },
          { type: 'date' },
        ]),
      'INVALID_INPUT',
    );
    expect(fields(err)).toEqual([
      'attributes[0].attributeName',
      'attributes[1].type',
      'attributes[1].description',
      'attributes[1].extra',
      'attributes[2]',
      'attributes[3].attributeName',
      'attributes[3].required',
      'attributes[4].attributeName',
      'attributes[4].description',
    ]);
  });

  it.each(['__proto__', '_sd', 'a-b', 'a b', '', 'x'.repeat(65), 'é'])('rejects attribute name %p', (name) => {
    expectAppError(() => parseTemplateAttributes([{ attributeName: name, type: 'string', description: '' }]), 'INVALID_INPUT');
  });

  it.each([[[]], [{}], ['x'], [null], [Array.from({ length: 101 }, (_, i) => ({ attributeName: `a${i}`, type: 'string', description: '' }))]])(
    'rejects a non-array, empty or oversized list (%#)',
    (input) => {
      const err = expectAppError(() => parseTemplateAttributes(input), 'INVALID_INPUT');
      expect(fields(err)).toEqual(['attributes']);
    },
  );

  it('rejects an overlong description', () => {
    expectAppError(
      () => parseTemplateAttributes([{ attributeName: 'a', type: 'string', description: 'x'.repeat(1001) }]),
      'INVALID_INPUT',
    );
  });
});

describe('validateTemplateSubject', () => {
  const attrs = parseTemplateAttributes(DEFS);

  it('accepts a complete subject and returns a fresh object in template order', () => {
    const subject = { ...Object.fromEntries(Object.entries(GOOD_SUBJECT).reverse()), id: 'did:svcid:testnet:abc123' };
    const result = validateTemplateSubject(attrs, subject);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(Object.keys(result.value)).toEqual(['id', 'name', 'score', 'children', 'member', 'birthDate', 'email']);
    expect(result.value).not.toBe(subject);
  });

  it('requires every attribute by default, reporting each', () => {
    const result = validateTemplateSubject(attrs, { name: 'x' });
    expect(result).toEqual({
      ok: false,
      issues: ['score', 'children', 'member', 'birthDate', 'email'].map((a) => ({
        field: `credentialSubject.${a}`,
        message: 'is required',
      })),
    });
  });

  it('allows an optional attribute to be absent', () => {
    const optional: TemplateAttribute[] = parseTemplateAttributes([
      { attributeName: 'nick', type: 'string', description: '', required: false },
    ]);
    expect(validateTemplateSubject(optional, {})).toEqual({ ok: true, value: {} });
    expect(validateTemplateSubject(optional, { nick: 5 }).ok).toBe(false);
  });

  it('rejects unknown members and a non-DID id', () => {
    const result = validateTemplateSubject(attrs, { ...GOOD_SUBJECT, id: 'user-1', nationality: 'BR' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues.map((i) => i.field)).toEqual(['credentialSubject.id', 'credentialSubject.nationality']);
  });

  it('treats an own __proto__ member from JSON as unknown', () => {
    const subject = JSON.parse(`{"name":"a","__proto__":{"admin":true}}`) as unknown;
    const result = validateTemplateSubject(parseTemplateAttributes([DEFS[0]]), subject);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues.map((i) => i.field)).toEqual(['credentialSubject.__proto__']);
  });

  it.each([null, [], 'x', 5])('rejects a subject that is not an object (%p)', (subject) => {
    expect(validateTemplateSubject(attrs, subject)).toEqual({
      ok: false,
      issues: [{ field: 'credentialSubject', message: 'must be an object' }],
    });
  });

  const bad: [string, unknown][] = [
    ['name', 42],
    ['name', null],
    ['name', 'x'.repeat(10_001)],
    ['name', 'a\udc00'],
    ['score', '9.5'],
    ['score', Number.POSITIVE_INFINITY],
    ['children', 2.5],
    ['children', '2'],
    ['children', 2 ** 53],
    ['member', 'false'],
    ['member', 0],
    ['birthDate', '2023-02-29'],
    ['birthDate', '2024-04-31'],
    ['birthDate', '1990-2-28'],
    ['birthDate', 'March 7, 1990'],
    ['birthDate', '1990-02-28T25:00:00Z'],
    ['birthDate', '1990-02-28T10:00:00'],
    ['birthDate', 19900228],
    ['email', 'not-an-email'],
    ['email', 'a@b@c'],
    ['email', `${'a'.repeat(250)}@b.co`],
  ];
  it.each(bad)('rejects %s = %p', (attr, value) => {
    const result = validateTemplateSubject(attrs, { ...GOOD_SUBJECT, [attr]: value });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues.map((i) => i.field)).toEqual([`credentialSubject.${attr}`]);
  });

  const good: [string, unknown][] = [
    ['name', ''],
    ['name', 'x'.repeat(10_000)],
    ['score', -0.5],
    ['score', 3],
    ['children', 0],
    ['member', true],
    ['birthDate', '2024-02-29'],
    ['birthDate', '2000-12-31T23:59:59.123Z'],
    ['birthDate', '2000-12-31T23:59:59+05:30'],
    ['email', 'first.last+tag@sub.example.co'],
  ];
  it.each(good)('accepts %s = %p', (attr, value) => {
    expect(validateTemplateSubject(attrs, { ...GOOD_SUBJECT, [attr]: value }).ok).toBe(true);
  });
});

describe('date values', () => {
  it('parses calendar dates strictly', () => {
    expect(parseCalendarDate('2024-02-29')).toEqual({ year: 2024, month: 2, day: 29 });
    expect(parseCalendarDate('1900-02-29')).toBeNull();
    expect(parseCalendarDate('2000-02-29')).not.toBeNull();
    expect(parseCalendarDate('0000-01-01')).toBeNull();
    expect(parseCalendarDate('2024-13-01')).toBeNull();
  });

  it('validates RFC 3339 date-times', () => {
    expect(isRfc3339DateTime('2026-01-01T00:00:00Z')).toBe(true);
    expect(isRfc3339DateTime('2026-01-01T00:00:00.5-03:00')).toBe(true);
    expect(isRfc3339DateTime('2026-01-01T00:00:60Z')).toBe(false);
    expect(isRfc3339DateTime('2026-01-01T00:00:00+24:00')).toBe(false);
    expect(isRfc3339DateTime('2026-01-01 00:00:00Z')).toBe(false);
  });

  it('takes the written date of a date-time, not its UTC date', () => {
    expect(parseDateValue('2008-11-22T23:30:00-05:00')).toEqual({ year: 2008, month: 11, day: 22 });
    expect(parseDateValue(20081122)).toBeNull();
  });
});

describe('DID and e-mail predicates', () => {
  it.each(['did:svcid:testnet:abc', 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK', 'did:web:example.com%3A8443'])(
    'accepts DID %s',
    (did) => {
      expect(isDid(did)).toBe(true);
    },
  );

  it.each(['did:', 'did:Key:abc', 'did:key:', 'did:key:abc:', 'DID:key:abc', 'did:key:a b', 'did:key:%zz'])('rejects DID %p', (did) => {
    expect(isDid(did)).toBe(false);
  });

  it('rejects non-strings', () => {
    expect(isDid(1)).toBe(false);
    expect(isEmail({})).toBe(false);
  });
});

describe('parseTemplateExpiration', () => {
  it.each(EXPIRATION_UNITS)('accepts 1 and the maximum of %s', (unit) => {
    expect(parseTemplateExpiration({ value: 1, unit })).toEqual({ value: 1, unit });
    expect(parseTemplateExpiration({ value: MAX_EXPIRATION_VALUE[unit], unit }).value).toBe(MAX_EXPIRATION_VALUE[unit]);
    expectAppError(() => parseTemplateExpiration({ value: MAX_EXPIRATION_VALUE[unit] + 1, unit }), 'INVALID_INPUT');
  });

  it.each([
    [{ value: 0, unit: 'years' }, ['expiration.value']],
    [{ value: 1.5, unit: 'days' }, ['expiration.value']],
    [{ value: '1', unit: 'days' }, ['expiration.value']],
    [{ value: 1, unit: 'year' }, ['expiration.unit']],
    [{ value: -1, unit: 'seconds', extra: true }, ['expiration.unit', 'expiration.value', 'expiration.extra']],
    [{}, ['expiration.unit', 'expiration.value']],
    [null, ['expiration']],
    [[1, 'years'], ['expiration']],
  ])('rejects %p', (input, expected) => {
    const err = expectAppError(() => parseTemplateExpiration(input), 'INVALID_INPUT');
    expect(fields(err)).toEqual(expected);
  });
});

describe('addExpiration', () => {
  const at = (iso: string): Date => new Date(iso);
  const add = (iso: string, value: number, unit: (typeof EXPIRATION_UNITS)[number]): string =>
    addExpiration(at(iso), { value, unit }).toISOString();

  it.each([
    ['2025-06-15T10:20:30.000Z', 1, 'years', '2026-06-15T10:20:30.000Z'],
    ['2024-02-29T00:00:00.000Z', 1, 'years', '2025-02-28T00:00:00.000Z'],
    ['2024-02-29T00:00:00.000Z', 4, 'years', '2028-02-29T00:00:00.000Z'],
    ['2025-01-31T12:00:00.000Z', 1, 'months', '2025-02-28T12:00:00.000Z'],
    ['2024-01-31T12:00:00.000Z', 1, 'months', '2024-02-29T12:00:00.000Z'],
    ['2025-03-31T00:00:00.000Z', 1, 'months', '2025-04-30T00:00:00.000Z'],
    ['2025-11-30T00:00:00.000Z', 3, 'months', '2026-02-28T00:00:00.000Z'],
    ['2025-12-15T00:00:00.000Z', 1, 'months', '2026-01-15T00:00:00.000Z'],
    ['2025-12-29T00:00:00.000Z', 1, 'weeks', '2026-01-05T00:00:00.000Z'],
    ['2025-03-29T22:00:00.000Z', 2, 'days', '2025-03-31T22:00:00.000Z'],
    ['2025-12-31T23:00:00.000Z', 2, 'hours', '2026-01-01T01:00:00.000Z'],
    ['2025-12-31T23:59:00.000Z', 1, 'minutes', '2026-01-01T00:00:00.000Z'],
  ] as const)('%s + %i %s = %s', (from, value, unit, expected) => {
    expect(add(from, value, unit)).toBe(expected);
  });

  it('does not mutate its input', () => {
    const d = at('2025-01-31T00:00:00Z');
    addExpiration(d, { value: 1, unit: 'months' });
    expect(d.toISOString()).toBe('2025-01-31T00:00:00.000Z');
  });

  it('rejects an invalid date, an invalid period and a result out of range', () => {
    expectAppError(() => addExpiration(new Date(Number.NaN), { value: 1, unit: 'days' }), 'INVALID_INPUT');
    expectAppError(() => addExpiration(at('2025-01-01T00:00:00Z'), { value: 0, unit: 'days' }), 'INVALID_INPUT');
    expectAppError(() => addExpiration(new Date(8.64e15 - 1000), { value: 1, unit: 'days' }), 'INVALID_INPUT', /out of range/);
  });
});
