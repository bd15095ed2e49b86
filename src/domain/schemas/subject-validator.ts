import Ajv, { type ErrorObject, type SchemaObject, type ValidateFunction } from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { canonicalize } from '../canonical';
import type { FieldIssue } from '../../errors';
import { ALPHABET_PATTERN, parseSchemaBody, type PropertyDefinition, type SchemaBody } from './schema-body';
import { parseDateValue, parseIntegerValue } from './value-formats';

export type SubjectValue = string | number;
export type SubjectValues = Record<string, SubjectValue>;
export type SubjectValidation = { ok: true; value: SubjectValues } | { ok: false; issues: FieldIssue[] };

export interface SubjectValidationOptions {
  /**
   * Whether `id` (the holder DID) must be present; default true. The issuance path merges the
   * `did` header into the subject before validating, so the credential's subject is checked whole.
   */
  requireId?: boolean;
}

/**
 * The holder DID in `id`: `did:<method>:` and no whitespace; Family A DIDs carry `;` and `=`
 * after the identifier, so the rest is not constrained further.
 */
const DID_PATTERN = '^did:[a-z0-9]+:\\S+$';
const MAX_DID_LENGTH = 2048;
/** The reference's alphabet pattern is unanchored at the start; validation anchors it (see module doc). */
const ANCHORED_ALPHABET = '^[a-zA-Z]+$';
const DEFAULT_CACHE_SIZE = 256;
const FIELD_PREFIX = 'credentialSubject';

/**
 * The JSON Schema actually validated for one property. The stored body is not usable as-is:
 * `type: 'date'` is not a JSON Schema type, `maxLength` is a string, and Family A sends numbers
 * as strings, so integers and dates are checked by the two custom keywords below.
 */
function derivedProperty(prop: PropertyDefinition): SchemaObject {
  if (prop.type === 'integer') return { credgateInteger: true };
  if (prop.type === 'date') return { credgateDate: true };
  const out: SchemaObject = { type: 'string' };
  if (prop.maxLength !== undefined) out.maxLength = Number(prop.maxLength);
  if (prop.pattern === ALPHABET_PATTERN) out.pattern = ANCHORED_ALPHABET;
  if (prop.format === 'email') out.format = 'email';
  return out;
}

function derivedSchema(body: SchemaBody, requireId: boolean): SchemaObject {
  const properties: Record<string, SchemaObject> = {
    id: { type: 'string', minLength: 1, maxLength: MAX_DID_LENGTH, pattern: DID_PATTERN },
  };
  for (const [name, prop] of Object.entries(body.properties)) properties[name] = derivedProperty(prop);
  return {
    type: 'object',
    properties,
    required: requireId ? ['id', ...body.required] : [...body.required],
    additionalProperties: false,
  };
}

