import type { JsonObject, VcProblem } from '../ports';

/** The base contexts that name the two data model versions (VCDM 1.1 §4.1, VCDM 2.0 §4.3). */
export const CREDENTIALS_V1_CONTEXT = 'https://www.w3.org/2018/credentials/v1';
export const CREDENTIALS_V2_CONTEXT = 'https://www.w3.org/ns/credentials/v2';

export type VcVersion = '1.1' | '2.0';

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*:\S+$/;

/**
 * A URL in the data model's sense (RFC 3986 absolute URI): `https:`, `did:`, `urn:` … all count.
 * Whitespace is refused outright because WHATWG parsing would otherwise trim it away.
 */
export function isUrl(value: unknown): value is string {
  return typeof value === 'string' && SCHEME.test(value) && URL.canParse(value);
}

/**
 * XMLSchema 1.1 dateTimeStamp: a dateTime whose timezone is mandatory. Both versions are held to it
 * (1.1 allows a bare dateTime, but without a zone its instant — and so any validity check — is ambiguous).
 */
const DATE_TIME_STAMP = /^-?\d{4,}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d+)?(Z|[+-]((0\d|1[0-3]):[0-5]\d|14:00))$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Date.parse rolls 2024-02-30 over into March; the lexical form must name a real day. */
function isRealDay(value: string): boolean {
  const [, year = '', month = '', day = ''] = /^(-?\d{4,})-(\d{2})-(\d{2})/.exec(value) ?? [];
  const y = Number(year);
  const m = Number(month);
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  return Number(day) <= (m === 2 && leap ? 29 : (DAYS_IN_MONTH[m - 1] ?? 0));
}

export function isDateTimeStamp(value: unknown): value is string {
  return typeof value === 'string' && DATE_TIME_STAMP.test(value) && isRealDay(value) && !Number.isNaN(Date.parse(value));
}

/** Milliseconds since the epoch of a valid dateTimeStamp; undefined for anything else. */
export function instantOf(value: unknown): number | undefined {
  return isDateTimeStamp(value) ? Date.parse(value) : undefined;
}

/** A JSON value that may be one item or a list of them, as a list. */
export function asList(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [value];
}

export function typesOf(value: unknown): string[] {
  return asList(value).filter((t): t is string => typeof t === 'string');
}

/** The issuer's URL, whether the issuer is a bare URL or an object with an `id`. */
export function issuerIdOf(issuer: unknown): string | undefined {
  if (typeof issuer === 'string') return issuer;
  if (isJsonObject(issuer) && typeof issuer.id === 'string') return issuer.id;
  return undefined;
}

/** VCDM 2.0 §7.1 problem type names; shape problems are all malformed values, told apart by title. */
export const MALFORMED = 'MALFORMED_VALUE_ERROR';
export const PARSING = 'PARSING_ERROR';

export function problem(type: string, title: string, detail?: string): VcProblem {
  return detail === undefined ? { type, title } : { type, title, detail };
}
