import { DataItem, DateOnly } from './cbor';
import type { MdocElementType } from './doctypes';

/** A value that does not fit its element's type; the caller collects these into one INVALID_INPUT. */
export class ElementTypeError extends Error {
  constructor(readonly field: string, message: string) {
    super(message);
    this.name = 'ElementTypeError';
  }
}

const FULL_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TDATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function isRealDate(text: string): boolean {
  const m = FULL_DATE.exec(text);
  if (!m) return false;
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text;
}

function fullDate(value: unknown, field: string): DateOnly {
  if (value instanceof DateOnly) return value;
  if (typeof value === 'string' && isRealDate(value)) return new DateOnly(value);
  throw new ElementTypeError(field, 'must be a full-date (YYYY-MM-DD)');
}

function tdate(value: unknown, field: string): Date {
  if (value instanceof Date && !Number.isNaN(value.getTime())) return value;
  if (typeof value === 'string' && TDATE.test(value)) {
    const d = new Date(value);
    if (!Number.isNaN(d.getTime())) return d;
  }
  throw new ElementTypeError(field, 'must be a date-time (RFC 3339, e.g. 2026-01-31T12:00:00Z)');
}

function text(value: unknown, field: string): string {
  if (typeof value === 'string' && value.length > 0) return value;
  throw new ElementTypeError(field, 'must be a non-empty string');
}

function uint(value: unknown, field: string): number {
  const n = typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : value;
  if (typeof n === 'number' && Number.isSafeInteger(n) && n >= 0) return n;
  throw new ElementTypeError(field, 'must be an unsigned integer');
}

function bool(value: unknown, field: string): boolean {
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === 'false') return value === 'true';
  throw new ElementTypeError(field, 'must be a boolean');
}

function bytes(value: unknown, field: string): Uint8Array {
  if (value instanceof Uint8Array) return value;
  // Binary attributes (portraits) arrive through JSON as base64 or base64url text.
  if (typeof value === 'string' && value.length > 0 && /^[A-Za-z0-9+/_-]+={0,2}$/.test(value)) {
    return new Uint8Array(Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64'));
  }
  throw new ElementTypeError(field, 'must be bytes (base64 or base64url text)');
}

function record(value: unknown, field: string): Record<string, unknown> {
  // Already-typed values (a Map from an earlier conversion) convert again to themselves.
  if (value instanceof Map) return Object.fromEntries([...value].map(([k, v]) => [String(k), v]));
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array)) return value as Record<string, unknown>;
  throw new ElementTypeError(field, 'must be an object');
}

/** ISO 18013-5 §7.2.4: [{ vehicle_category_code, issue_date?, expiry_date?, codes?: [{ code, sign?, value? }] }]. */
function drivingPrivileges(value: unknown, field: string): Map<string, unknown>[] {
  if (!Array.isArray(value)) throw new ElementTypeError(field, 'must be an array of driving privileges');
  return value.map((entry, i) => {
    const at = `${field}[${i}]`;
    const p = record(entry, at);
    const out = new Map<string, unknown>([['vehicle_category_code', text(p.vehicle_category_code, `${at}.vehicle_category_code`)]]);
    if (p.issue_date !== undefined) out.set('issue_date', fullDate(p.issue_date, `${at}.issue_date`));
    if (p.expiry_date !== undefined) out.set('expiry_date', fullDate(p.expiry_date, `${at}.expiry_date`));
    if (p.codes !== undefined) {
      if (!Array.isArray(p.codes)) throw new ElementTypeError(`${at}.codes`, 'must be an array');
      out.set(
        'codes',
        p.codes.map((c, j) => {
          const cc = record(c, `${at}.codes[${j}]`);
          const code = new Map<string, unknown>([['code', text(cc.code, `${at}.codes[${j}].code`)]]);
          if (cc.sign !== undefined) code.set('sign', text(cc.sign, `${at}.codes[${j}].sign`));
          if (cc.value !== undefined) code.set('value', text(cc.value, `${at}.codes[${j}].value`));
          return code;
        }),
      );
    }
    const unknown = Object.keys(p).filter((k) => !['vehicle_category_code', 'issue_date', 'expiry_date', 'codes'].includes(k));
    if (unknown.length > 0) throw new ElementTypeError(`${at}.${unknown[0]}`, 'is not a driving privilege field');
    return out;
  });
}

/** Converts an input value into the CBOR value of an element of the given type. */
export function toElementValue(type: MdocElementType, value: unknown, field: string): unknown {
  switch (type) {
    case 'tstr':
      return text(value, field);
    case 'uint':
      return uint(value, field);
    case 'bool':
      return bool(value, field);
    case 'bstr':
      return bytes(value, field);
    case 'full-date':
      return fullDate(value, field);
    case 'tdate':
      return tdate(value, field);
    case 'full-date-or-tdate':
      return typeof value === 'string' && FULL_DATE.test(value) ? fullDate(value, field) : value instanceof DateOnly ? value : tdate(value, field);
    case 'tstr-array':
      if (typeof value === 'string') return [text(value, field)];
      if (Array.isArray(value) && value.length > 0) return value.map((v, i) => text(v, `${field}[${i}]`));
      throw new ElementTypeError(field, 'must be a string or a non-empty array of strings');
    case 'driving-privileges':
      return drivingPrivileges(value, field);
  }
}

/**
 * An element of a namespace this service has no configuration for: JSON-like values pass as they are
 * (objects become CBOR maps), anything else is refused rather than encoded in some surprising way.
 */
export function toUntypedElementValue(value: unknown, field: string, depth = 0): unknown {
  if (depth > 8) throw new ElementTypeError(field, 'is nested too deeply');
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new ElementTypeError(field, 'must be a finite number');
    return value;
  }
  if (value instanceof Uint8Array || value instanceof DateOnly || value instanceof Date) return value;
  if (Array.isArray(value)) return value.map((v, i) => toUntypedElementValue(v, `${field}[${i}]`, depth + 1));
  if (typeof value === 'object' && value !== null) {
    return new Map(Object.entries(value).map(([k, v]) => [k, toUntypedElementValue(v, `${field}.${k}`, depth + 1)]));
  }
  throw new ElementTypeError(field, 'has no CBOR representation');
}

/**
 * A decoded element value as JSON for results and DCQL matching: full-date -> "YYYY-MM-DD", tdate ->
 * RFC 3339 text, bytes -> base64url, maps -> objects.
 */
export function elementValueToJson(value: unknown, depth = 0): unknown {
  if (depth > 16) return null;
  if (value instanceof DateOnly) return value.toISOString();
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : `${value.toISOString().split('.')[0]}Z`;
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64url');
  if (value instanceof DataItem) return null;
  if (Array.isArray(value)) return value.map((v) => elementValueToJson(v, depth + 1));
  if (value instanceof Map) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of value) setOwn(out, String(k), elementValueToJson(v, depth + 1));
    return out;
  }
  if (typeof value === 'bigint') return value.toString();
  if (value === undefined) return null;
  return value;
}

/** Sets a key as an own property even when it is "__proto__": names come from the presented CBOR. */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
