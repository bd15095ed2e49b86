import { AppError } from '../../src/errors';
import type { AttributeType } from '../../src/domain/schemas';
import {
  addCalendarPeriod,
  type CalendarUnit,
  evaluateConditions,
  isAtLeastPeriodBefore,
  matchVerifyParams,
  parseConditions,
  parseVerifyParams,
} from '../../src/domain/predicates';
import { expectAppError } from '../support/app-error';

const fieldsOf = (err: AppError): string[] => (err.details ?? []).map((d) => d.field);
const at = (iso: string): Date => new Date(iso);
const TYPES: Record<string, AttributeType> = {
  name: 'alphanumeric',
  surname: 'alphabet',
  email: 'email',
  age: 'number',
  score: 'number',
  dob: 'date',
  issued: 'date',
};

describe('addCalendarPeriod', () => {
  it.each<[string, number, CalendarUnit, string]>([
    ['2008-11-22T00:00:00.000Z', 18, 'years', '2026-11-22T00:00:00.000Z'],
    ['2008-02-29T00:00:00.000Z', 1, 'years', '2009-03-01T00:00:00.000Z'],
    ['2008-02-29T00:00:00.000Z', 4, 'years', '2012-02-29T00:00:00.000Z'],
    ['2008-02-29T00:00:00.000Z', 18, 'years', '2026-03-01T00:00:00.000Z'],
    ['2000-02-29T00:00:00.000Z', 100, 'years', '2100-03-01T00:00:00.000Z'],
    ['2000-02-29T00:00:00.000Z', 400, 'years', '2400-02-29T00:00:00.000Z'],
    ['2023-01-31T00:00:00.000Z', 1, 'months', '2023-02-28T00:00:00.000Z'],
    ['2024-01-31T00:00:00.000Z', 1, 'months', '2024-02-29T00:00:00.000Z'],
    ['2024-03-31T12:34:56.789Z', 1, 'months', '2024-04-30T12:34:56.789Z'],
    ['2024-11-30T00:00:00.000Z', 3, 'months', '2025-02-28T00:00:00.000Z'],
    ['2024-12-15T00:00:00.000Z', 1, 'months', '2025-01-15T00:00:00.000Z'],
    ['2024-01-31T00:00:00.000Z', 25, 'months', '2026-02-28T00:00:00.000Z'],
    ['2008-02-29T00:00:00.000Z', 12, 'months', '2009-02-28T00:00:00.000Z'],
    ['2024-02-28T00:00:00.000Z', 1, 'days', '2024-02-29T00:00:00.000Z'],
    ['2024-12-31T00:00:00.000Z', 1, 'weeks', '2025-01-07T00:00:00.000Z'],
    ['2024-12-31T23:00:00.000Z', 2, 'hours', '2025-01-01T01:00:00.000Z'],
    ['2024-12-31T23:59:00.000Z', 1, 'minutes', '2025-01-01T00:00:00.000Z'],
    ['0050-06-15T00:00:00.000Z', 18, 'years', '0068-06-15T00:00:00.000Z'],
    ['2024-05-05T10:00:00.000Z', 0, 'years', '2024-05-05T10:00:00.000Z'],
  ])('%s + %i %s = %s', (start, value, unit, expected) => {
    expect(addCalendarPeriod(at(start), value, unit).toISOString()).toBe(expected);
  });

  it('rejects invalid dates and values', () => {
    expectAppError(() => addCalendarPeriod(new Date(Number.NaN), 1, 'days'), 'INVALID_INPUT');
    expectAppError(() => addCalendarPeriod(at('2000-01-01T00:00:00Z'), -1, 'days'), 'INVALID_INPUT');
    expectAppError(() => addCalendarPeriod(at('2000-01-01T00:00:00Z'), 1.5, 'days'), 'INVALID_INPUT');
    expectAppError(() => addCalendarPeriod(at('2000-01-01T00:00:00Z'), 300_000, 'years'), 'INVALID_INPUT');
  });

  it('is inclusive at the boundary', () => {
    const born = at('2008-11-22T00:00:00Z');
    expect(isAtLeastPeriodBefore(born, 18, 'years', at('2026-11-22T00:00:00Z'))).toBe(true);
    expect(isAtLeastPeriodBefore(born, 18, 'years', at('2026-11-21T23:59:59.999Z'))).toBe(false);
    expectAppError(() => isAtLeastPeriodBefore(born, 18, 'years', new Date('nope')), 'INVALID_INPUT');
  });
});

