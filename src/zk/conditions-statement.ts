import { AppError } from '../errors';
import { canonicalBytes, canonicalize } from '../domain/canonical';
import { base64ToBytes, bytesToBase64, bytesToHex, hexToBytes } from '../domain/encoding';
import { type Condition, type Conditions, type DateConditionUnit, DATE_CONDITION_UNITS, MAX_DATE_CONDITION_VALUE, isAtLeastPeriodBefore } from '../domain/predicates';
import { FIXED_MESSAGES, MAX_ZK_ATTRIBUTES, MAX_ZK_TOKEN_HEX_LENGTH } from './age-token';
import type { ZkRange } from './core-source';
import { OFFSET, TOP, encodeInteger, inProvableRange, validityRange } from './encoding';

/*
 * The zero-knowledge form of a Family A ZKP certificate (POST /issuer/createZkp with proofSystem
 * bbs-bulletproofs): the reference's conditions (`number` minimum/maximum, `date` value/unit) as
 * Bulletproofs++ ranges over the issuer's BBS-signed attributes. Same message layout as the Family
 * B token (age-token.ts). The statement names the issuer, the attribute names, the conditions, the
 * evaluation time and the verifier's challenge; the credential, its holder and its values are not in it.
 */
export interface ZkConditionsStatement {
  v: 1;
  proofSystem: 'bbs-bulletproofs';
  issuer: string;
  attributes: string[];
  conditions: Conditions;
  evaluatedAt: string;
  verifier: { id: string; nonce: string };
}

const DAY_MS = 86_400_000;
/** At most this many conditions in one proof (each is a range proof of about a second). */
export const MAX_ZK_CONDITIONS = 8;

/**
 * The latest UTC day D whose midnight lies at least `value` `unit` before `at` (the attestation's
 * rule, isAtLeastPeriodBefore, at day granularity: exact for YYYY-MM-DD values).
 */
export function latestDayForPeriod(value: number, unit: DateConditionUnit, at: Date): number {
  // A first guess at or before the answer (a year is at most 366 days, a month 31), then step forward.
  const span = unit === 'years' ? 366 * value : unit === 'months' ? 31 * value : value;
  let day = Math.floor(at.getTime() / DAY_MS) - span - 1;
  const ok = (d: number): boolean => isAtLeastPeriodBefore(new Date(d * DAY_MS), value, unit, at);
  if (!ok(day)) throw new AppError('INVALID_INPUT', 'the date condition cannot be expressed as a range');
  while (ok(day + 1)) day++;
  return day;
}

/** The range of one condition over message `index`, at evaluation time `at`. */
export function conditionRange(index: number, c: Condition, at: Date): ZkRange {
  if (c.type === 'number') {
    return { index, min: c.minimum === undefined ? 1 : encodeInteger(c.minimum), max: c.maximum === undefined ? TOP : encodeInteger(c.maximum) + 1 };
  }
  return { index, min: 1, max: encodeInteger(latestDayForPeriod(c.value, c.unit, at)) + 1 };
}

/** Every condition's range, in attribute-name order, then the signature's validity. */
export function conditionRanges(s: ZkConditionsStatement): ZkRange[] {
  const at = new Date(s.evaluatedAt);
  const names = Object.keys(s.conditions).sort();
  return [...names.map((n) => conditionRange(FIXED_MESSAGES + s.attributes.indexOf(n), s.conditions[n]!, at)), validityRange(1, at)];
}

/** Refuses conditions a range proof cannot carry: too many, or bounds beyond the provable range (400). */
export function assertProvable(conditions: Conditions): void {
  const names = Object.keys(conditions);
  if (names.length === 0) throw new AppError('INVALID_INPUT', 'a zero-knowledge proof needs at least one condition');
  if (names.length > MAX_ZK_CONDITIONS) throw new AppError('INVALID_INPUT', `a zero-knowledge proof carries at most ${MAX_ZK_CONDITIONS} conditions`);
  for (const [name, c] of Object.entries(conditions)) {
    if (c.type === 'number' && [c.minimum, c.maximum].some((b) => b !== undefined && !inProvableRange(b))) {
      throw new AppError('INVALID_INPUT', `${name}: bounds of a zero-knowledge range must lie within ±${OFFSET - 1}`, [{ field: name, message: 'bound out of the provable range' }]);
    }
  }
}

