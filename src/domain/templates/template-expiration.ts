import { AppError, type FieldIssue } from '../../errors';
import { daysInMonth } from './date-values';

/** Units of a template's expiration period (spec §2.9 "Expiration input", e.g. `years`). */
export const EXPIRATION_UNITS = ['years', 'months', 'weeks', 'days', 'hours', 'minutes'] as const;
export type ExpirationUnit = (typeof EXPIRATION_UNITS)[number];

export interface TemplateExpiration {
  value: number;
  unit: ExpirationUnit;
}

/** Largest `value` per unit: about 100 years each, so expiration dates stay far inside Date's range. */
export const MAX_EXPIRATION_VALUE: Readonly<Record<ExpirationUnit, number>> = {
  years: 100,
  months: 1_200,
  weeks: 5_218,
  days: 36_525,
  hours: 876_600,
  minutes: 52_596_000,
};

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;
/** ECMAScript time values are limited to ±8.64e15 ms around the epoch. */
const MAX_TIME = 8.64e15;

function isUnit(v: unknown): v is ExpirationUnit {
  return typeof v === 'string' && (EXPIRATION_UNITS as readonly string[]).includes(v);
}

/**
 * Validates `{ value, unit }`: `value` a positive integer (JSON number) no larger than
 * {@link MAX_EXPIRATION_VALUE} for its unit, `unit` one of {@link EXPIRATION_UNITS}, no other fields.
 *
 * @throws AppError INVALID_INPUT with one detail per problem.
 */
export function parseTemplateExpiration(input: unknown, field = 'expiration'): TemplateExpiration {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    const message = `${field} must be an object with value and unit`;
    throw new AppError('INVALID_INPUT', message, [{ field, message }]);
  }
  const { value, unit } = input as Record<string, unknown>;
  const issues: FieldIssue[] = [];
  if (!isUnit(unit)) {
    issues.push({ field: `${field}.unit`, message: `must be one of ${EXPIRATION_UNITS.join(', ')}` });
  }
  const max = isUnit(unit) ? MAX_EXPIRATION_VALUE[unit] : Number.MAX_SAFE_INTEGER;
  if (!Number.isSafeInteger(value) || (value as number) < 1 || (value as number) > max) {
    const bound = isUnit(unit) ? ` of at most ${max}` : '';
    issues.push({ field: `${field}.value`, message: `must be a positive integer${bound}` });
  }
  for (const key of Object.keys(input)) {
    if (key !== 'value' && key !== 'unit') {
      issues.push({ field: `${field}.${key.slice(0, 64)}`, message: 'is not a field of an expiration' });
    }
  }
  if (issues.length > 0) throw new AppError('INVALID_INPUT', `${field} is invalid`, issues);
  return { value: value as number, unit: unit as ExpirationUnit };
}

/** Adds whole months in UTC, clamping the day to the target month's end (Jan 31 + 1 month = Feb 28/29). */
function addMonthsUtc(date: Date, months: number): Date {
  const index = date.getUTCFullYear() * 12 + date.getUTCMonth() + months;
  const year = Math.floor(index / 12);
  const month = index - year * 12;
  const day = Math.min(date.getUTCDate(), daysInMonth(year, month + 1));
  const out = new Date(date.getTime());
  // setUTCFullYear, not Date.UTC, which maps years 0-99 to 1900-1999.
  out.setUTCFullYear(year, month, day);
  return out;
}

/**
 * `date` plus the expiration period, in UTC calendar arithmetic, keeping the time of day:
 * years and months move the calendar month (a year is 12 months; the day is clamped to the end
 * of a shorter month, so 2024-02-29 + 1 year = 2025-02-28), weeks and days add 24-hour days
 * (UTC has no daylight-saving shifts), hours and minutes add elapsed time.
 *
 * @throws AppError INVALID_INPUT for an invalid Date or a result outside the Date range.
 */
export function addExpiration(date: Date, exp: TemplateExpiration): Date {
  if (!(date instanceof Date) || Number.isNaN(date.getTime())) {
    throw new AppError('INVALID_INPUT', 'date must be a valid Date');
  }
  const { value, unit } = parseTemplateExpiration(exp);
  let out: Date;
  switch (unit) {
    case 'years':
      out = addMonthsUtc(date, value * 12);
      break;
    case 'months':
      out = addMonthsUtc(date, value);
      break;
    case 'weeks':
      out = new Date(date.getTime() + value * 7 * DAY_MS);
      break;
    case 'days':
      out = new Date(date.getTime() + value * DAY_MS);
      break;
    case 'hours':
      out = new Date(date.getTime() + value * HOUR_MS);
      break;
    case 'minutes':
      out = new Date(date.getTime() + value * MINUTE_MS);
      break;
  }
  if (Number.isNaN(out.getTime()) || Math.abs(out.getTime()) > MAX_TIME) {
    throw new AppError('INVALID_INPUT', 'expiration date is out of range');
  }
  return out;
}
