import type { AttributeType } from '../schemas/attribute-definitions';
import { IssueCollector, ownValue, quoteKey } from '../schemas/issues';
import { parseDateValue, parseIntegerValue } from '../schemas/value-formats';

export const MAX_VERIFY_PARAMS = 128;
export const MAX_VERIFY_PARAM_LENGTH = 4096;

/** One `<attribute>=<value>` of verifyParams, with the attribute's type resolved for matching. */
export interface VerifyParam {
  attribute: string;
  value: string;
  /** `did` for the subject `id` (the holder DID), else the schema attribute type. */
  type: AttributeType | 'did';
}

export interface VerifyParamsMatch {
  ok: boolean;
  /** Names of the attributes whose value did not match, in parameter order. */
  mismatches: string[];
}

/**
 * Parses verifyParams (spec 2.6): strings `<attribute>=<value>`, split at the FIRST '=' so the
 * value may itself contain '=' (base64, DIDs). Nothing is trimmed: "age = 30" names the unknown
 * attribute "age ". The attribute must be a schema attribute or `id`; each may appear once; the
 * value may be empty.
 *
 * @throws AppError INVALID_INPUT with one detail per malformed entry.
 */
export function parseVerifyParams(
  input: unknown,
  attributeTypes: Readonly<Record<string, AttributeType>>,
  path = 'verifyParams',
): VerifyParam[] {
  const issues = new IssueCollector();
  if (!Array.isArray(input)) {
    issues.add(path, `${path} must be an array of "<attribute>=<value>" strings`);
  } else if (input.length > MAX_VERIFY_PARAMS) {
    issues.add(path, `${path} must have at most ${MAX_VERIFY_PARAMS} entries`);
  }
  issues.throwIfAny('invalid verifyParams');
  const out: VerifyParam[] = [];
  (input as unknown[]).forEach((raw, i) => {
    const p = `${path}[${i}]`;
    if (typeof raw !== 'string' || raw.length > MAX_VERIFY_PARAM_LENGTH) {
      issues.add(p, `${p} must be a string "<attribute>=<value>" of at most ${MAX_VERIFY_PARAM_LENGTH} characters`);
      return;
    }
    const eq = raw.indexOf('=');
    if (eq <= 0) {
      issues.add(p, `${p} must have the form "<attribute>=<value>"`);
      return;
    }
    const attribute = raw.slice(0, eq);
    const type = attribute === 'id' ? 'did' : Object.hasOwn(attributeTypes, attribute) ? attributeTypes[attribute] : undefined;
    if (type === undefined) {
      issues.add(p, `${p}: ${quoteKey(attribute)} is not an attribute of the credential's schema`);
      return;
    }
    if (out.some((q) => q.attribute === attribute)) {
      issues.add(p, `${p}: ${attribute} is given more than once`);
      return;
    }
    out.push({ attribute, value: raw.slice(eq + 1), type });
  });
  issues.throwIfAny('invalid verifyParams');
  return out;
}

function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

function matches(param: VerifyParam, actual: unknown): boolean {
  if (param.type === 'number') {
    const a = parseIntegerValue(param.value);
    const b = parseIntegerValue(actual);
    if (a !== undefined && b !== undefined) return a === b;
  } else if (param.type === 'date') {
    const a = parseDateValue(param.value);
    const b = parseDateValue(actual);
    if (a && b) return a.instant.getTime() === b.instant.getTime();
  }
  return textOf(actual) === param.value;
}

/**
 * Compares verifyParams with plaintext subject values. Numbers compare by integer value ("030"
 * equals 30), dates as instants when both sides parse ("2000-01-01" equals
 * "2000-01-01T00:00:00Z"), everything else, and values that do not parse, as exact
 * case-sensitive strings. A missing attribute is a mismatch.
 */
export function matchVerifyParams(
  params: readonly VerifyParam[],
  subject: Readonly<Record<string, unknown>>,
): VerifyParamsMatch {
  const mismatches = params.filter((p) => !matches(p, ownValue(subject, p.attribute))).map((p) => p.attribute);
  return { ok: mismatches.length === 0, mismatches };
}