describe('parseConditions', () => {
  it('parses number and date conditions', () => {
    expect(
      parseConditions(
        {
          age: { type: 'number', minimum: '18', maximum: '65' },
          score: { type: 'number', maximum: '-1' },
          dob: { type: 'date', value: 18, unit: 'years' },
        },
        TYPES,
      ),
    ).toEqual({
      age: { type: 'number', minimum: 18, maximum: 65 },
      score: { type: 'number', maximum: -1 },
      dob: { type: 'date', value: 18, unit: 'years' },
    });
  });

  it('accepts equal bounds and a zero date value', () => {
    const input = { age: { type: 'number', minimum: '18', maximum: '18' }, dob: { type: 'date', value: 0, unit: 'days' } };
    expect(parseConditions(input, TYPES)).toEqual({
      age: { type: 'number', minimum: 18, maximum: 18 },
      dob: { type: 'date', value: 0, unit: 'days' },
    });
  });

  it('reports every problem with its field', () => {
    const err = expectAppError(
      () =>
        parseConditions(
          {
            height: { type: 'number', minimum: '1' },
            name: { type: 'number', minimum: '1' },
            age: { type: 'date', value: 1, unit: 'years' },
            score: { type: 'number', minimum: '10', maximum: '9' },
            dob: { type: 'date', value: -1, unit: 'weeks', extra: 1 },
            issued: 'x',
          },
          TYPES,
        ),
      'INVALID_INPUT',
    );
    expect(fieldsOf(err)).toEqual([
      'conditions.height',
      'conditions.name',
      'conditions.age.type',
      'conditions.score',
      'conditions.dob.extra',
      'conditions.dob.value',
      'conditions.dob.unit',
      'conditions.issued',
    ]);
  });

  it.each([
    [{ type: 'number' }, 'conditions.age'],
    [{ type: 'number', minimum: 18 }, 'conditions.age.minimum'],
    [{ type: 'number', minimum: '' }, 'conditions.age.minimum'],
    [{ type: 'number', minimum: '1.5' }, 'conditions.age.minimum'],
    [{ type: 'number', maximum: '1e3' }, 'conditions.age.maximum'],
    [{ type: 'number', maximum: ' 5' }, 'conditions.age.maximum'],
    [{ type: 'number', maximum: '99999999999999999' }, 'conditions.age.maximum'],
  ])('rejects the number condition %j', (condition, field) => {
    expect(fieldsOf(expectAppError(() => parseConditions({ age: condition }, TYPES), 'INVALID_INPUT'))).toEqual([field]);
  });

  it.each([
    [{ type: 'date', value: '18', unit: 'years' }, 'conditions.dob.value'],
    [{ type: 'date', value: 1.5, unit: 'years' }, 'conditions.dob.value'],
    [{ type: 'date', value: 100_001, unit: 'days' }, 'conditions.dob.value'],
    [{ type: 'date', value: 1, unit: 'hours' }, 'conditions.dob.unit'],
    [{ type: 'date', value: 1 }, 'conditions.dob.unit'],
  ])('rejects the date condition %j', (condition, field) => {
    expect(fieldsOf(expectAppError(() => parseConditions({ dob: condition }, TYPES), 'INVALID_INPUT'))).toEqual([field]);
  });

  it('rejects an empty or non-object set of conditions, and prototype names', () => {
    expectAppError(() => parseConditions({}, TYPES), 'INVALID_INPUT');
    expectAppError(() => parseConditions([], TYPES), 'INVALID_INPUT');
    const err = expectAppError(() => parseConditions({ constructor: { type: 'number', minimum: '1' } }, TYPES), 'INVALID_INPUT');
    expect(fieldsOf(err)).toEqual(['conditions.constructor']);
  });
});

