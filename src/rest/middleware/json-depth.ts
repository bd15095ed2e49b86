import { AppError } from '../../errors';

/** Default for CREDGATE_JSON_MAX_DEPTH: far above any credential or JSON-LD document we accept. */
export const DEFAULT_JSON_MAX_DEPTH = 64;

/**
 * Thrown from body-parser's `verify` hook. A plain Error, because body-parser decorates whatever
 * `verify` throws with status 403 and `type`; errorHandler turns it into JSON_TOO_DEEP (400).
 */
export class JsonTooDeepError extends Error {
  constructor(readonly maxDepth: number) {
    super(`JSON nesting is deeper than ${maxDepth} levels`);
    this.name = 'JsonTooDeepError';
  }
}

export const jsonTooDeep = (maxDepth: number): AppError => new AppError('JSON_TOO_DEEP', `JSON nesting is deeper than ${maxDepth} levels`);

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;

/**
 * Whether raw JSON text nests deeper than `maxDepth`, in one pass over the bytes and without
 * recursion. It runs before JSON.parse: V8 parses 5,000 levels happily, but every recursive
 * consumer after it (validation, canonicalisation, GraphQL coercion) overflows the stack and the
 * client got a 500. Brackets inside strings do not count; malformed text is left to JSON.parse.
 */
export function jsonTextTooDeep(text: Uint8Array | string, maxDepth: number): boolean {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]!;
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
      continue;
    }
    if (c === QUOTE) inString = true;
    else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++depth > maxDepth) return true;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) depth--;
  }
  return false;
}

/** The same limit for a value that was parsed elsewhere (GraphQL multipart `operations`); iterative. */
export function valueTooDeep(value: unknown, maxDepth: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d + 1 > maxDepth) return true;
    for (const child of Object.values(v as Record<string, unknown>)) stack.push([child, d + 1]);
  }
  return false;
}

/** JSON.parse with the depth limit first; for JSON carried inside other bodies (multipart fields). */
export function parseJsonLimited(text: string, maxDepth: number = DEFAULT_JSON_MAX_DEPTH): unknown {
  if (jsonTextTooDeep(text, maxDepth)) throw jsonTooDeep(maxDepth);
  return JSON.parse(text);
}
