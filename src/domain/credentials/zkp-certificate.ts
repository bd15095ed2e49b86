import { canonicalBytes } from '../canonical';
import type { Certificate, Condition } from '../predicates/conditions';
import type { VerifyParam } from '../predicates/verify-params';

export const ZKP_STATEMENT_PURPOSE = 'credgate-zkp-certificate/v2';

/**
 * One proven predicate. Every field is always present (null when it does not apply) so REST and
 * GraphQL show, and the issuer signs, one shape:
 * - `range`: minimum <= attribute <= maximum (integers as digit strings; one bound may be null);
 * - `periodBefore`: the attribute's date lies at least `value` `unit` before `evaluatedAt`
 *   (e.g. born at least 18 years ago);
 * - `equals`: the attribute equals `equals` (a verifyParams entry).
 */
export interface ProvenPredicate {
  readonly key: string;
  readonly attribute: string;
  readonly operator: 'range' | 'periodBefore' | 'equals';
  readonly minimum: string | null;
  readonly maximum: string | null;
  readonly value: number | null;
  readonly unit: string | null;
  readonly equals: string | null;
  readonly met: boolean;
}

/** What a ZKP certificate states, signed whole by the credential's issuer key. */
export interface ZkpStatement {
  readonly credentialId: string;
  /** The credential's issuer DID, as the credential names it. */
  readonly issuer: string;
  /** ISO 8601 UTC instant the predicates were evaluated at. */
  readonly evaluatedAt: string;
  readonly predicates: readonly ProvenPredicate[];
}

const NONE = { minimum: null, maximum: null, value: null, unit: null, equals: null } as const;

export function conditionPredicate(attribute: string, condition: Condition, met: boolean): ProvenPredicate {
  if (condition.type === 'number') {
    const bound = (n: number | undefined) => (n === undefined ? null : String(n));
    return { key: attribute, attribute, operator: 'range', ...NONE, minimum: bound(condition.minimum), maximum: bound(condition.maximum), met };
  }
  return { key: attribute, attribute, operator: 'periodBefore', ...NONE, value: condition.value, unit: condition.unit, met };
}

export function equalsPredicate(param: VerifyParam, met: boolean): ProvenPredicate {
  return { key: `${param.attribute}=${param.value}`, attribute: param.attribute, operator: 'equals', ...NONE, equals: param.value, met };
}

/** The reference's `certificate`: predicate key -> met. */
export function certificateOf(statement: ZkpStatement): Certificate {
  return Object.fromEntries(statement.predicates.map((p) => [p.key, p.met]));
}

/**
 * What the issuer signs: the UTF-8 bytes of the RFC 8785 JSON of `{ purpose, credentialId, issuer,
 * evaluatedAt, predicates }`. The predicate (attribute, operator, bounds or period or value), the
 * evaluation time and the credential are all covered, so "age >= 0" cannot be read as any other
 * predicate, nor moved to another credential or time.
 */
export function zkpStatementBytes(statement: ZkpStatement): Uint8Array {
  const { credentialId, issuer, evaluatedAt, predicates } = statement;
  return canonicalBytes({ purpose: ZKP_STATEMENT_PURPOSE, credentialId, issuer, evaluatedAt, predicates: predicates.map((p) => ({ ...p })) });
}

/** The statement as a plain JSON object (as stored, and as `parseZkpStatement` reads it back). */
export function statementJson(statement: ZkpStatement): Record<string, unknown> {
  const { credentialId, issuer, evaluatedAt, predicates } = statement;
  return { credentialId, issuer, evaluatedAt, predicates: predicates.map((p) => ({ ...p })) };
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const PREDICATE_KEYS = ['attribute', 'equals', 'key', 'maximum', 'met', 'minimum', 'operator', 'unit', 'value'];
const OPERATORS = ['range', 'periodBefore', 'equals'];
export const MAX_PREDICATES = 256;

const stringOrNull = (v: unknown): v is string | null => v === null || (typeof v === 'string' && v.length <= 4096);

function parsePredicate(v: unknown): ProvenPredicate | undefined {
  if (!isObject(v)) return undefined;
  // GraphQL clients may drop nulls; a missing field reads as null.
  const o = Object.fromEntries(PREDICATE_KEYS.map((k) => [k, v[k] === undefined ? null : v[k]]));
  if (Object.keys(v).some((k) => !PREDICATE_KEYS.includes(k))) return undefined;
  const { key, attribute, operator, minimum, maximum, value, unit, equals, met } = o;
  if (typeof key !== 'string' || typeof attribute !== 'string' || typeof operator !== 'string' || !OPERATORS.includes(operator)) return undefined;
  if (typeof met !== 'boolean' || !stringOrNull(minimum) || !stringOrNull(maximum) || !stringOrNull(unit) || !stringOrNull(equals)) return undefined;
  if (value !== null && (typeof value !== 'number' || !Number.isSafeInteger(value))) return undefined;
  return { key, attribute, operator: operator as ProvenPredicate['operator'], minimum, maximum, value: value as number | null, unit, equals, met };
}

/** The `statement` a verifier sends back, or a reason it is malformed. */
export function parseZkpStatement(v: unknown): ZkpStatement | string {
  if (!isObject(v)) return 'statement must be the statement object createZkp returned';
  const { credentialId, issuer, evaluatedAt, predicates } = v;
  if (Object.keys(v).some((k) => !['credentialId', 'issuer', 'evaluatedAt', 'predicates'].includes(k))) return 'statement has unknown members';
  if (typeof credentialId !== 'string' || typeof issuer !== 'string' || typeof evaluatedAt !== 'string' || Number.isNaN(Date.parse(evaluatedAt))) {
    return 'statement needs credentialId, issuer and an ISO 8601 evaluatedAt';
  }
  if (!Array.isArray(predicates) || predicates.length === 0 || predicates.length > MAX_PREDICATES) return `statement.predicates must hold 1 to ${MAX_PREDICATES} predicates`;
  const parsed = predicates.map(parsePredicate);
  if (parsed.some((p) => p === undefined)) return 'statement has a malformed predicate';
  return { credentialId, issuer, evaluatedAt, predicates: parsed as ProvenPredicate[] };
}
