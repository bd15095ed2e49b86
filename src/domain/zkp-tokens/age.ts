import { AppError } from '../../errors';
import { type CalendarDate, compareCalendarDates, parseDateValue } from '../templates/date-values';

function invalid(field: string, message: string): AppError {
  return new AppError('INVALID_INPUT', message, [{ field, message }]);
}

/** The UTC calendar date of an instant. */
export function utcCalendarDate(now: Date): CalendarDate {
  return { year: now.getUTCFullYear(), month: now.getUTCMonth() + 1, day: now.getUTCDate() };
}

/**
 * Age in full years on the UTC calendar date of `now`.
 *
 * `birthDate` is a `date` attribute value (`YYYY-MM-DD` or an RFC 3339 date-time, whose written
 * calendar date is used; see templates/date-values). A birthday is reached when the (month, day)
 * of `now` is not before that of the birth date, so someone born 2008-11-22 turns 18 on
 * 2026-11-22, and someone born on 29 February turns a year older on 1 March in non-leap years.
 *
 * @throws AppError INVALID_INPUT for a malformed birth date, an invalid `now`, or a birth date
 *   after `now`'s date.
 */
export function calculateAge(birthDate: string, now: Date): number {
  const birth = parseDateValue(birthDate);
  if (!birth) throw invalid('birthDate', 'birthDate must be a calendar date YYYY-MM-DD or an RFC 3339 date-time');
  if (!(now instanceof Date) || Number.isNaN(now.getTime())) throw invalid('now', 'now must be a valid Date');
  const today = utcCalendarDate(now);
  if (compareCalendarDates(birth, today) > 0) throw invalid('birthDate', 'birthDate is in the future');
  const beforeBirthday = today.month < birth.month || (today.month === birth.month && today.day < birth.day);
  return today.year - birth.year - (beforeBirthday ? 1 : 0);
}
