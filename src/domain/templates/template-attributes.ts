import { AppError, type FieldIssue, summarizeIssues } from '../../errors';
import { isRfc3339DateTime, parseCalendarDate } from './date-values';

/**
 * Attribute types a VC template (spec §2.9) may declare. The spec leaves the list open; this
 * service fixes it to:
 *
 * | type      | accepted subject value                                                  |
 * |-----------|-------------------------------------------------------------------------|
 * | `string`  | a JSON string of at most {@link MAX_STRING_LENGTH} UTF-16 code units     |
 * | `number`  | a finite JSON number (strings such as `"42"` are rejected)               |
 * | `integer` | a JSON number that is a safe integer                                     |
 * | `boolean` | `true` or `false`                                                        |
 * | `date`    | `YYYY-MM-DD` of a real calendar day, or an RFC 3339 date-time            |
 * | `email`   | a string matching the WHATWG HTML "valid e-mail address", ≤ 254 chars    |
 */
export const TEMPLATE_ATTRIBUTE_TYPES = ['string', 'number', 'integer', 'boolean', 'date', 'email'] as const;
export type TemplateAttributeType = (typeof TEMPLATE_ATTRIBUTE_TYPES)[number];

/** One attribute definition, normalised. */
export interface TemplateAttribute {
  attributeName: string;
  type: TemplateAttributeType;
  description: string;
  /**
   * Whether a subject must carry the attribute. The spec's definition has no such field; it is an
   * optional input here and defaults to true, so templates written to the spec make every attribute
   * mandatory.
   */
  required: boolean;
}

export const MAX_TEMPLATE_ATTRIBUTES = 100;
export const MAX_STRING_LENGTH = 10_000;
export const MAX_DESCRIPTION_LENGTH = 1_000;
const MAX_EMAIL_LENGTH = 254;
const MAX_DID_LENGTH = 2_048;

/**
 * A letter, then letters, digits or `_`, at most 64 characters. This keeps names usable as JSON
 * member names everywhere, and excludes `__proto__` and the SD-JWT reserved `_sd` by construction.
 */
const ATTRIBUTE_NAME_RE = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
/** Reserved: the subject's `id` is the holder DID, never a template attribute. */
const RESERVED_NAMES = new Set(['id']);
const KNOWN_FIELDS = new Set(['attributeName', 'type', 'description', 'required']);

/** WHATWG HTML "valid e-mail address" (https://html.spec.whatwg.org/#valid-e-mail-address). */
const EMAIL_RE =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;
/** W3C DID Core §3.1 `did` ABNF: `did:` method-name `:` method-specific-id. */
const DID_RE = /^did:[a-z0-9]+:(?:(?:[A-Za-z0-9._-]|%[0-9A-Fa-f]{2})*:)*(?:[A-Za-z0-9._-]|%[0-9A-Fa-f]{2})+$/;
const LONE_SURROGATE = /\p{Cs}/u;

