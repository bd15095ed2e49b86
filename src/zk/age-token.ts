import { AppError } from '../errors';
import { canonicalBytes, canonicalize } from '../domain/canonical';
import { base64ToBytes, bytesToBase64, bytesToHex, hexToBytes } from '../domain/encoding';
import type { VerifierChallenge } from './challenge';
import type { ZkRange } from './core-source';
import { ageRange, validityRange } from './encoding';

/*
 * The zero-knowledge form of a Family B ZKP token (POST /createZkpToken with proofSystem
 * bbs-bulletproofs). The token carries a public statement and a composite proof; the statement
 * names the issuer, the attribute layout, the condition, the verifier challenge and the evaluation
 * time, and nothing about the credential: no id, no holder, no value, no computed age.
 *
 * Signed message layout (the issuer's BBS signature):
 *   0            the credential id (hidden; ties the proof to one credential without naming it)
 *   1            the signature's valid-until UTC day (hidden; proven >= the day of evaluation)
 *   2 + i        attributes[i] (hidden; dates as day numbers, integers as numbers, else bytes)
 */
export const ZK_STATEMENT_VERSION = 1;
/** A proof is accepted this long after its evaluation time (the verifier's request is live that long). */
export const ZK_PROOF_TTL_MS = 5 * 60 * 1000;
export const ZK_CLOCK_SKEW_MS = 60 * 1000;
/** Upper bound of a zero-knowledge zkpToken (hex digits); a real one is about 10 KB. */
export const MAX_ZK_TOKEN_HEX_LENGTH = 65_536;
/** Attributes a signature may cover (each one a message of the proof spec). */
export const MAX_ZK_ATTRIBUTES = 64;
export const FIXED_MESSAGES = 2;

export interface ZkAgeStatement {
  v: typeof ZK_STATEMENT_VERSION;
  proofSystem: 'bbs-bulletproofs';
  /** The issuer DID whose BBS key signed the attributes. */
  issuer: string;
  /** Names of the signed attributes, in message order (the template's, sorted). */
  attributes: string[];
  /** The date attribute the condition is about. */
  attribute: string;
  condition: { age: number };
  /** RFC 3339 instant the condition was evaluated at (Date#toISOString). */
  evaluatedAt: string;
  verifier: { id: string; nonce: string };
  /**
   * Optional per-verifier pseudonym (base64): derived from the hidden credential id under bases from
   * the verifier id, so the same credential shows this verifier the same value every time and other
   * verifiers unrelated ones. Proven, not just claimed.
   */
  pseudonym?: string;
}

/** The pseudonym scope of a verifier (domain-separated). */
export const pseudonymScope = (verifierId: string): Uint8Array => new TextEncoder().encode(`credgate/zk/pseudonym/v1\n${verifierId}`);

export interface ZkAgeToken {
  statement: ZkAgeStatement;
  proof: Uint8Array;
}

/** Ranges the proof shows: the birth day is early enough, and the signature is still valid. */
export function agePredicateRanges(s: ZkAgeStatement): ZkRange[] {
  const index = FIXED_MESSAGES + s.attributes.indexOf(s.attribute);
  const at = new Date(s.evaluatedAt);
  return [ageRange(index, s.condition.age, at), validityRange(1, at)];
}

export const statementContext = (s: ZkAgeStatement): Uint8Array => canonicalBytes(s);

export function encodeZkToken(t: ZkAgeToken): string {
  return bytesToHex(canonicalBytes({ statement: t.statement, proof: bytesToBase64(t.proof) }));
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const exactKeys = (v: Record<string, unknown>, keys: readonly string[]): boolean => Object.keys(v).length === keys.length && keys.every((k) => Object.hasOwn(v, k));
const isInstant = (v: unknown): v is string => typeof v === 'string' && Number.isFinite(Date.parse(v)) && new Date(Date.parse(v)).toISOString() === v;
const shortString = (v: unknown, max = 512): v is string => typeof v === 'string' && v.length > 0 && v.length <= max;

function isStatement(v: unknown): v is ZkAgeStatement {
  const keys = ['v', 'proofSystem', 'issuer', 'attributes', 'attribute', 'condition', 'evaluatedAt', 'verifier'];
  if (!isRecord(v) || !exactKeys(v, Object.hasOwn(v, 'pseudonym') ? [...keys, 'pseudonym'] : keys)) return false;
  if (Object.hasOwn(v, 'pseudonym') && (typeof v['pseudonym'] !== 'string' || !/^[A-Za-z0-9+/]{64}$/.test(v['pseudonym']))) return false;
  if (v['v'] !== ZK_STATEMENT_VERSION || v['proofSystem'] !== 'bbs-bulletproofs' || !shortString(v['issuer']) || !shortString(v['attribute'], 128)) return false;
  const attrs = v['attributes'];
  if (!Array.isArray(attrs) || attrs.length === 0 || attrs.length > MAX_ZK_ATTRIBUTES || !attrs.every((a) => shortString(a, 128))) return false;
  if (new Set(attrs).size !== attrs.length || !attrs.includes(v['attribute'])) return false;
  const c = v['condition'];
  if (!isRecord(c) || !exactKeys(c, ['age']) || !Number.isSafeInteger(c['age']) || (c['age'] as number) < 0 || (c['age'] as number) > 150) return false;
  const w = v['verifier'];
  return isInstant(v['evaluatedAt']) && isRecord(w) && exactKeys(w, ['id', 'nonce']) && shortString(w['id']) && shortString(w['nonce'], 256);
}

const malformed = (): AppError => new AppError('INVALID_INPUT', 'zkpToken is not a zero-knowledge token of this service', [{ field: 'zkpToken', message: 'malformed' }]);

/** Decodes a token; a malformed one is bad input (4xx), not a failed verification. */
export function decodeZkToken(raw: unknown): ZkAgeToken {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > MAX_ZK_TOKEN_HEX_LENGTH || raw.length % 2 !== 0) throw malformed();
  let envelope: unknown;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(hexToBytes(raw, 'zkpToken'));
    envelope = JSON.parse(text);
  } catch {
    throw malformed();
  }
  if (!isRecord(envelope) || !exactKeys(envelope, ['statement', 'proof']) || canonicalize(envelope) !== text) throw malformed();
  if (!isStatement(envelope['statement']) || typeof envelope['proof'] !== 'string') throw malformed();
  let proof: Uint8Array;
  try {
    proof = base64ToBytes(envelope['proof'], 'proof');
  } catch {
    throw malformed();
  }
  if (proof.length === 0) throw malformed();
  return { statement: envelope['statement'], proof };
}

/** The time and challenge checks of a decoded statement; the reason of the first failure, or null. */
export function statementProblem(s: Pick<ZkAgeStatement, 'verifier' | 'evaluatedAt'>, expected: VerifierChallenge, now: Date): string | null {
  if (s.verifier.id !== expected.verifierId) return 'the proof was made for another verifier';
  if (s.verifier.nonce !== expected.nonce) return 'the proof answers another nonce';
  const at = Date.parse(s.evaluatedAt);
  if (at > now.getTime() + ZK_CLOCK_SKEW_MS) return 'the proof is dated in the future';
  if (now.getTime() - at > ZK_PROOF_TTL_MS) return 'the proof is too old';
  return null;
}