describe('evaluateConditions', () => {
  const conditions = () =>
    parseConditions(
      {
        age: { type: 'number', minimum: '18', maximum: '65' },
        dob: { type: 'date', value: 18, unit: 'years' },
      },
      TYPES,
    );

  it('is 18 exactly on the birthday, not the day before (UTC)', () => {
    const subject = { age: '30', dob: '2008-11-22' };
    expect(evaluateConditions(conditions(), subject, at('2026-11-21T23:59:59.999Z'))).toEqual({ age: true, dob: false });
    expect(evaluateConditions(conditions(), subject, at('2026-11-22T00:00:00.000Z'))).toEqual({ age: true, dob: true });
    expect(evaluateConditions(conditions(), subject, at('2040-01-01T00:00:00.000Z')).dob).toBe(true);
  });

  it('lets a 29 February birthday reach the anniversary on 1 March in common years', () => {
    const c = conditions();
    expect(evaluateConditions(c, { dob: '2008-02-29' }, at('2026-02-28T23:59:59.999Z')).dob).toBe(false);
    expect(evaluateConditions(c, { dob: '2008-02-29' }, at('2026-03-01T00:00:00Z')).dob).toBe(true);
    expect(evaluateConditions(c, { dob: '2010-02-28' }, at('2028-02-28T00:00:00Z')).dob).toBe(true);
    expect(evaluateConditions(c, { dob: '2010-02-28' }, at('2028-02-27T23:59:59Z')).dob).toBe(false);
  });

  it('clamps month conditions to the end of the month', () => {
    const c = parseConditions({ dob: { type: 'date', value: 1, unit: 'months' } }, TYPES);
    expect(evaluateConditions(c, { dob: '2023-01-31' }, at('2023-02-28T00:00:00Z')).dob).toBe(true);
    expect(evaluateConditions(c, { dob: '2023-01-31' }, at('2023-02-27T23:59:59Z')).dob).toBe(false);
    expect(evaluateConditions(c, { dob: '2024-01-31' }, at('2024-02-28T23:59:59Z')).dob).toBe(false);
    expect(evaluateConditions(c, { dob: '2024-01-31' }, at('2024-02-29T00:00:00Z')).dob).toBe(true);
  });

  it('uses the instant of a date-time with an offset, and day conditions', () => {
    const c = parseConditions(
      { dob: { type: 'date', value: 18, unit: 'years' }, issued: { type: 'date', value: 30, unit: 'days' } },
      TYPES,
    );
    // 23:30 at UTC-05:00 is 04:30 UTC on the next day.
    const subject = { dob: '2008-11-21T23:30:00-05:00', issued: '2024-01-01T00:00:00Z' };
    expect(evaluateConditions(c, subject, at('2026-11-22T04:29:59Z'))).toEqual({ dob: false, issued: true });
    expect(evaluateConditions(c, subject, at('2026-11-22T04:30:00Z')).dob).toBe(true);
    expect(evaluateConditions(c, subject, at('2024-01-30T23:59:59Z')).issued).toBe(false);
    expect(evaluateConditions(c, subject, at('2024-01-31T00:00:00Z')).issued).toBe(true);
  });

  it('is false for a date in the future, with value 0 true from that instant', () => {
    const c = parseConditions({ dob: { type: 'date', value: 0, unit: 'days' } }, TYPES);
    expect(evaluateConditions(c, { dob: '2030-01-01' }, at('2029-12-31T23:59:59Z')).dob).toBe(false);
    expect(evaluateConditions(c, { dob: '2030-01-01' }, at('2030-01-01T00:00:00Z')).dob).toBe(true);
  });

  it.each([
    ['17', false],
    ['18', true],
    [18, true],
    ['65', true],
    ['66', false],
    ['018', true],
    ['-18', false],
  ])('number bounds are inclusive: age %j -> %s', (age, expected) => {
    expect(evaluateConditions(conditions(), { age, dob: '2000-01-01' }, at('2026-01-01T00:00:00Z')).age).toBe(expected);
  });

  it('handles one-sided bounds', () => {
    const c = parseConditions({ age: { type: 'number', minimum: '-5' }, score: { type: 'number', maximum: '0' } }, TYPES);
    expect(evaluateConditions(c, { age: '-5', score: '0' }, at('2026-01-01T00:00:00Z'))).toEqual({ age: true, score: true });
    expect(evaluateConditions(c, { age: '-6', score: '1' }, at('2026-01-01T00:00:00Z'))).toEqual({ age: false, score: false });
  });

  it('is false for missing or unparseable (e.g. still encrypted) values', () => {
    expect(evaluateConditions(conditions(), {}, at('2026-01-01T00:00:00Z'))).toEqual({ age: false, dob: false });
    const now = at('2026-01-01T00:00:00Z');
    expect(evaluateConditions(conditions(), { age: 'AQID', dob: 'AQIDBA==' }, now)).toEqual({ age: false, dob: false });
    expect(evaluateConditions(conditions(), { age: '1.5e1', dob: '2000-02-30' }, now)).toEqual({ age: false, dob: false });
  });

  it('rejects an invalid now', () => {
    expectAppError(() => evaluateConditions(conditions(), {}, new Date('x')), 'INVALID_INPUT');
  });
});

