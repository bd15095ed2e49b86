import { AppError, type FieldIssue } from '../../errors';
import { canonicalBytes, canonicalize } from '../canonical';
import { bytesToHex, hexToBytes } from '../encoding/hex';
import {
  SECP256K1_SIGNATURE_LENGTH,
  parseSecp256k1PrivateKey,
  parseSecp256k1PublicKey,
  secp256k1PublicKeyFromPrivate,
  secp256k1SignMessage,
  secp256k1VerifyMessage,
} from '../keys/secp256k1';
import { calculateAge } from './age';

/*
 * What this is, honestly: a *signed predicate attestation*. The issuer, which holds the credential,
 * evaluates "age >= N" over the birth date and signs only the outcome (plus which credential and
 * attribute it was about). The verifier learns the outcome and the computed age, not the birth
 * date. It is NOT a zero-knowledge proof in the cryptographic sense: the verifier trusts the
 * signer to have evaluated the predicate honestly, and nothing is proven about the credential
 * itself. The API names (zkpToken, zkpData) follow the service interface (spec §2.12, §4.2).
 */

/**
 * Version of the token format, signed inside the claims. Version 2 added `holder` and
 * `expiresAt`; version 1 tokens (no holder, no expiry) are no longer accepted.
 */
export const ZKP_TOKEN_VERSION = 2;
/** Lifetime of a token: the outcome is an evaluation at one instant, re-checked against revocation on each use. */
export const ZKP_TOKEN_TTL_MS = 60 * 60 * 1000;
/** Tolerated clock difference for an `issuedAt` slightly in the verifier's future. */
export const ZKP_TOKEN_CLOCK_SKEW_MS = 5 * 60 * 1000;
/** Upper bound of an accepted zkpToken (hex digits); real tokens are well under 2 KiB. */
export const MAX_ZKP_TOKEN_HEX_LENGTH = 16_384;
/** Largest accepted age threshold. */
export const MAX_AGE_CONDITION = 150;

/** The predicate: "the subject is at least `age` full years old". */
export interface AgeCondition {
  age: number;
}

/** Spec §2.12. `calculatedAge` is disclosed by the interface's design, so it is signed too. */
export interface ZkpData {
  condition: AgeCondition;
  conditionMet: boolean;
  calculatedAge: number;
}

/** Everything the signature covers. */
export interface ZkpClaims {
  v: typeof ZKP_TOKEN_VERSION;
  credentialId: string;
  issuer: string;
  /** The credential's holder DID (its subject id), null for a credential without one. */
  holder: string | null;
  attribute: string;
  zkpData: ZkpData;
  /** RFC 3339 UTC instant of evaluation (`Date#toISOString`). */
  issuedAt: string;
  /** RFC 3339 UTC instant after which the token is refused (`issuedAt` + {@link ZKP_TOKEN_TTL_MS}). */
  expiresAt: string;
}

export interface CreateZkpTokenInput {
  credentialId: string;
  issuer: string;
  /** The credential's holder DID; null when it has none. */
  holder: string | null;
  /** Name of the credential attribute holding the birth date. */
  attribute: string;
  condition: AgeCondition;
  birthDate: string;
  now: Date;
}

export interface ZkpTokenResult {
  /** Hex of the UTF-8 of the canonical JSON `{"claims":{...},"sig":"<128 hex>"}`. */
  zkpToken: string;
  zkpData: ZkpData;
  /** Compressed secp256k1 public key (hex) of the signer. */
  publicKey: string;
}

export interface ZkpTokenVerification {
  valid: boolean;
  reason?: string;
  /** The signed claims, present when valid. */
  claims?: ZkpClaims;
}

