import { AppError } from '../../errors';
import type { AttributeType } from '../schemas/attribute-definitions';
import { IssueCollector, isPlainObject, ownValue, quoteKey, reportUnknownKeys } from '../schemas/issues';
import { parseDateValue, parseIntegerValue } from '../schemas/value-formats';
import { isAtLeastPeriodBefore } from './calendar';

export const DATE_CONDITION_UNITS = ['years', 'months', 'days'] as const;
export type DateConditionUnit = (typeof DATE_CONDITION_UNITS)[number];
/** Upper bound of a date condition's `value`; keeps `date + period` inside the Date range. */
export const MAX_DATE_CONDITION_VALUE = 100_000;

/** `minimum <= value <= maximum`, each bound optional but not both absent. */
export interface NumberCondition {
  type: 'number';
  minimum?: number;
  maximum?: number;
}

/** The attribute's date lies at least `value` `unit` before the evaluation time (e.g. age >= 18 years). */
export interface DateCondition {
  type: 'date';
  value: number;
  unit: DateConditionUnit;
}

export type Condition = NumberCondition | DateCondition;
export type Conditions = Record<string, Condition>;
/** Attribute name -> whether its condition was met (spec 2.6 "certificate"). */
export type Certificate = Record<string, boolean>;

/** An integer bound: Family A sends bounds as digit strings (an optional '-' allowed). */
const INTEGER_TEXT = /^-?[0-9]+$/;

function parseBound(raw: unknown, p: string, issues: IssueCollector): number | undefined {
  if (raw === undefined) return undefined;
  const n = typeof raw === 'string' && INTEGER_TEXT.test(raw) ? parseIntegerValue(raw) : undefined;
  if (n === undefined) {
    issues.add(
      p,
      `${p} must be a string of digits with an optional leading '-' (at most 2^53-1 in magnitude); omit it for no bound`,
    );
  }
  return n;
}

function parseNumberCondition(raw: Record<string, unknown>, p: string, issues: IssueCollector): NumberCondition | undefined {
  reportUnknownKeys(raw, ['type', 'minimum', 'maximum'], p, issues);
  const before = issues.issues.length;
  const minimum = parseBound(ownValue(raw, 'minimum'), `${p}.minimum`, issues);
  const maximum = parseBound(ownValue(raw, 'maximum'), `${p}.maximum`, issues);
  if (issues.issues.length !== before) return undefined;
  if (minimum === undefined && maximum === undefined) {
    issues.add(p, `${p} needs a minimum, a maximum or both`);
    return undefined;
  }
  if (minimum !== undefined && maximum !== undefined && minimum > maximum) {
    issues.add(p, `${p}.minimum must not be greater than ${p}.maximum`);
    return undefined;
  }
  const out: NumberCondition = { type: 'number' };
  if (minimum !== undefined) out.minimum = minimum;
  if (maximum !== undefined) out.maximum = maximum;
  return out;
}

function parseDateCondition(raw: Record<string, unknown>, p: string, issues: IssueCollector): DateCondition | undefined {
  reportUnknownKeys(raw, ['type', 'value', 'unit'], p, issues);
  const value = ownValue(raw, 'value');
  const unit = ownValue(raw, 'unit');
  let ok = true;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_DATE_CONDITION_VALUE) {
    issues.add(`${p}.value`, `${p}.value must be an integer from 0 to ${MAX_DATE_CONDITION_VALUE}`);
    ok = false;
  }
  if (typeof unit !== 'string' || !(DATE_CONDITION_UNITS as readonly string[]).includes(unit)) {
    issues.add(`${p}.unit`, `${p}.unit must be one of ${DATE_CONDITION_UNITS.join(', ')}`);
    ok = false;
  }
  return ok ? { type: 'date', value: value as number, unit: unit as DateConditionUnit } : undefined;
}

/**
 * Validates ZKP conditions (spec 2.6): an object mapping attribute name -> condition. A `number`
 * attribute takes `{ type: 'number', minimum?, maximum? }` with digit-string bounds (at least one,
 * minimum <= maximum); a `date` attribute takes `{ type: 'date', value, unit }` with an integer
 * value >= 0 and unit years, months or days. Every problem is reported.
 *
 * @param attributeTypes attribute name -> type, e.g. from `attributeTypesOfBody`.
 * @throws AppError INVALID_INPUT with one detail per problem (unknown attribute, type mismatch, ...).
 */
export function parseConditions(
  input: unknown,
  attributeTypes: Readonly<Record<string, AttributeType>>,
  path = 'conditions',
): Conditions {
  const issues = new IssueCollector();
  if (!isPlainObject(input) || Object.keys(input).length === 0) {
    issues.add(path, `${path} must be an object mapping at least one attribute name to a condition`);
    issues.throwIfAny('invalid conditions');
  }
  const out: Conditions = {};
  for (const [name, raw] of Object.entries(input as Record<string, unknown>)) {
    const p = `${path}.${name.slice(0, 64)}`;
    const attrType = Object.hasOwn(attributeTypes, name) ? attributeTypes[name] : undefined;
    if (attrType === undefined) {
      issues.add(p, `${quoteKey(name)} is not an attribute of the credential's schema`);
      continue;
    }
    if (attrType !== 'number' && attrType !== 'date') {
      issues.add(p, `${name} is a ${attrType} attribute; conditions apply only to number and date attributes`);
      continue;
    }
    if (!isPlainObject(raw)) {
      issues.add(p, `${p} must be an object with type '${attrType}'`);
      continue;
    }
    if (ownValue(raw, 'type') !== attrType) {
      issues.add(`${p}.type`, `${p}.type must be '${attrType}' because ${name} is a ${attrType} attribute`);
      continue;
    }
    const condition = attrType === 'number' ? parseNumberCondition(raw, p, issues) : parseDateCondition(raw, p, issues);
    if (condition) out[name] = condition;
  }
  issues.throwIfAny('invalid conditions');
  return out;
}

function meets(condition: Condition, value: unknown, now: Date): boolean {
  if (condition.type === 'number') {
    const n = parseIntegerValue(value);
    if (n === undefined) return false;
    const { minimum, maximum } = condition;
    return (minimum === undefined || n >= minimum) && (maximum === undefined || n <= maximum);
  }
  const date = parseDateValue(value);
  return date !== undefined && isAtLeastPeriodBefore(date.instant, condition.value, condition.unit, now);
}

/**
 * Evaluates each condition against plaintext subject values at `now`. A number condition holds
 * when `minimum <= value <= maximum`; a date condition when the attribute's instant plus the
 * period (calendar arithmetic in UTC, see `addCalendarPeriod`) is not after `now`, so someone
 * born 2008-11-22 is 18 years old from 2026-11-22T00:00:00Z. A missing or unparseable value
 * (e.g. still encrypted) yields false rather than an error: the certificate states what could be
 * established.
 *
 * @throws AppError INVALID_INPUT when `now` is not a valid Date.
 */
export function evaluateConditions(
  conditions: Readonly<Conditions>,
  subject: Readonly<Record<string, unknown>>,
  now: Date,
): Certificate {
  if (!(now instanceof Date) || Number.isNaN(now.getTime())) throw new AppError('INVALID_INPUT', 'now must be a valid Date');
  const out: Certificate = {};
  for (const [name, condition] of Object.entries(conditions)) {
    out[name] = meets(condition, ownValue(subject, name), now);
  }
  return out;
}
