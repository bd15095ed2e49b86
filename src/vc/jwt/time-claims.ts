import type { JsonObject, VcProblem } from '../ports';
import { CLOCK_SKEW_SECONDS } from './algorithms';

const isNumericDate = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** RFC 7519 exp / nbf / iat against `now`, each with CLOCK_SKEW_SECONDS of tolerance. */
export function checkTimeClaims(payload: JsonObject, now: Date): VcProblem[] {
  const at = now.getTime() / 1000;
  const problems: VcProblem[] = [];
  for (const claim of ['exp', 'nbf', 'iat'] as const) {
    const value = payload[claim];
    if (value === undefined) continue;
    if (!isNumericDate(value)) {
      problems.push({ type: 'PARSING_ERROR', title: `the JWT ${claim} claim must be a NumericDate` });
      continue;
    }
    if (claim === 'exp' && at - CLOCK_SKEW_SECONDS >= value) problems.push({ type: 'EXPIRED', title: 'the JWT has expired', detail: `exp ${value}` });
    if (claim === 'nbf' && at + CLOCK_SKEW_SECONDS < value) problems.push({ type: 'NOT_YET_VALID', title: 'the JWT is not valid yet', detail: `nbf ${value}` });
    if (claim === 'iat' && at + CLOCK_SKEW_SECONDS < value) problems.push({ type: 'NOT_YET_VALID', title: 'the JWT was issued in the future', detail: `iat ${value}` });
  }
  return problems;
}