export function encodeConditionsToken(statement: ZkConditionsStatement, proof: Uint8Array): string {
  return bytesToHex(canonicalBytes({ statement, proof: bytesToBase64(proof) }));
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const exactKeys = (v: Record<string, unknown>, keys: readonly string[]): boolean => Object.keys(v).length === keys.length && keys.every((k) => Object.hasOwn(v, k));
const shortString = (v: unknown, max = 512): v is string => typeof v === 'string' && v.length > 0 && v.length <= max;
const bound = (v: unknown): boolean => v === undefined || (typeof v === 'number' && inProvableRange(v));

function isCondition(c: unknown): c is Condition {
  if (!isRecord(c)) return false;
  if (c['type'] === 'number') {
    const keys = Object.keys(c).filter((k) => k !== 'type');
    return keys.every((k) => k === 'minimum' || k === 'maximum') && keys.length > 0 && bound(c['minimum']) && bound(c['maximum']);
  }
  return (
    c['type'] === 'date' && exactKeys(c, ['type', 'value', 'unit']) && Number.isSafeInteger(c['value']) && (c['value'] as number) >= 0 &&
    (c['value'] as number) <= MAX_DATE_CONDITION_VALUE && (DATE_CONDITION_UNITS as readonly unknown[]).includes(c['unit'])
  );
}

function isStatement(v: unknown): v is ZkConditionsStatement {
  if (!isRecord(v) || !exactKeys(v, ['v', 'proofSystem', 'issuer', 'attributes', 'conditions', 'evaluatedAt', 'verifier'])) return false;
  if (v['v'] !== 1 || v['proofSystem'] !== 'bbs-bulletproofs' || !shortString(v['issuer'])) return false;
  const attrs = v['attributes'];
  if (!Array.isArray(attrs) || attrs.length === 0 || attrs.length > MAX_ZK_ATTRIBUTES || !attrs.every((a) => shortString(a, 128)) || new Set(attrs).size !== attrs.length) return false;
  const conds = v['conditions'];
  if (!isRecord(conds) || Object.keys(conds).length === 0 || Object.keys(conds).length > MAX_ZK_CONDITIONS) return false;
  if (!Object.entries(conds).every(([k, c]) => attrs.includes(k) && isCondition(c))) return false;
  const at = v['evaluatedAt'];
  const w = v['verifier'];
  return typeof at === 'string' && Number.isFinite(Date.parse(at)) && new Date(Date.parse(at)).toISOString() === at && isRecord(w) && exactKeys(w, ['id', 'nonce']) && shortString(w['id']) && shortString(w['nonce'], 256);
}

const malformed = (): AppError => new AppError('INVALID_INPUT', 'zkpCertificate.zkpSignature is not a zero-knowledge proof of this service', [{ field: 'zkpCertificate.zkpSignature', message: 'malformed' }]);

/** Decodes the proof envelope createZkp returned as `userSignature` (sent back as `zkpSignature`). */
export function decodeConditionsToken(raw: unknown): { statement: ZkConditionsStatement; proof: Uint8Array } {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > MAX_ZK_TOKEN_HEX_LENGTH || raw.length % 2 !== 0 || !/^[0-9a-f]+$/.test(raw)) throw malformed();
  let text: string;
  let envelope: unknown;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(hexToBytes(raw, 'zkpSignature'));
    envelope = JSON.parse(text);
  } catch {
    throw malformed();
  }
  if (!isRecord(envelope) || !exactKeys(envelope, ['statement', 'proof']) || canonicalize(envelope) !== text) throw malformed();
  if (!isStatement(envelope['statement']) || typeof envelope['proof'] !== 'string') throw malformed();
  try {
    const proof = base64ToBytes(envelope['proof'], 'proof');
    if (proof.length === 0) throw malformed();
    return { statement: envelope['statement'], proof };
  } catch {
    throw malformed();
  }
}
