import { AppError } from '../../errors';

/**
 * RFC 8785 JSON Canonicalization Scheme (JCS).
 *
 * Implemented as one validating pass instead of delegating to the `canonicalize` package, because
 * that package silently emits invalid output for functions nested in objects and throws a plain
 * `TypeError` for bigint. Primitive serialisation is delegated to `JSON.stringify`, which is
 * exactly what RFC 8785 prescribes (ECMAScript Number-to-String and the JSON string escaping of
 * ECMA-262), and object members are ordered by UTF-16 code units (the default `Array#sort`).
 */

const utf8 = new TextEncoder();
/** Characters JSON string escaping changes (ECMA-262 QuoteJSONString); anything else is copied as is. */
const NEEDS_ESCAPE = /["\\\u0000-\u001f]/;

function reject(path: string, what: string): never {
  throw new AppError('INVALID_INPUT', `value at ${path} cannot be canonicalized: ${what}`);
}

declare global {
  /** ES2024's String.prototype.isWellFormed (Node 20 has it; the lib setting here is ES2023). */
  interface String {
    isWellFormed(): boolean;
  }
}

function checkString(s: string, path: string): string {
  // I-JSON (RFC 7493), which RFC 8785 builds on, forbids unpaired surrogates.
  if (!s.isWellFormed()) reject(path, 'string contains an unpaired UTF-16 surrogate');
  // JSON.stringify of a lone string costs about ten times this test; most strings need no escape.
  return NEEDS_ESCAPE.test(s) ? JSON.stringify(s) : `"${s}"`;
}

function hasToJson(v: object): v is { toJSON: (key: string) => unknown } {
  return typeof (v as { toJSON?: unknown }).toJSON === 'function';
}

function serialize(value: unknown, path: string, ancestors: Set<object>, key: string): string {
  switch (typeof value) {
    case 'string':
      return checkString(value, path);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) reject(path, `${String(value)} is not a JSON number`);
      return JSON.stringify(value);
    case 'bigint':
      return reject(path, 'bigint is not a JSON number');
    case 'undefined':
      return reject(path, 'undefined is not a JSON value');
    case 'function':
      return reject(path, 'functions are not JSON values');
    case 'symbol':
      return reject(path, 'symbols are not JSON values');
    default:
      break;
  }
  if (value === null) return 'null';
  const obj = value as object;
  if (hasToJson(obj)) return serialize(obj.toJSON(key), path, ancestors, key);
  if (ancestors.has(obj)) reject(path, 'circular reference');
  ancestors.add(obj);
  try {
    if (Array.isArray(obj)) {
      const items = obj.map((item: unknown, i) => serialize(item, `${path}[${i}]`, ancestors, String(i)));
      return `[${items.join(',')}]`;
    }
    const tag = Object.prototype.toString.call(obj);
    if (tag !== '[object Object]') reject(path, `${tag.slice(8, -1)} is not a plain JSON object`);
    const record = obj as Record<string, unknown>;
    const members: string[] = [];
    for (const name of Object.keys(record).sort()) {
      const member = record[name];
      // An absent optional property (`{ a: undefined }`) is simply not a member, as in JSON.stringify.
      if (member === undefined) continue;
      members.push(`${checkString(name, path)}:${serialize(member, `${path}.${name}`, ancestors, name)}`);
    }
    return `{${members.join(',')}}`;
  } finally {
    ancestors.delete(obj);
  }
}

/**
 * Canonical RFC 8785 text of a JSON value.
 *
 * Object properties whose value is `undefined` are omitted (they are absent in JSON); every other
 * value JSON cannot represent — top-level or array `undefined`, NaN, ±Infinity, bigint, functions,
 * symbols, Map/Set/typed arrays, cycles and unpaired surrogates — is rejected with
 * `AppError('INVALID_INPUT')` rather than being silently dropped or coerced, because whatever is
 * signed over this text must be exactly what the verifier will see after a JSON round trip.
 * Objects with `toJSON` (e.g. `Date`) are serialised through it, as `JSON.stringify` would.
 */
export function canonicalize(value: unknown): string {
  return serialize(value, '$', new Set<object>(), '');
}

/** UTF-8 bytes of {@link canonicalize} — the form that is hashed or signed. */
export function canonicalBytes(value: unknown): Uint8Array {
  return utf8.encode(canonicalize(value));
}
