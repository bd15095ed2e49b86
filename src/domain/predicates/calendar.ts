import { AppError } from '../../errors';
import { daysInMonth, isLeapYear, utcInstant } from '../schemas/value-formats';

export type CalendarUnit = 'years' | 'months' | 'weeks' | 'days' | 'hours' | 'minutes';

const MS_PER: Readonly<Record<'weeks' | 'days' | 'hours' | 'minutes', number>> = {
  weeks: 7 * 86_400_000,
  days: 86_400_000,
  hours: 3_600_000,
  minutes: 60_000,
};

/**
 * Adds a calendar period to an instant, in UTC (no daylight-saving shifts, no host time zone).
 * The time of day is kept.
 *
 * - years: same month and day `value` years later; 29 February falls on 1 March in a common
 *   year. This is the legal-age rule of e.g. England and Wales and New Zealand: someone born on
 *   29 February has not completed the year until 28 February has ended.
 * - months: the month advances by `value` and the day is clamped to the last day of the target
 *   month (31 January + 1 month = 28 or 29 February, 31 March + 1 month = 30 April).
 * - weeks, days, hours, minutes: fixed lengths (UTC days are always 24 hours).
 *
 * Consequence of the two rules: for a 29 February start only, `12 months` (28 February) can end
 * one day before `1 year` (1 March).
 *
 * @throws AppError INVALID_INPUT for an invalid date, a negative or non-integer value, or a result
 * outside the ECMAScript date range.
 */
export function addCalendarPeriod(start: Date, value: number, unit: CalendarUnit): Date {
  if (!(start instanceof Date) || Number.isNaN(start.getTime())) {
    throw new AppError('INVALID_INPUT', 'date must be a valid Date');
  }
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new AppError('INVALID_INPUT', 'period value must be a non-negative integer');
  }
  let result: Date;
  if (unit === 'years' || unit === 'months') {
    const y = start.getUTCFullYear();
    const m = start.getUTCMonth() + 1;
    const d = start.getUTCDate();
    const time = [start.getUTCHours(), start.getUTCMinutes(), start.getUTCSeconds(), start.getUTCMilliseconds()] as const;
    if (unit === 'years') {
      const ty = y + value;
      result = m === 2 && d === 29 && !isLeapYear(ty) ? utcInstant(ty, 3, 1, ...time) : utcInstant(ty, m, d, ...time);
    } else {
      const total = m - 1 + value;
      const ty = y + Math.floor(total / 12);
      const tm = (total % 12) + 1;
      result = utcInstant(ty, tm, Math.min(d, daysInMonth(ty, tm)), ...time);
    }
  } else {
    result = new Date(start.getTime() + value * MS_PER[unit]);
  }
  if (Number.isNaN(result.getTime())) throw new AppError('INVALID_INPUT', 'date period exceeds the supported date range');
  return result;
}

/**
 * Whether `date` lies at least `value` `unit` before `now`: the moment `date + period` has been
 * reached (inclusive). Born 2008-11-22 (midnight UTC): 18 years are reached at
 * 2026-11-22T00:00:00Z, not on 2026-11-21.
 */
export function isAtLeastPeriodBefore(date: Date, value: number, unit: CalendarUnit, now: Date): boolean {
  if (!(now instanceof Date) || Number.isNaN(now.getTime())) throw new AppError('INVALID_INPUT', 'now must be a valid Date');
  return addCalendarPeriod(date, value, unit).getTime() <= now.getTime();
}
