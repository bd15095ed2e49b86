import type { Request } from 'express';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020';
import type { Operation } from '../../contracts';
import type { Parameter } from '../../contracts/operation';
import { type AppError, invalidInput } from '../../errors';

/*
 * The query half of "one schema per operation": a route reads a query parameter through the
 * parameter the operation declares (the one /openapi.json documents), checked against that
 * parameter's schema, instead of through a helper that restates the rule. Readers are built when
 * the route is mounted, so naming a parameter the operation does not declare (or reading a
 * required one as optional, or the reverse) fails the start, not a request.
 *
 * A query string only carries text: every reader first insists on one value (`?a=1&a=2` arrives as
 * an array, `?a[b]=1` as an object; both are 400), then checks that text against the schema.
 */
const ajv = new Ajv2020({ strict: false });

const TRUE_FALSE = ['true', 'false'];

/** The one text form of an integer in a query: plain decimal digits, no sign, no leading zero. */
const DECIMAL_RE = /^(0|[1-9][0-9]{0,15})$/;

function declared(op: Operation, name: string): Parameter {
  const param = op.query?.find((p) => p.name === name);
  if (!param) throw new Error(`operation ${op.id} declares no query parameter ${name}`);
  return param;
}

function declaredAs(op: Operation, name: string, required: boolean): Parameter {
  const param = declared(op, name);
  if ((param.required === true) !== required) throw new Error(`query parameter ${name} of ${op.id} is declared ${param.required ? 'required' : 'optional'}`);
  return param;
}

type Schema = { type?: unknown; enum?: unknown; description?: unknown; minimum?: unknown; maximum?: unknown; maxLength?: unknown };
const schemaOf = (p: Parameter): Schema => p.schema as Schema;

const requiredError = (name: string): AppError => invalidInput(`the ${name} query parameter is required`, [{ field: name, message: 'required' }]);
const repeatedError = (name: string): AppError => invalidInput(`${name} must be given once`, [{ field: name, message: 'given once' }]);

/** The raw text of one parameter: undefined when absent; `notOne` when given twice or as a nested form. */
function oneValue(req: Request, name: string, notOne: () => AppError): string | undefined {
  const v: unknown = req.query[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw notOne();
  return v;
}

/**
 * A `true`/`false` query parameter of `op` (declared with contracts' booleanQuery): absent is
 * false; any other value, or the parameter given twice, is 400 `<name> must be true or false`.
 */
export function booleanQueryOf(op: Operation, name: string): (req: Request) => boolean {
  const param = declared(op, name);
  const allowed = schemaOf(param).enum;
  if (!Array.isArray(allowed) || allowed.length !== 2 || !TRUE_FALSE.every((v) => allowed.includes(v))) {
    throw new Error(`query parameter ${name} of ${op.id} is not a true/false parameter`);
  }
  const validate = ajv.compile(param.schema);
  return (req) => {
    const v = req.query[name];
    if (v === undefined) return false;
    if (!validate(v)) throw invalidInput(`${name} must be true or false`, [{ field: name, message: 'true or false' }]);
    return v === 'true';
  };
}

function stringReader(op: Operation, param: Parameter): (req: Request) => string | undefined {
  const schema = schemaOf(param);
  if (schema.type !== 'string') throw new Error(`query parameter ${param.name} of ${op.id} is not a string parameter`);
  const validate: ValidateFunction = ajv.compile(param.schema);
  const { name } = param;
  // The schema's own description says what a valid value is, so the 400 says it too.
  const rule = typeof schema.description === 'string' ? schema.description : 'well-formed';
  return (req) => {
    const v = oneValue(req, name, () => repeatedError(name));
    if (v === undefined) return undefined;
    if (param.required && v.trim() === '') throw requiredError(name);
    if (validate(v)) return v;
    if (typeof schema.maxLength === 'number' && [...v].length > schema.maxLength) {
      throw invalidInput(`${name} is too long (at most ${schema.maxLength} characters)`, [{ field: name, message: 'too long' }]);
    }
    throw invalidInput(`${name} must be ${rule}`, [{ field: name, message: rule }]);
  };
}

/** An optional text parameter of `op`, checked against its declared schema (pattern, maxLength). */
export function stringQueryOf(op: Operation, name: string): (req: Request) => string | undefined {
  return stringReader(op, declaredAs(op, name, false));
}

/** A required text parameter of `op`: absent, empty or blank is 400 `the <name> query parameter is required`. */
export function requiredStringQueryOf(op: Operation, name: string): (req: Request) => string {
  const read = stringReader(op, declaredAs(op, name, true));
  return (req) => {
    const v = read(req);
    if (v === undefined) throw requiredError(name);
    return v;
  };
}

function rangeText(schema: Schema): string {
  const min = typeof schema.minimum === 'number' ? schema.minimum : undefined;
  const max = typeof schema.maximum === 'number' && schema.maximum < Number.MAX_SAFE_INTEGER ? schema.maximum : undefined;
  if (min !== undefined && max !== undefined) return `an integer from ${min} to ${max}`;
  if (min === 0) return 'a non-negative integer';
  if (min === 1) return 'a positive integer';
  return 'an integer';
}

function integerReader(op: Operation, param: Parameter): (req: Request) => number | undefined {
  const schema = schemaOf(param);
  if (schema.type !== 'integer') throw new Error(`query parameter ${param.name} of ${op.id} is not an integer parameter`);
  const validate: ValidateFunction = ajv.compile(param.schema);
  const { name } = param;
  const rule = rangeText(schema);
  return (req) => {
    // Given twice is a malformed integer, as it was before the schemas checked it (and as booleanQueryOf answers).
    const malformed = (): AppError => invalidInput(`${name} must be ${rule}`, [{ field: name, message: rule }]);
    const v = oneValue(req, name, malformed);
    if (v === undefined) return undefined;
    // The text form is checked here (the schema types the number); the range is the schema's.
    const n = DECIMAL_RE.test(v) ? Number(v) : NaN;
    if (!Number.isSafeInteger(n) || !validate(n)) throw malformed();
    return n;
  };
}

/** An optional integer parameter of `op` (declared `Type.Integer` with its range): plain decimal text only. */
export function integerQueryOf(op: Operation, name: string): (req: Request) => number | undefined {
  return integerReader(op, declaredAs(op, name, false));
}

/** A required integer parameter of `op`: absent is 400 `the <name> query parameter is required`. */
export function requiredIntegerQueryOf(op: Operation, name: string): (req: Request) => number {
  const read = integerReader(op, declaredAs(op, name, true));
  return (req) => {
    const v = read(req);
    if (v === undefined) throw requiredError(name);
    return v;
  };
}
