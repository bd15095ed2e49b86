import { isAtLeastPeriodBefore } from '../../../src/domain/predicates';
import { calculateAge } from '../../../src/domain/zkp-tokens/age';
import { parseVerifierChallenge, proofNonce } from '../../../src/zk/challenge';
import { conditionRange, latestDayForPeriod } from '../../../src/zk/conditions-statement';
import { OFFSET, TOP, ageRange, dayNumber, encodeInteger, latestBirthDayForAge } from '../../../src/zk/encoding';
import { parseProofSystem } from '../../../src/zk/proof-system';

const DAY = 86_400_000;
const iso = (day: number): string => new Date(day * DAY).toISOString().slice(0, 10);

describe('zk encoding', () => {
  test('day numbers: 1970-01-01 is 0, years before 100 keep their year, negative years work', () => {
    expect(dayNumber({ year: 1970, month: 1, day: 1 })).toBe(0);
    expect(dayNumber({ year: 2000, month: 3, day: 1 })).toBe(11_017);
    expect(dayNumber({ year: 50, month: 1, day: 1 })).toBeLessThan(dayNumber({ year: 1900, month: 1, day: 1 }) - 600_000);
    expect(encodeInteger(-5)).toBe(OFFSET - 5);
    expect(() => encodeInteger(OFFSET)).toThrow(RangeError);
  });

  test.each([
    ['2026-11-27T10:00:00Z', 18],
    ['2024-02-29T00:00:00Z', 18],
    ['2025-02-28T23:59:59Z', 21],
    ['2025-03-01T00:00:00Z', 1],
    ['2026-01-01T00:00:00Z', 100],
  ])('the latest birth day for an age agrees with calculateAge on both sides of the boundary (%s, age %i)', (at, age) => {
    const now = new Date(at);
    const latest = latestBirthDayForAge(age, now);
    expect(calculateAge(iso(latest), now)).toBeGreaterThanOrEqual(age);
    expect(calculateAge(iso(latest + 1), now)).toBeLessThan(age);
    const r = ageRange(2, age, now);
    expect(r).toEqual({ index: 2, min: 0, max: OFFSET + latest + 1 });
  });

  test.each([
    [18, 'years'],
    [6, 'months'],
    [10, 'days'],
    [1, 'years'],
  ] as const)('a date condition (%i %s) is the latest day whose midnight is that long before now, as the attestation decides', (value, unit) => {
    const now = new Date('2028-02-29T12:00:00Z');
    const d = latestDayForPeriod(value, unit, now);
    expect(isAtLeastPeriodBefore(new Date(d * DAY), value, unit, now)).toBe(true);
    expect(isAtLeastPeriodBefore(new Date((d + 1) * DAY), value, unit, now)).toBe(false);
  });

  test('number conditions map to shifted inclusive ranges, open ends to the whole provable range', () => {
    const at = new Date();
    expect(conditionRange(3, { type: 'number', minimum: 18, maximum: 65 }, at)).toEqual({ index: 3, min: OFFSET + 18, max: OFFSET + 66 });
    expect(conditionRange(3, { type: 'number', minimum: -10 }, at)).toEqual({ index: 3, min: OFFSET - 10, max: TOP });
    expect(conditionRange(3, { type: 'number', maximum: 0 }, at)).toEqual({ index: 3, min: 1, max: OFFSET + 1 });
  });

  test('the selector and the challenge: defaults, refusals, and a nonce that binds verifier, nonce and time', () => {
    expect(parseProofSystem(undefined)).toBe('attestation');
    expect(parseProofSystem('bbs-bulletproofs')).toBe('bbs-bulletproofs');
    expect(() => parseProofSystem('groth16')).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    for (const bad of [null, 'x', { verifierId: 'v' }, { verifierId: 'v', nonce: 'short' }, { verifierId: '', nonce: 'n'.repeat(16) }, { verifierId: 'v', nonce: 'n'.repeat(16), extra: 1 }]) {
      expect(() => parseVerifierChallenge(bad)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    }
    const c = parseVerifierChallenge({ verifierId: 'https://v.example', nonce: 'n'.repeat(16) });
    const base = Buffer.from(proofNonce(c, '2026-01-01T00:00:00.000Z')).toString('hex');
    expect(Buffer.from(proofNonce({ ...c, nonce: 'm'.repeat(16) }, '2026-01-01T00:00:00.000Z')).toString('hex')).not.toBe(base);
    expect(Buffer.from(proofNonce({ ...c, verifierId: 'https://w.example' }, '2026-01-01T00:00:00.000Z')).toString('hex')).not.toBe(base);
    expect(Buffer.from(proofNonce(c, '2026-01-01T00:00:00.001Z')).toString('hex')).not.toBe(base);
  });
});
