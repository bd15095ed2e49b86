import type { Request } from 'express';
import { AppError, invalidInput } from '../errors';
import { header } from './context';

export type Json = Record<string, unknown>;

/** The parsed JSON body as an object; anything else (array, scalar, missing) is a 400. */
export function bodyObject(req: Request): Json {
  const b: unknown = req.body;
  if (b === undefined || b === null || typeof b !== 'object' || Array.isArray(b)) {
    throw invalidInput('request body must be a JSON object');
  }
  return b as Json;
}

export function requiredString(o: Json, field: string, maxLength = 10_000): string {
  const v = o[field];
  if (typeof v !== 'string' || v.trim() === '') throw invalidInput(`${field} is required and must be a non-empty string`, [{ field, message: 'required string' }]);
  if (v.length > maxLength) throw invalidInput(`${field} is longer than ${maxLength} characters`, [{ field, message: 'too long' }]);
  return v;
}

export function optionalString(o: Json, field: string, maxLength = 10_000): string | undefined {
  return o[field] === undefined || o[field] === null ? undefined : requiredString(o, field, maxLength);
}

export function requiredHeader(req: Request, name: string, maxLength = 4096): string {
  const v = header(req, name)?.trim();
  if (!v) throw new AppError('INVALID_INPUT', `the ${name} header is required`, [{ field: name, message: 'required header' }]);
  if (v.length > maxLength) throw invalidInput(`the ${name} header is too long`);
  return v;
}

export function pathParam(req: Request, name: string): string {
  const v = req.params[name];
  if (typeof v !== 'string' || v === '') throw invalidInput(`${name} is required`);
  return v;
}

/**
 * Whether a parsed JSON value holds a NUL character (U+0000) in any string or key. PostgreSQL
 * text and jsonb cannot store it, so it is refused at the edge, before any work. Iterative, so a
 * deeply nested value cannot overflow the stack.
 */
export function containsNul(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return true;
    } else if (Array.isArray(v)) {
      stack.push(...v);
    } else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (k.includes('\u0000')) return true;
        stack.push(x);
      }
    }
  }
  return false;
}

export const nulRefused = (): AppError => invalidInput('text must not contain NUL (U+0000) characters');