/** Member names from the request are echoed in details; overlong ones are shortened. */
function shown(key: string): string {
  return key.length <= 64 ? key : `${key.slice(0, 61)}...`;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isAttributeType(v: unknown): v is TemplateAttributeType {
  return typeof v === 'string' && (TEMPLATE_ATTRIBUTE_TYPES as readonly string[]).includes(v);
}

/** True for a syntactically valid DID (DID Core ABNF, at most 2048 characters). */
export function isDid(value: unknown): value is string {
  return typeof value === 'string' && value.length <= MAX_DID_LENGTH && DID_RE.test(value);
}

/** True for a string the `email` type accepts. */
export function isEmail(value: unknown): value is string {
  return typeof value === 'string' && value.length <= MAX_EMAIL_LENGTH && EMAIL_RE.test(value);
}

function parseOne(item: unknown, path: string, issues: FieldIssue[]): TemplateAttribute | null {
  if (!isPlainObject(item)) {
    issues.push({ field: path, message: 'must be an object with attributeName, type and description' });
    return null;
  }
  const before = issues.length;
  const { attributeName, type, description, required } = item;
  if (typeof attributeName !== 'string' || !ATTRIBUTE_NAME_RE.test(attributeName)) {
    issues.push({
      field: `${path}.attributeName`,
      message: 'must start with a letter and contain only letters, digits and _ (at most 64 characters)',
    });
  } else if (RESERVED_NAMES.has(attributeName)) {
    issues.push({ field: `${path}.attributeName`, message: `"${attributeName}" is reserved for the subject DID` });
  }
  if (!isAttributeType(type)) {
    issues.push({ field: `${path}.type`, message: `must be one of ${TEMPLATE_ATTRIBUTE_TYPES.join(', ')}` });
  }
  if (typeof description !== 'string' || description.length > MAX_DESCRIPTION_LENGTH) {
    issues.push({ field: `${path}.description`, message: `must be a string of at most ${MAX_DESCRIPTION_LENGTH} characters` });
  }
  if (required !== undefined && typeof required !== 'boolean') {
    issues.push({ field: `${path}.required`, message: 'must be a boolean when present' });
  }
  for (const key of Object.keys(item)) {
    if (!KNOWN_FIELDS.has(key)) issues.push({ field: `${path}.${shown(key)}`, message: 'is not a field of an attribute definition' });
  }
  if (issues.length > before) return null;
  return {
    attributeName: attributeName as string,
    type: type as TemplateAttributeType,
    description: description as string,
    required: required !== false,
  };
}

/**
 * Validates the `attributes` of a template create/update request (spec §4.2 PUT /vc-templates):
 * a non-empty array (at most {@link MAX_TEMPLATE_ATTRIBUTES}) of `{ attributeName, type,
 * description, required? }`. Unknown fields, unknown types, reserved or malformed names and
 * duplicate names (case-sensitive) are all reported at once.
 *
 * @throws AppError INVALID_INPUT with one detail per problem, fields like `attributes[2].type`.
 */
export function parseTemplateAttributes(input: unknown, field = 'attributes'): TemplateAttribute[] {
  if (!Array.isArray(input) || input.length === 0 || input.length > MAX_TEMPLATE_ATTRIBUTES) {
    const message = `${field} must be an array of 1 to ${MAX_TEMPLATE_ATTRIBUTES} attribute definitions`;
    throw new AppError('INVALID_INPUT', message, [{ field, message }]);
  }
  const issues: FieldIssue[] = [];
  const seen = new Map<string, number>();
  const out: TemplateAttribute[] = [];
  input.forEach((item: unknown, i) => {
    const attr = parseOne(item, `${field}[${i}]`, issues);
    if (!attr) return;
    const first = seen.get(attr.attributeName);
    if (first !== undefined) {
      issues.push({ field: `${field}[${i}].attributeName`, message: `duplicates ${field}[${first}].attributeName` });
      return;
    }
    seen.set(attr.attributeName, i);
    out.push(attr);
  });
  if (issues.length > 0) throw new AppError('INVALID_INPUT', summarizeIssues(`${field} are invalid`, issues), issues);
  return out;
}

/** Why `value` is not acceptable for `type`, or null when it is. */
export function attributeValueIssue(type: TemplateAttributeType, value: unknown): string | null {
  switch (type) {
    case 'string':
      if (typeof value !== 'string') return 'must be a string';
      if (value.length > MAX_STRING_LENGTH) return `must be at most ${MAX_STRING_LENGTH} characters`;
      return LONE_SURROGATE.test(value) ? 'must be well-formed Unicode text' : null;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? null : 'must be a JSON number';
    case 'integer':
      return Number.isSafeInteger(value) ? null : 'must be an integer (JSON number)';
    case 'boolean':
      return typeof value === 'boolean' ? null : 'must be true or false';
    case 'date':
      if (typeof value === 'string' && (parseCalendarDate(value) !== null || isRfc3339DateTime(value))) return null;
      return 'must be a calendar date YYYY-MM-DD or an RFC 3339 date-time';
    case 'email':
      return isEmail(value) ? null : 'must be an e-mail address';
    default:
      return 'has an unsupported type';
  }
}

export type SubjectValidation =
  | { ok: true; value: Record<string, unknown> }
  | { ok: false; issues: FieldIssue[] };

/**
 * Checks a credential subject against a template's attributes. Rules:
 *
 * - every attribute with `required` true must be present (null is a present, wrongly-typed value);
 * - each present value must fit its type (see {@link TEMPLATE_ATTRIBUTE_TYPES});
 * - `id` is allowed besides the attributes and must then be a DID (the holder);
 * - any other member is rejected, so nothing the template does not describe is signed.
 *
 * Returns every problem, fields like `credentialSubject.birthDate`. On success `value` is a fresh
 * object: `id` first (when given), then the attributes in template order.
 */
export function validateTemplateSubject(
  attributes: readonly TemplateAttribute[],
  subject: unknown,
  field = 'credentialSubject',
): SubjectValidation {
  if (!isPlainObject(subject)) {
    return { ok: false, issues: [{ field, message: 'must be an object' }] };
  }
  const issues: FieldIssue[] = [];
  const value: Record<string, unknown> = {};
  const known = new Set(attributes.map((a) => a.attributeName));
  if (Object.hasOwn(subject, 'id')) {
    if (isDid(subject.id)) value.id = subject.id;
    else issues.push({ field: `${field}.id`, message: 'must be a DID (did:<method>:<identifier>)' });
  }
  for (const attr of attributes) {
    const path = `${field}.${attr.attributeName}`;
    if (!Object.hasOwn(subject, attr.attributeName) || subject[attr.attributeName] === undefined) {
      if (attr.required) issues.push({ field: path, message: 'is required' });
      continue;
    }
    const v = subject[attr.attributeName];
    const problem = attributeValueIssue(attr.type, v);
    if (problem) issues.push({ field: path, message: problem });
    else value[attr.attributeName] = v;
  }
  for (const key of Object.keys(subject)) {
    if (key !== 'id' && !known.has(key)) {
      issues.push({ field: `${field}.${shown(key)}`, message: 'is not an attribute of this template' });
    }
  }
  return issues.length > 0 ? { ok: false, issues } : { ok: true, value };
}