describe('parseVerifyParams', () => {
  it('splits at the first "=" and keeps "=" in the value', () => {
    expect(parseVerifyParams(['name=a=b==', 'age=30', 'id=did:svcid:t:x;svcid:t:fid=0.0.1', 'email='], TYPES)).toEqual([
      { attribute: 'name', value: 'a=b==', type: 'alphanumeric' },
      { attribute: 'age', value: '30', type: 'number' },
      { attribute: 'id', value: 'did:svcid:t:x;svcid:t:fid=0.0.1', type: 'did' },
      { attribute: 'email', value: '', type: 'email' },
    ]);
    expect(parseVerifyParams([], TYPES)).toEqual([]);
  });

  it('reports every malformed entry', () => {
    const err = expectAppError(
      () => parseVerifyParams(['age', '=30', 'age =30', 'height=3', 'age=1', 'age=2', 7, 'constructor=x'], TYPES),
      'INVALID_INPUT',
    );
    expect(fieldsOf(err)).toEqual([
      'verifyParams[0]',
      'verifyParams[1]',
      'verifyParams[2]',
      'verifyParams[3]',
      'verifyParams[5]',
      'verifyParams[6]',
      'verifyParams[7]',
    ]);
  });

  it('rejects a non-array and over-long input', () => {
    expectAppError(() => parseVerifyParams('age=1', TYPES), 'INVALID_INPUT');
    expectAppError(() => parseVerifyParams(Array.from({ length: 129 }, (_, i) => `name${i}=x`), TYPES), 'INVALID_INPUT');
    expectAppError(() => parseVerifyParams([`name=${'x'.repeat(5000)}`], TYPES), 'INVALID_INPUT');
  });
});

describe('matchVerifyParams', () => {
  const subject = { id: 'did:svcid:t:x', name: 'Ada', age: 36, score: '007', dob: '2000-01-01', issued: 'soon', email: 'a@b.co' };
  const match = (params: string[]) => matchVerifyParams(parseVerifyParams(params, TYPES), subject);

  it('compares numbers by value', () => {
    expect(match(['age=36', 'score=7'])).toEqual({ ok: true, mismatches: [] });
    expect(match(['age=036', 'score=-0007'])).toEqual({ ok: false, mismatches: ['score'] });
    expect(match(['age=36.0'])).toEqual({ ok: false, mismatches: ['age'] });
  });

  it('compares dates as instants when both parse, else as exact strings', () => {
    expect(match(['dob=2000-01-01T00:00:00Z']).ok).toBe(true);
    expect(match(['dob=2000-01-01T01:00:00+01:00']).ok).toBe(true);
    expect(match(['dob=2000-01-02']).ok).toBe(false);
    expect(match(['issued=soon']).ok).toBe(true);
    expect(match(['issued=Soon']).ok).toBe(false);
  });

  it('compares strings exactly and treats missing attributes as mismatches', () => {
    expect(match(['name=Ada', 'id=did:svcid:t:x', 'email=a@b.co']).ok).toBe(true);
    expect(match(['name=ada', 'surname=Lovelace'])).toEqual({ ok: false, mismatches: ['name', 'surname'] });
    expect(match([])).toEqual({ ok: true, mismatches: [] });
  });
});
