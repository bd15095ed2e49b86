import { IssueCollector, isPlainObject, ownValue, reportUnknownKeys } from './issues';

/** The attribute types of POST /issuer/createSchema (spec 2.3). */
export const ATTRIBUTE_TYPES = ['alphanumeric', 'alphabet', 'email', 'number', 'date'] as const;
export type AttributeType = (typeof ATTRIBUTE_TYPES)[number];

/** Types whose values are strings, and therefore the only ones `maxLength` can apply to. */
export const STRING_ATTRIBUTE_TYPES: readonly AttributeType[] = ['alphanumeric', 'alphabet', 'email'];

/**
 * Attribute names are identifiers: an ASCII letter, then letters, digits or '_', at most 64.
 * The name becomes a JSON object key in every credential, the left side of `name=value`
 * verifyParams (so it cannot hold '='), a JSON Pointer segment in validation errors (no '/' or
 * '~'), and a key of plain JavaScript objects (no `__proto__`). Excluding whitespace and
 * non-ASCII also rules out look-alike names that differ only in invisible or homoglyph characters.
 */
export const ATTRIBUTE_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_]*$/;
export const MAX_ATTRIBUTE_NAME_LENGTH = 64;
/** `id` is the holder DID in every credentialSubject, so no schema attribute may take that name. */
export const RESERVED_ATTRIBUTE_NAMES: readonly string[] = ['id'];
/** Generous bound on attributes per schema; it keeps validation and encryption cost bounded. */
export const MAX_ATTRIBUTES = 128;
/** Largest accepted `maxLength`, so the digit string always converts to an exact number. */
export const MAX_LENGTH_LIMIT = 1_000_000;

export interface AttributeDefinition {
  attributeName: string;
  type: AttributeType;
  description: string;
  required: boolean;
  /** Digits only, no leading zero, 1..{@link MAX_LENGTH_LIMIT}; kept as text as the body stores it. */
  maxLength?: string;
}

export const EXPIRATION_UNITS = ['years', 'months', 'weeks', 'days', 'hours', 'minutes'] as const;
export type ExpirationUnit = (typeof EXPIRATION_UNITS)[number];

export interface Expiration {
  value: number;
  unit: ExpirationUnit;
}

/** Upper bound of `expiration.value` per unit: about 1000 years, so expiry dates stay in 4-digit years. */
export const MAX_EXPIRATION: Readonly<Record<ExpirationUnit, number>> = {
  years: 1000,
  months: 12_000,
  weeks: 52_177,
  days: 365_242,
  hours: 8_765_808,
  minutes: 525_948_480,
};

const DEFINITION_FIELDS = ['attributeName', 'type', 'description', 'required', 'maxLength'] as const;
const MAX_LENGTH_TEXT = /^[1-9][0-9]*$/;

function isAttributeType(v: unknown): v is AttributeType {
  return typeof v === 'string' && (ATTRIBUTE_TYPES as readonly string[]).includes(v);
}

/** Problems of an attribute name, or undefined when it is acceptable. */
export function attributeNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'must not be empty';
  if (name.length > MAX_ATTRIBUTE_NAME_LENGTH) return `must be at most ${MAX_ATTRIBUTE_NAME_LENGTH} characters`;
  if (!ATTRIBUTE_NAME_PATTERN.test(name)) {
    return 'must start with an ASCII letter and contain only ASCII letters, digits and _';
  }
  if (RESERVED_ATTRIBUTE_NAMES.includes(name)) return `${JSON.stringify(name)} is reserved for the holder DID`;
  return undefined;
}

function parseOne(raw: unknown, p: string, issues: IssueCollector): AttributeDefinition | undefined {
  if (!isPlainObject(raw)) {
    issues.add(p, `${p} must be an object with attributeName, type, description and required`);
    return undefined;
  }
  const before = issues.issues.length;
  reportUnknownKeys(raw, DEFINITION_FIELDS, p, issues);

  const name = ownValue(raw, 'attributeName');
  if (typeof name !== 'string') {
    issues.add(`${p}.attributeName`, `${p}.attributeName must be a string`);
  } else {
    const problem = attributeNameProblem(name);
    if (problem) issues.add(`${p}.attributeName`, `${p}.attributeName ${problem}`);
  }

  const type = ownValue(raw, 'type');
  if (!isAttributeType(type)) {
    issues.add(`${p}.type`, `${p}.type must be one of ${ATTRIBUTE_TYPES.join(', ')}`);
  }

  const description = ownValue(raw, 'description');
  if (typeof description !== 'string') issues.add(`${p}.description`, `${p}.description must be a string`);

  const required = ownValue(raw, 'required');
  if (typeof required !== 'boolean') issues.add(`${p}.required`, `${p}.required must be a boolean`);

  const maxLength = ownValue(raw, 'maxLength');
  if (maxLength !== undefined) {
    if (typeof maxLength !== 'string' || !MAX_LENGTH_TEXT.test(maxLength) || Number(maxLength) > MAX_LENGTH_LIMIT) {
      issues.add(
        `${p}.maxLength`,
        `${p}.maxLength must be a string of digits from 1 to ${MAX_LENGTH_LIMIT} without leading zeros (omit it for no limit)`,
      );
    } else if (isAttributeType(type) && !STRING_ATTRIBUTE_TYPES.includes(type)) {
      issues.add(`${p}.maxLength`, `${p}.maxLength applies only to ${STRING_ATTRIBUTE_TYPES.join(', ')} attributes`);
    }
  }

  if (issues.issues.length !== before) return undefined;
  const def: AttributeDefinition = {
    attributeName: name as string,
    type: type as AttributeType,
    description: description as string,
    required: required as boolean,
  };
  if (maxLength !== undefined) def.maxLength = maxLength as string;
  return def;
}

