import { AppError, type ErrorCode, type FieldIssue } from '../../errors';

/** How many issue messages are quoted in the summary message; all of them stay in `details`. */
const SUMMARY_ISSUES = 5;

/**
 * Collects every problem of one input before failing, so a client fixing a schema or a request
 * sees all offending fields at once instead of one per round trip.
 */
export class IssueCollector {
  readonly issues: FieldIssue[] = [];

  add(field: string, message: string): void {
    this.issues.push({ field, message });
  }

  get isEmpty(): boolean {
    return this.issues.length === 0;
  }

  /** Throws one AppError carrying all collected issues; the message quotes the first few. */
  throwIfAny(summary: string, code: ErrorCode = 'INVALID_INPUT'): void {
    if (this.issues.length === 0) return;
    const quoted = this.issues.slice(0, SUMMARY_ISSUES).map((i) => i.message);
    const more = this.issues.length - quoted.length;
    const tail = more > 0 ? `; and ${more} more` : '';
    throw new AppError(code, `${summary}: ${quoted.join('; ')}${tail}`, [...this.issues]);
  }
}

/** A JSON object (not null, not an array, not a class instance such as Date or Map). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Own-property lookup, so names such as `constructor` never resolve to Object.prototype members. */
export function ownValue(record: Readonly<Record<string, unknown>>, key: string): unknown {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** Quotes a client-supplied key in a message without echoing an unbounded string. */
export function quoteKey(key: string): string {
  return JSON.stringify(key.length > 64 ? `${key.slice(0, 64)}…` : key);
}

/** Reports every key of `record` outside `allowed` (catches typos such as `maxlength`). */
export function reportUnknownKeys(
  record: Record<string, unknown>,
  allowed: readonly string[],
  path: string,
  issues: IssueCollector,
): void {
  for (const key of Object.keys(record)) {
    if (!allowed.includes(key)) {
      issues.add(`${path}.${key.slice(0, 64)}`, `${path} has unknown field ${quoteKey(key)} (allowed: ${allowed.join(', ')})`);
    }
  }
}