function invalid(issues: FieldIssue[]): AppError {
  return new AppError('INVALID_INPUT', 'invalid ZKP token request', issues);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function hasExactKeys(v: Record<string, unknown>, keys: readonly string[]): boolean {
  const own = Object.keys(v);
  return own.length === keys.length && keys.every((k) => Object.hasOwn(v, k));
}

function isAgeCondition(v: unknown): v is AgeCondition {
  return (
    isRecord(v) &&
    hasExactKeys(v, ['age']) &&
    Number.isSafeInteger(v.age) &&
    (v.age as number) >= 0 &&
    (v.age as number) <= MAX_AGE_CONDITION
  );
}

/** Structural check of signed claims, including that `conditionMet` agrees with the ages. */
function isZkpClaims(v: unknown): v is ZkpClaims {
  if (!isRecord(v) || !hasExactKeys(v, ['v', 'credentialId', 'issuer', 'holder', 'attribute', 'zkpData', 'issuedAt', 'expiresAt'])) return false;
  if (v.v !== ZKP_TOKEN_VERSION) return false;
  if (![v.credentialId, v.issuer, v.attribute, v.issuedAt, v.expiresAt].every((s) => typeof s === 'string' && s.length > 0)) return false;
  if (v.holder !== null && (typeof v.holder !== 'string' || v.holder.length === 0)) return false;
  if (!isInstant(v.issuedAt) || !isInstant(v.expiresAt)) return false;
  const d = v.zkpData;
  if (!isRecord(d) || !hasExactKeys(d, ['condition', 'conditionMet', 'calculatedAge'])) return false;
  if (!isAgeCondition(d.condition) || typeof d.conditionMet !== 'boolean' || !Number.isSafeInteger(d.calculatedAge)) return false;
  return d.conditionMet === (d.calculatedAge as number) >= d.condition.age;
}

/** Exactly the `Date#toISOString` spelling (one spelling per instant). */
function isInstant(v: unknown): v is string {
  if (typeof v !== 'string') return false;
  const t = Date.parse(v);
  return Number.isFinite(t) && new Date(t).toISOString() === v;
}

/**
 * The time checks of a verified token at `now`: not issued in the future (beyond
 * {@link ZKP_TOKEN_CLOCK_SKEW_MS}), a lifetime of at most {@link ZKP_TOKEN_TTL_MS}, not expired.
 * Returns the reason of the first failure, or null.
 */
export function zkpTokenTimeProblem(claims: ZkpClaims, now: Date): string | null {
  const issued = Date.parse(claims.issuedAt);
  const expires = Date.parse(claims.expiresAt);
  const t = now.getTime();
  if (issued > t + ZKP_TOKEN_CLOCK_SKEW_MS) return 'zkpToken is issued in the future';
  if (expires <= issued || expires - issued > ZKP_TOKEN_TTL_MS) return 'zkpToken lifetime is not supported';
  if (t >= expires) return 'zkpToken has expired';
  return null;
}

/** Evaluates the age condition over a birth date at `now`. */
export function evaluateAgeCondition(birthDate: string, condition: AgeCondition, now: Date): ZkpData {
  if (!isAgeCondition(condition)) {
    throw invalid([{ field: 'condition', message: `condition must be { age: integer 0-${MAX_AGE_CONDITION} }` }]);
  }
  const calculatedAge = calculateAge(birthDate, now);
  return { condition: { age: condition.age }, conditionMet: calculatedAge >= condition.age, calculatedAge };
}

/**
 * Evaluates the condition and issues a self-contained token: the verify endpoint (spec §4.2
 * POST /verifyZkpToken) receives only `{ zkpToken, zkpData, publicKey }`, so the token carries
 * the signed claims next to the signature.
 *
 * Signature: 64-byte compact secp256k1 ECDSA over SHA-256 of the RFC 8785 canonical JSON of the
 * claims (deterministic, low-S). The token is the hex of the UTF-8 of the canonical JSON
 * `{ claims, sig }`; the birth date appears nowhere in it.
 *
 * @throws AppError INVALID_INPUT (bad fields, future birth date), INVALID_PRIVATE_KEY.
 */
export function createZkpToken(input: CreateZkpTokenInput, signerPrivateKeyHex: string): ZkpTokenResult {
  const issues: FieldIssue[] = [];
  for (const field of ['credentialId', 'issuer', 'attribute'] as const) {
    const v: unknown = input[field];
    if (typeof v !== 'string' || v.length === 0) issues.push({ field, message: `${field} must be a non-empty string` });
  }
  const holder: unknown = input.holder;
  if (holder !== null && (typeof holder !== 'string' || holder.length === 0)) issues.push({ field: 'holder', message: 'holder must be a non-empty string or null' });
  if (issues.length > 0) throw invalid(issues);
  const sk = parseSecp256k1PrivateKey(signerPrivateKeyHex, 'privateKey');
  const zkpData = evaluateAgeCondition(input.birthDate, input.condition, input.now);
  const claims: ZkpClaims = {
    v: ZKP_TOKEN_VERSION,
    credentialId: input.credentialId,
    issuer: input.issuer,
    holder: input.holder,
    attribute: input.attribute,
    zkpData,
    issuedAt: input.now.toISOString(),
    expiresAt: new Date(input.now.getTime() + ZKP_TOKEN_TTL_MS).toISOString(),
  };
  const sig = bytesToHex(secp256k1SignMessage(canonicalBytes(claims), sk));
  return {
    zkpToken: bytesToHex(canonicalBytes({ claims, sig })),
    zkpData,
    publicKey: bytesToHex(secp256k1PublicKeyFromPrivate(sk)),
  };
}

const utf8Strict = new TextDecoder('utf-8', { fatal: true });

/** Decodes the token envelope; null for anything that is not exactly what {@link createZkpToken} emits. */
function openToken(zkpToken: unknown): { claims: unknown; sig: Uint8Array } | null {
  if (typeof zkpToken !== 'string' || zkpToken.length === 0 || zkpToken.length > MAX_ZKP_TOKEN_HEX_LENGTH) return null;
  try {
    const bytes = hexToBytes(zkpToken, 'zkpToken');
    const text = utf8Strict.decode(bytes);
    const envelope: unknown = JSON.parse(text);
    if (!isRecord(envelope) || !hasExactKeys(envelope, ['claims', 'sig'])) return null;
    // One spelling per token: re-encoded JSON (other key order, whitespace) is not accepted.
    if (canonicalize(envelope) !== text) return null;
    if (typeof envelope.sig !== 'string' || !/^[0-9a-f]{128}$/.test(envelope.sig)) return null;
    const sig = hexToBytes(envelope.sig, 'sig');
    return sig.length === SECP256K1_SIGNATURE_LENGTH ? { claims: envelope.claims, sig } : null;
  } catch {
    return null;
  }
}

function sameJson(a: unknown, b: unknown): boolean {
  try {
    return canonicalize(a) === canonicalize(b);
  } catch {
    return false;
  }
}

/**
 * Verifies a token against the `zkpData` and `publicKey` the caller presents: the token must be
 * well formed, its signature must verify under `publicKey`, and `zkpData` must equal (as JSON)
 * the signed `zkpData`. Any changed bit of the token or field of `zkpData` makes it invalid.
 *
 * Trust: this proves only that the holder of `publicKey` signed the claims. Because the key comes
 * with the request, the caller MUST also check that it is the key of the issuer of the credential
 * `claims.credentialId` names (not merely of the DID `claims.issuer` names: anyone can register a
 * DID), that the credential is still valid, and {@link zkpTokenTimeProblem}; otherwise anyone can
 * mint tokens with their own key.
 *
 * @returns `{ valid: false, reason }` for every token or data mismatch (never throws for those).
 * @throws AppError INVALID_PUBLIC_KEY when `publicKey` is not a hex secp256k1 point.
 */
export function verifyZkpToken(input: { zkpToken: unknown; zkpData: unknown; publicKey: string }): ZkpTokenVerification {
  const publicKey = parseSecp256k1PublicKey(input.publicKey, 'publicKey');
  const opened = openToken(input.zkpToken);
  if (!opened) return { valid: false, reason: 'zkpToken is malformed' };
  let signedBytes: Uint8Array;
  try {
    signedBytes = canonicalBytes(opened.claims);
  } catch {
    return { valid: false, reason: 'zkpToken is malformed' };
  }
  if (!secp256k1VerifyMessage(opened.sig, signedBytes, publicKey)) {
    return { valid: false, reason: 'zkpToken signature does not verify with this public key' };
  }
  if (!isZkpClaims(opened.claims)) return { valid: false, reason: 'zkpToken claims are not supported' };
  if (!sameJson(input.zkpData, opened.claims.zkpData)) {
    return { valid: false, reason: 'zkpData does not match the signed token' };
  }
  return { valid: true, claims: opened.claims };
}
