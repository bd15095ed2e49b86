import type { Request } from 'express';
import { Ajv2020 } from 'ajv/dist/2020';
import type { Operation } from '../../contracts';
import { invalidInput } from '../../errors';

/*
 * The query half of "one schema per operation": a route reads a query parameter through the
 * parameter the operation declares (the one /openapi.json documents), checked against that
 * parameter's schema, instead of through a helper that restates the rule. Readers are built when
 * the route is mounted, so naming a parameter the operation does not declare fails the start.
 */
const ajv = new Ajv2020({ strict: false });

const TRUE_FALSE = ['true', 'false'];

/**
 * A `true`/`false` query parameter of `op` (declared with contracts' booleanQuery): absent is
 * false; any other value, or the parameter given twice, is 400 `<name> must be true or false`.
 */
export function booleanQueryOf(op: Operation, name: string): (req: Request) => boolean {
  const param = op.query?.find((p) => p.name === name);
  if (!param) throw new Error(`operation ${op.id} declares no query parameter ${name}`);
  const allowed = (param.schema as { enum?: unknown }).enum;
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
