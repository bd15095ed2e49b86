import type { NextFunction, Request, Response } from 'express';
import type { Static, TSchema } from '@sinclair/typebox';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { Operation } from '../../contracts';
import { AppError, type FieldIssue, invalidInput } from '../../errors';

/*
 * The REST half of "one schema per operation": the body schema that generates the OpenAPI entry
 * is the one the request is checked against, before the service runs. The schemas check shape
 * (types and required fields); the services keep the rules (name syntax, enumerations, lengths)
 * and state them in their messages, identically for GraphQL.
 */
const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats(ajv);

/** `/attributes/0/type` -> `attributes[0].type`; the root is `body`. */
export function fieldOf(instancePath: string, property?: string): string {
  const parts = instancePath.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (property !== undefined) parts.push(property);
  if (parts.length === 0) return 'body';
  return parts.reduce((acc, p, i) => (/^[0-9]+$/.test(p) ? `${acc}[${p}]` : i === 0 ? p : `${acc}.${p}`), '');
}

const ARTICLE: Readonly<Record<string, string>> = { object: 'an object', array: 'an array', integer: 'an integer', string: 'a string', boolean: 'a boolean', number: 'a number', null: 'null' };

function messageOf(e: ErrorObject): string {
  if (e.keyword === 'required') return 'is required';
  if (e.keyword === 'type') {
    const types = String(e.params['type']).split(',');
    return `must be ${types.map((t) => ARTICLE[t] ?? t).join(' or ')}`;
  }
  if (e.keyword === 'anyOf' || e.keyword === 'oneOf') return 'does not have any of the allowed shapes (see /openapi.json)';
  return e.message ?? 'is invalid';
}

/** One issue per ajv error; the branches of a failed union are summed up by the union's own error. */
export function issuesOf(errors: readonly ErrorObject[]): FieldIssue[] {
  const unions = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf').map((e) => `${e.schemaPath}/`);
  const seen = new Set<string>();
  const out: FieldIssue[] = [];
  for (const e of errors) {
    if (unions.some((u) => e.schemaPath.startsWith(u))) continue;
    const field = fieldOf(e.instancePath, e.keyword === 'required' ? String(e.params['missingProperty']) : undefined);
    const message = messageOf(e);
    const key = `${field}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ field, message });
  }
  return out;
}

/** `templateName is required`, `isEncrypted must be a boolean (and 2 more)`. */
function summary(issues: readonly FieldIssue[]): string {
  const [first] = issues;
  if (!first) return 'invalid request body';
  return `${first.field} ${first.message}${issues.length > 1 ? ` (and ${issues.length - 1} more)` : ''}`;
}

const compiled = new WeakMap<Operation, ValidateFunction>();

function validatorOf(op: Operation): ValidateFunction {
  if (!op.body) throw new Error(`operation ${op.id} has no body schema`);
  let v = compiled.get(op);
  if (!v) {
    v = ajv.compile(op.body.schema);
    compiled.set(op, v);
  }
  return v;
}

/**
 * Checks a parsed body against the operation's schema. Throws INVALID_INPUT (400) with per-field
 * `details`; a body that is not a JSON object keeps the message routes used before.
 */
export function assertBody(op: Operation, body: unknown): asserts body is Record<string, unknown> {
  const validate = validatorOf(op);
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) throw invalidInput('request body must be a JSON object');
  if (validate(body)) return;
  const issues = issuesOf(validate.errors ?? []);
  throw invalidInput(summary(issues), issues);
}

/**
 * The body a `validateBody(op)` ahead of the handler let through, typed by that operation's body
 * schema (pass the same schema: the type is only as true as that pairing).
 */
export function bodyOf<S extends TSchema>(req: Request, _schema: S): Static<S> {
  return req.body as Static<S>;
}

/** Express middleware: validates the JSON body (multipart bodies are read and checked by their route). */
export function validateBody(op: Operation) {
  validatorOf(op); // compile at mount time: a broken schema fails the start, not a request
  return (req: Request, _res: Response, next: NextFunction): void => {
    if (req.is('multipart/form-data')) {
      // Only multipart operations read multipart bodies; elsewhere jsonBody let it pass unparsed.
      return next(op.body?.multipart ? undefined : new AppError('UNSUPPORTED_MEDIA_TYPE', 'request bodies must be application/json'));
    }
    try {
      assertBody(op, req.body);
      next();
    } catch (e) {
      next(e);
    }
  };
}