/**
 * Collecting form of {@link parseAttributeDefinitions}: adds issues instead of throwing, so a
 * whole request can be checked in one pass. Accepts the array, or the createSchema wrapper object
 * `{ attributes: [...] }` (spec 4.1), whose paths then read `attributes.attributes[i]`.
 */
export function collectAttributeDefinitions(
  input: unknown,
  path: string,
  issues: IssueCollector,
): AttributeDefinition[] {
  let items = input;
  let base = path;
  if (isPlainObject(input)) {
    reportUnknownKeys(input, ['attributes'], path, issues);
    items = ownValue(input, 'attributes');
    base = `${path}.attributes`;
  }
  if (!Array.isArray(items)) {
    issues.add(base, `${base} must be an array of attribute definitions`);
    return [];
  }
  if (items.length === 0) {
    issues.add(base, `${base} must contain at least one attribute definition`);
    return [];
  }
  if (items.length > MAX_ATTRIBUTES) {
    issues.add(base, `${base} must contain at most ${MAX_ATTRIBUTES} attribute definitions`);
    return [];
  }
  const out: AttributeDefinition[] = [];
  // Names differing only in case are refused too: `Age` next to `age` is a mistake, not a design.
  const seen = new Map<string, number>();
  items.forEach((raw: unknown, i) => {
    const p = `${base}[${i}]`;
    const def = parseOne(raw, p, issues);
    const name = isPlainObject(raw) ? ownValue(raw, 'attributeName') : undefined;
    if (typeof name === 'string' && name.length > 0) {
      const key = name.toLowerCase();
      const first = seen.get(key);
      if (first !== undefined) {
        issues.add(
          `${p}.attributeName`,
          `${p}.attributeName ${JSON.stringify(name.slice(0, 64))} duplicates ${base}[${first}].attributeName ` +
            '(names are compared case-insensitively)',
        );
        return;
      }
      seen.set(key, i);
    }
    if (def) out.push(def);
  });
  return out;
}

/**
 * Validates the attribute definitions of POST /issuer/createSchema (spec 2.3) and reports every
 * problem at once, one detail per field (`attributes[2].type`). Unknown fields are refused so a
 * misspelt `maxlength` cannot silently drop a limit.
 *
 * @throws AppError INVALID_INPUT with one detail per problem.
 */
export function parseAttributeDefinitions(input: unknown, path = 'attributes'): AttributeDefinition[] {
  const issues = new IssueCollector();
  const defs = collectAttributeDefinitions(input, path, issues);
  issues.throwIfAny('invalid attribute definitions');
  return defs;
}

/** Collecting form of {@link parseExpiration}. */
export function collectExpiration(input: unknown, path: string, issues: IssueCollector): Expiration | undefined {
  if (!isPlainObject(input)) {
    issues.add(path, `${path} must be an object with value and unit`);
    return undefined;
  }
  const before = issues.issues.length;
  reportUnknownKeys(input, ['value', 'unit'], path, issues);
  const unit = ownValue(input, 'unit');
  const unitOk = typeof unit === 'string' && (EXPIRATION_UNITS as readonly string[]).includes(unit);
  if (!unitOk) issues.add(`${path}.unit`, `${path}.unit must be one of ${EXPIRATION_UNITS.join(', ')}`);
  const value = ownValue(input, 'value');
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    issues.add(`${path}.value`, `${path}.value must be a positive integer`);
  } else if (unitOk && value > MAX_EXPIRATION[unit as ExpirationUnit]) {
    issues.add(`${path}.value`, `${path}.value must be at most ${MAX_EXPIRATION[unit as ExpirationUnit]} ${unit as string}`);
  }
  if (issues.issues.length !== before) return undefined;
  return { value: value as number, unit: unit as ExpirationUnit };
}

/**
 * Validates a schema's `expiration` (`value` a positive integer, `unit` one of
 * {@link EXPIRATION_UNITS}); the value is capped at about 1000 years ({@link MAX_EXPIRATION}).
 *
 * @throws AppError INVALID_INPUT with one detail per problem.
 */
export function parseExpiration(input: unknown, path = 'expiration'): Expiration {
  const issues = new IssueCollector();
  const expiration = collectExpiration(input, path, issues);
  issues.throwIfAny('invalid expiration');
  return expiration as Expiration;
}
