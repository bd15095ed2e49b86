/**
 * The textual forms Family A uses for non-string attribute values. Clients send numbers as
 * strings ("30") and dates as date strings, so both forms are parsed here once and shared by
 * subject validation, predicate evaluation and verifyParams matching.
 */

/** An optional minus and 1..16 digits; the magnitude check below bounds it to 2^53 - 1. */
const INTEGER_TEXT = /^-?[0-9]{1,16}$/;

/**
 * Parses an integer attribute value: a JSON integer or a string of an optional '-' and ASCII
 * digits (leading zeros allowed, "-0" is 0). Rejects "1.5", "1e3", " 12", "+1", "" and anything
 * beyond ±(2^53 - 1), where a JavaScript number would silently lose precision.
 */
export function parseIntegerValue(value: unknown): number | undefined {
  let n: number;
  if (typeof value === 'number') {
    n = value;
  } else if (typeof value === 'string' && INTEGER_TEXT.test(value)) {
    n = Number(value);
  } else {
    return undefined;
  }
  // `+ 0` turns -0 into 0 so "-0" and "0" compare and serialise alike.
  return Number.isSafeInteger(n) ? n + 0 : undefined;
}

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** Days in a month of the proleptic Gregorian calendar; `month` is 1-based. */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/**
 * Builds a UTC instant from calendar fields. `Date.UTC` maps years 0..99 to 1900..1999, so the
 * full year is set explicitly.
 */
export function utcInstant(year: number, month: number, day: number, h = 0, m = 0, s = 0, ms = 0): Date {
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(h, m, s, ms);
  return d;
}

export interface DateValue {
  /** The instant the text denotes; a full-date denotes midnight UTC of that day. */
  instant: Date;
  /** True for `YYYY-MM-DD`, false for an RFC 3339 date-time. */
  dateOnly: boolean;
}

const FULL_DATE = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/;
const DATE_TIME =
  /^([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]{1,9}))?(?:([Zz])|([+-])([0-9]{2}):([0-9]{2}))$/;

function validDay(y: number, mo: number, d: number): boolean {
  return mo >= 1 && mo <= 12 && d >= 1 && d <= daysInMonth(y, mo);
}

/**
 * Parses a date attribute value: an RFC 3339 `date-time` (offset required, 'T' and 'Z' in either
 * case, up to 9 fraction digits of which milliseconds are kept) or a `full-date` `YYYY-MM-DD`,
 * which is taken as midnight UTC. The day must exist (2023-02-29 is rejected). Leap seconds
 * (`:60`) are rejected because an ECMAScript Date cannot represent them; a date-time without an
 * offset is rejected because it names no instant.
 */
export function parseDateValue(value: unknown): DateValue | undefined {
  if (typeof value !== 'string') return undefined;
  const date = FULL_DATE.exec(value);
  if (date) {
    const [y, mo, d] = [Number(date[1]), Number(date[2]), Number(date[3])];
    return validDay(y, mo, d) ? { instant: utcInstant(y, mo, d), dateOnly: true } : undefined;
  }
  const dt = DATE_TIME.exec(value);
  if (!dt) return undefined;
  const [y, mo, d, h, mi, s] = [1, 2, 3, 4, 5, 6].map((i) => Number(dt[i])) as [
    number, number, number, number, number, number,
  ];
  if (!validDay(y, mo, d) || h > 23 || mi > 59 || s > 59) return undefined;
  const ms = dt[7] === undefined ? 0 : Number(dt[7].padEnd(3, '0').slice(0, 3));
  let offsetMinutes = 0;
  if (dt[8] === undefined) {
    const [oh, om] = [Number(dt[10]), Number(dt[11])];
    if (oh > 23 || om > 59) return undefined;
    offsetMinutes = (dt[9] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const local = utcInstant(y, mo, d, h, mi, s, ms);
  return { instant: new Date(local.getTime() - offsetMinutes * 60_000), dateOnly: false };
}
