import { DEFAULT_JSONLD_BUDGET, type JsonLdBudget } from '../../config/jsonld-budget';
import { AppError } from '../../errors';

// The limits and their defaults are configuration (CREDGATE_JSONLD_MAX_*), declared in src/config.
export { DEFAULT_JSONLD_BUDGET, type JsonLdBudget };

function tooLarge(what: string, limit: number, field: string): never {
  const message = `${field} exceeds the JSON-LD budget: more than ${limit} ${what}`;
  throw new AppError('DOCUMENT_TOO_LARGE', message, [{ field, message }]);
}

/**
 * Throws `AppError('DOCUMENT_TOO_LARGE')` (413) when `document` exceeds `budget`; stops counting
 * at the first limit crossed, so the cost is bounded by the budget, not by the document. Iterative,
 * so a deeply nested document cannot overflow the stack either.
 */
export function assertWithinJsonLdBudget(document: unknown, budget: JsonLdBudget = DEFAULT_JSONLD_BUDGET, field = 'credential'): void {
  let objects = 0;
  let values = 0;
  let chars = 0;
  const stack: [unknown, number][] = [[document, 1]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop() as [unknown, number];
    values += 1;
    if (values > budget.maxValues) tooLarge('values', budget.maxValues, field);
    if (typeof value === 'string') {
      chars += value.length + 2;
    } else if (value !== null && typeof value === 'object') {
      if (depth > budget.maxDepth) tooLarge('levels of nesting', budget.maxDepth, field);
      chars += 2;
      // Every entry on the stack will be counted as a value: refuse before pushing a huge array.
      const members = Array.isArray(value) ? value.length : Object.keys(value).length;
      if (values + stack.length + members > budget.maxValues) tooLarge('values', budget.maxValues, field);
      if (Array.isArray(value)) {
        for (const item of value) stack.push([item, depth + 1]);
      } else {
        objects += 1;
        if (objects > budget.maxObjects) tooLarge('objects', budget.maxObjects, field);
        for (const [key, member] of Object.entries(value as Record<string, unknown>)) {
          chars += key.length + 3;
          stack.push([member, depth + 1]);
        }
      }
    } else {
      chars += 8;
    }
    if (chars > budget.maxChars) tooLarge('characters', budget.maxChars, field);
  }
}
