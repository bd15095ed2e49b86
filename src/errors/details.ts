import type { AppError, FieldIssue } from './app-error';

/**
 * The `details` both transports show for an AppError (REST envelopes and GraphQL
 * `extensions.details`): one mapping, so a client sees the same per-field list whichever it uses.
 * Only `field` and `message` are copied, so nothing else a thrower attached can leak.
 */
export function publicDetails(e: AppError): FieldIssue[] | undefined {
  if (!e.details || e.details.length === 0) return undefined;
  return e.details.map(({ field, message }) => ({ field, message }));
}

/**
 * A summary message that names the first problem (`invalid template: attributes[0].type: must be
 * one of …`) instead of a generic text, so a client reading only the message (Family B's `error`)
 * learns what to fix. The field is not repeated when the issue's message already starts with it.
 */
export function summarizeIssues(summary: string, issues: readonly FieldIssue[]): string {
  const first = issues[0];
  if (!first) return summary;
  const text = first.message.startsWith(first.field) ? first.message : `${first.field}: ${first.message}`;
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  return `${summary}: ${text}${more}`;
}
