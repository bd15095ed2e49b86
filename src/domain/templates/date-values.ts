/**
 * Date and date-time values as credential attributes carry them. Two spellings are accepted:
 *
 * - a calendar date `YYYY-MM-DD` (RFC 3339 `full-date`), and
 * - an RFC 3339 `date-time` `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`, upper-case `T` and `Z`
 *   only (the form `Date#toISOString` emits), seconds 00–59 (leap seconds are not accepted).
 *
 * In both the day must exist in the proleptic Gregorian calendar (no 2023-02-29, no 2024-04-31),
 * and the year is 0001–9999. A bare string like `Date.parse` accepts (`"March 7"`, `2024-1-5`) is not.
 */

/** A day of the civil calendar (month 1–12). */
export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME_RE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:Z|([+-])(\d{2}):(\d{2}))$/;

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** Number of days of `month` (1–12) in `year`. */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function toDate(y: string | undefined, m: string | undefined, d: string | undefined): CalendarDate | null {
  const year = Number(y);
  const month = Number(m);
  const day = Number(d);
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return { year, month, day };
}

/** Parses a strict `YYYY-MM-DD`; null when malformed or not a real day. */
export function parseCalendarDate(value: string): CalendarDate | null {
  const m = DATE_RE.exec(value);
  return m ? toDate(m[1], m[2], m[3]) : null;
}

/** True when `value` is a valid RFC 3339 date-time as described in the module comment. */
export function isRfc3339DateTime(value: string): boolean {
  return parseDateTimeDate(value) !== null;
}

/** The calendar date written in an RFC 3339 date-time (in its own offset); null when invalid. */
function parseDateTimeDate(value: string): CalendarDate | null {
  const m = DATE_TIME_RE.exec(value);
  if (!m) return null;
  const [hh, mm, ss] = [Number(m[4]), Number(m[5]), Number(m[6])];
  if (hh > 23 || mm > 59 || ss > 59) return null;
  if (m[7] !== undefined && (Number(m[8]) > 23 || Number(m[9]) > 59)) return null;
  return toDate(m[1], m[2], m[3]);
}

/**
 * Parses a `date` attribute value (either spelling). For a date-time the calendar date is the one
 * written, in the value's own offset (`2008-11-22T23:30:00-05:00` is 2008-11-22), because a
 * date of birth is a civil date, not an instant; the time of day is ignored.
 */
export function parseDateValue(value: unknown): CalendarDate | null {
  if (typeof value !== 'string' || value.length > 64) return null;
  return parseCalendarDate(value) ?? parseDateTimeDate(value);
}

/** Orders two calendar dates: negative, zero or positive. */
export function compareCalendarDates(a: CalendarDate, b: CalendarDate): number {
  return a.year - b.year || a.month - b.month || a.day - b.day;
}
