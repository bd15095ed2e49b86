import type { CalendarDate } from '../domain/templates/date-values';
import type { ZkMessage, ZkRange } from './core-source';

/*
 * How attribute values become range-provable messages. Bulletproofs++ proves min <= m < max for
 * non-negative integers, so every signed number is shifted by OFFSET (negative values and dates
 * before 1970 included) and bounds are shifted the same way. Dates are UTC day numbers (days since
 * 1970-01-01 of the written calendar date), so "born on or before D" is a range on an integer.
 * Values are limited to |v| < OFFSET so that every shifted value and bound stays a safe integer
 * well inside the 64-bit range the proof covers.
 */
export const OFFSET = 2 ** 50;
/** Exclusive upper end of every encoded value: "no upper bound" means m < TOP. */
export const TOP = 2 ** 51;

export const encodeInteger = (v: number): number => {
  if (!Number.isSafeInteger(v) || Math.abs(v) >= OFFSET) throw new RangeError('value out of the provable range');
  return OFFSET + v;
};

export const inProvableRange = (v: number): boolean => Number.isSafeInteger(v) && Math.abs(v) < OFFSET;

const DAY_MS = 86_400_000;

/** Days since 1970-01-01 of a valid calendar date (setUTCFullYear, unlike Date.UTC, keeps years 0-99 as written). */
export function dayNumber(d: CalendarDate): number {
  const t = new Date(0);
  t.setUTCFullYear(d.year, d.month - 1, d.day);
  return Math.floor(t.getTime() / DAY_MS);
}

export function utcDayOf(instant: Date): number {
  return Math.floor(instant.getTime() / DAY_MS);
}

const isLeap = (y: number): boolean => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

/**
 * The latest birth date whose holder is at least `age` full years old on the UTC date of `now`,
 * with the same rule as calculateAge (domain/zkp-tokens/age.ts): the birthday is reached when
 * (month, day) of today is not before that of the birth date, so someone born on 29 February
 * becomes a year older on 1 March in other years, i.e. on 28 February they are not yet.
 */
export function latestBirthDayForAge(age: number, now: Date): number {
  const year = now.getUTCFullYear() - age;
  const month = now.getUTCMonth() + 1;
  let day = now.getUTCDate();
  if (month === 2 && day === 29 && !isLeap(year)) day = 28;
  return dayNumber({ year, month, day });
}

/** The range "birth day <= latest" over an encoded day message. */
export function ageRange(index: number, age: number, now: Date): ZkRange {
  return { index, min: 0, max: encodeInteger(latestBirthDayForAge(age, now)) + 1 };
}

/** The range "valid-until day >= today": an expired (no longer re-signed) signature cannot prove. */
export function validityRange(index: number, now: Date): ZkRange {
  return { index, min: encodeInteger(utcDayOf(now)), max: TOP };
}

export const numberMessage = (v: number): ZkMessage => ({ n: encodeInteger(v) });
export const bytesMessage = (b: Uint8Array): ZkMessage => ({ b });