function attributeOf(instancePath: string): string {
  const segment = instancePath.split('/')[1] ?? '';
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

function shortName(name: string): string {
  return name.length > 64 ? `${name.slice(0, 64)}…` : name;
}

/** One issue per ajv error, worded for an API client (ajv's own messages are switched off). */
function issueOf(err: ErrorObject, title: string): FieldIssue {
  if (err.keyword === 'required') {
    const name = String((err.params as { missingProperty?: unknown }).missingProperty);
    return { field: `${FIELD_PREFIX}.${name}`, message: `${name} is required` };
  }
  if (err.keyword === 'additionalProperties') {
    const name = shortName(String((err.params as { additionalProperty?: unknown }).additionalProperty));
    return { field: `${FIELD_PREFIX}.${name}`, message: `${name} is not an attribute of schema ${title}` };
  }
  if (err.instancePath === '') {
    return { field: FIELD_PREFIX, message: `${FIELD_PREFIX} must be a JSON object` };
  }
  const name = attributeOf(err.instancePath);
  const field = `${FIELD_PREFIX}.${name}`;
  if (name === 'id') return { field, message: 'id must be the holder DID (did:<method>:..., no whitespace)' };
  switch (err.keyword) {
    case 'type':
      return { field, message: `${name} must be a string` };
    case 'maxLength':
      return { field, message: `${name} must be at most ${String((err.params as { limit?: unknown }).limit)} characters long` };
    case 'pattern':
      return { field, message: `${name} must contain only the letters A-Z and a-z` };
    case 'format':
      return { field, message: `${name} must be an email address` };
    case 'credgateInteger':
      return {
        field,
        message:
          `${name} must be an integer: a JSON integer or a string of digits with an optional leading '-', ` +
          'at most 2^53-1 in magnitude',
      };
    case 'credgateDate':
      return {
        field,
        message: `${name} must be an RFC 3339 date-time with offset (2000-01-31T00:00:00Z) or a calendar date YYYY-MM-DD`,
      };
    default:
      return { field, message: `${name} is invalid (${err.keyword})` };
  }
}

interface Compiled {
  schema: SchemaObject;
  validate: ValidateFunction;
  body: SchemaBody;
}

/**
 * Validates credential subjects against stored schema bodies with Ajv (JSON Schema draft-04).
 *
 * Decisions:
 * - alphabet: the stored body keeps the reference's `[a-zA-Z]+$`, which unanchored would accept
 *   "123abc"; validation anchors it to `^[a-zA-Z]+$` so "alphabet" means ASCII letters only.
 * - alphanumeric: the reference generates no pattern, so any string is accepted (names with
 *   spaces, addresses); `maxLength` counts Unicode code points.
 * - number: a JSON integer or an integer string, normalised to a number in `value`.
 * - date: an RFC 3339 date-time or a `YYYY-MM-DD` full-date; the text is kept as given.
 * - `id`: the holder DID, a required string by default; no other member outside the schema is
 *   accepted (`additionalProperties: false`), so a typo cannot slip an unsigned field through.
 *
 * Compiled validators are cached per canonical body (LRU, bounded), since validation runs on
 * every issuance; evicted schemas are also removed from Ajv's own cache.
 */
export class SubjectValidator {
  private readonly ajv: Ajv;
  private readonly cache = new Map<string, Compiled>();
  private readonly cacheSize: number;

  constructor(options: { cacheSize?: number } = {}) {
    this.cacheSize = Math.max(1, options.cacheSize ?? DEFAULT_CACHE_SIZE);
    this.ajv = new Ajv({ allErrors: true, strict: true, messages: false });
    addFormats(this.ajv, { mode: 'full', formats: ['email'] });
    this.ajv.addKeyword({
      keyword: 'credgateInteger',
      schemaType: 'boolean',
      errors: false,
      validate: (_schema: boolean, data: unknown) => parseIntegerValue(data) !== undefined,
    });
    this.ajv.addKeyword({
      keyword: 'credgateDate',
      schemaType: 'boolean',
      errors: false,
      validate: (_schema: boolean, data: unknown) => parseDateValue(data) !== undefined,
    });
  }

  /** Number of compiled validators currently cached. */
  get cachedCount(): number {
    return this.cache.size;
  }

  /**
   * Validates `subject` against `body` and returns every violation (one issue per attribute and
   * rule) or the normalised values.
   *
   * @throws AppError INVALID_INPUT when `body` itself is not a well-formed schema body.
   */
  validate(body: unknown, subject: unknown, options: SubjectValidationOptions = {}): SubjectValidation {
    const compiled = this.compiled(body, options.requireId ?? true);
    if (compiled.validate(subject)) {
      return { ok: true, value: normalise(compiled.body, subject as Record<string, unknown>) };
    }
    const seen = new Set<string>();
    const issues: FieldIssue[] = [];
    for (const err of compiled.validate.errors ?? []) {
      const issue = issueOf(err, compiled.body.title);
      const key = `${issue.field}\u0000${issue.message}`;
      if (!seen.has(key)) {
        seen.add(key);
        issues.push(issue);
      }
    }
    return { ok: false, issues };
  }

  private compiled(body: unknown, requireId: boolean): Compiled {
    const key = `${requireId ? 'id' : 'no-id'}|${canonicalize(body)}`;
    const hit = this.cache.get(key);
    if (hit) {
      this.cache.delete(key);
      this.cache.set(key, hit);
      return hit;
    }
    const parsed = parseSchemaBody(body);
    const schema = derivedSchema(parsed, requireId);
    const entry: Compiled = { schema, validate: this.ajv.compile(schema), body: parsed };
    this.cache.set(key, entry);
    if (this.cache.size > this.cacheSize) {
      const [oldestKey, oldest] = this.cache.entries().next().value as [string, Compiled];
      this.cache.delete(oldestKey);
      this.ajv.removeSchema(oldest.schema);
    }
    return entry;
  }
}

/** Values of a valid subject in body order (`id` first), integers converted to numbers. */
function normalise(body: SchemaBody, subject: Record<string, unknown>): SubjectValues {
  const out: SubjectValues = {};
  if (typeof subject.id === 'string') out.id = subject.id;
  for (const [name, prop] of Object.entries(body.properties)) {
    if (!Object.hasOwn(subject, name)) continue;
    const v = subject[name];
    if (prop.type === 'integer') out[name] = parseIntegerValue(v) as number;
    else out[name] = v as string;
  }
  return out;
}

const shared = new SubjectValidator();

/** {@link SubjectValidator.validate} on a process-wide instance. */
export function validateSubject(body: unknown, subject: unknown, options?: SubjectValidationOptions): SubjectValidation {
  return shared.validate(body, subject, options);
}
