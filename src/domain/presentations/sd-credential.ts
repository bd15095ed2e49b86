import { sha256 } from '../hash/sha256';
import { AppError, type FieldIssue } from '../../errors';
import { canonicalBytes, canonicalize } from '../canonical';
import { base64UrlToBytes, bytesToBase64Url } from '../encoding/base64';
import { drawRandom, type RandomBytes } from '../keys/ed25519';
import { pooledRandomBytes } from '../random/pooled-random';

/*
 * Selective disclosure in the manner of SD-JWT (RFC 9901, formerly
 * draft-ietf-oauth-selective-disclosure-jwt), for object properties only:
 *
 * - Disclosure = base64url(UTF-8(JSON array [salt, name, value])), salt = base64url of 128 random bits;
 * - digest     = base64url(SHA-256(ASCII(disclosure))), hashing the disclosure *string* as sent,
 *   so a verifier never re-serialises JSON;
 * - the issuer signs the digests (see sdCommitment), never the values; a holder reveals an
 *   attribute by handing over its disclosure, and an attribute not shown stays a bare digest.
 *
 * The signed digest list is sorted and carries no attribute names (like SD-JWT's `_sd` array), so
 * the names of undisclosed attributes are hidden too; only their number is visible.
 */

/** Digest algorithm, committed to by name in the signed commitment. */
export const SD_ALG = 'sha-256';
/** Salt length: RFC 9901 §9.3 recommends 128 bits. */
export const SD_SALT_BYTES = 16;
/** Longest disclosure accepted for parsing (characters). */
export const MAX_DISCLOSURE_LENGTH = 65_536;
/** Most selectively disclosable attributes per credential. */
export const MAX_SD_ATTRIBUTES = 256;

/** Names SD-JWT reserves (`_sd`, `...`) and one that would corrupt a plain object (`__proto__`). */
const RESERVED_NAMES = new Set(['_sd', '...', '__proto__']);
const ascii = new TextEncoder();
const utf8Strict = new TextDecoder('utf-8', { fatal: true });

export interface SdCredentialPayload {
  /** attribute name -> digest of its disclosure; goes (as a list) into the signed credential. */
  digests: Record<string, string>;
  /** attribute name -> disclosure; handed to the holder only. */
  disclosures: Record<string, string>;
}

export interface ParsedDisclosure {
  salt: string;
  name: string;
  value: unknown;
}

export type DisclosureCheck = { ok: true; value: unknown } | { ok: false; reason: string };

function invalid(message: string, details?: FieldIssue[]): AppError {
  return new AppError('INVALID_INPUT', message, details);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function nameProblem(name: unknown): string | null {
  if (typeof name !== 'string' || name.length === 0) return 'attribute name must be a non-empty string';
  if (RESERVED_NAMES.has(name)) return `attribute name "${name}" is reserved`;
  return null;
}

/** base64url(SHA-256(ASCII(disclosure))), RFC 9901 §4.2.3. */
export function disclosureDigest(disclosure: string): string {
  return bytesToBase64Url(sha256(ascii.encode(disclosure)));
}

/**
 * Builds the disclosure of one attribute. The JSON is RFC 8785 canonical (any JSON is allowed by
 * SD-JWT; canonical output just makes issuance reproducible and rejects non-JSON values).
 */
export function createDisclosure(salt: string, name: string, value: unknown): string {
  const problem = nameProblem(name);
  if (problem) throw invalid(problem, [{ field: 'name', message: problem }]);
  if (typeof salt !== 'string' || salt.length === 0) throw invalid('salt must be a non-empty string');
  return bytesToBase64Url(canonicalBytes([salt, name, value]));
}

/**
 * Decodes a disclosure: strict unpadded base64url, strict UTF-8, a JSON array of exactly three
 * elements `[salt (non-empty string), name (non-empty, not reserved), value]`. Array-element
 * disclosures (two elements) are not supported.
 *
 * @throws AppError INVALID_INPUT naming the first problem.
 */
export function parseDisclosure(disclosure: string): ParsedDisclosure {
  if (typeof disclosure !== 'string' || disclosure.length === 0 || disclosure.length > MAX_DISCLOSURE_LENGTH) {
    throw invalid('disclosure must be a non-empty base64url string');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(utf8Strict.decode(base64UrlToBytes(disclosure, 'disclosure')));
  } catch {
    throw invalid('disclosure is not base64url-encoded UTF-8 JSON');
  }
  if (!Array.isArray(parsed) || parsed.length !== 3) {
    throw invalid('disclosure must be a JSON array [salt, name, value]');
  }
  const [salt, name, value] = parsed as [unknown, unknown, unknown];
  if (typeof salt !== 'string' || salt.length === 0) throw invalid('disclosure salt must be a non-empty string');
  const problem = nameProblem(name);
  if (problem) throw invalid(`disclosure ${problem}`);
  return { salt, name: name as string, value };
}

/**
 * Checks one disclosure against an expected attribute name and a signed digest. Never throws:
 * a malformed disclosure is `{ ok: false }`.
 */
export function verifyDisclosure(disclosure: string, expectedName: string, digest: string): DisclosureCheck {
  if (typeof disclosure !== 'string' || disclosureDigest(disclosure) !== digest) {
    return { ok: false, reason: 'disclosure does not match the digest' };
  }
  let parsed: ParsedDisclosure;
  try {
    parsed = parseDisclosure(disclosure);
  } catch (e) {
    return { ok: false, reason: e instanceof AppError ? e.message : 'disclosure is malformed' };
  }
  if (parsed.name !== expectedName) return { ok: false, reason: 'disclosure is for another attribute' };
  return { ok: true, value: parsed.value };
}

/**
 * Makes every member of `subject` selectively disclosable: one fresh 128-bit salt per attribute
 * (from `random`, default the platform CSPRNG), its disclosure and its digest. All members are
 * treated alike, `id` included; a holder DID that must always be visible belongs in the
 * commitment's `holder` instead.
 *
 * @throws AppError INVALID_INPUT for a non-object, empty or oversized subject, a reserved name
 *   (`_sd`, `...`, `__proto__`) or a value that is not JSON.
 */
export function createSdCredentialPayload(
  subject: Record<string, unknown>,
  random: RandomBytes = pooledRandomBytes,
): SdCredentialPayload {
  if (!isRecord(subject)) throw invalid('credentialSubject must be an object');
  const names = Object.keys(subject);
  if (names.length === 0 || names.length > MAX_SD_ATTRIBUTES) {
    throw invalid(`credentialSubject must have 1 to ${MAX_SD_ATTRIBUTES} attributes`);
  }
  const issues: FieldIssue[] = [];
  for (const name of names) {
    const problem = nameProblem(name);
    if (problem) issues.push({ field: `credentialSubject.${name.slice(0, 64)}`, message: problem });
  }
  if (issues.length > 0) throw invalid('credentialSubject has reserved attribute names', issues);
  const digests: Record<string, string> = {};
  const disclosures: Record<string, string> = {};
  for (const name of names) {
    const salt = bytesToBase64Url(drawRandom(random, SD_SALT_BYTES));
    const disclosure = createDisclosure(salt, name, subject[name]);
    disclosures[name] = disclosure;
    digests[name] = disclosureDigest(disclosure);
  }
  return { digests, disclosures };
}

function isDigest(v: unknown): v is string {
  if (typeof v !== 'string' || v.length !== 43) return false;
  try {
    return base64UrlToBytes(v).length === 32;
  } catch {
    return false;
  }
}

/**
 * The signed form of a credential's digests: the digest values, sorted (UTF-16 order), without
 * attribute names. Accepts the name -> digest record of {@link createSdCredentialPayload} or a list.
 *
 * @throws AppError INVALID_INPUT for an empty or oversized set, a value that is not a base64url
 *   SHA-256 digest, or a repeated digest.
 */
export function sdDigestList(digests: Readonly<Record<string, string>> | readonly string[]): string[] {
  const values: unknown[] = Array.isArray(digests) ? [...digests] : isRecord(digests) ? Object.values(digests) : [];
  if (values.length === 0 || values.length > MAX_SD_ATTRIBUTES) {
    throw invalid(`digests must hold 1 to ${MAX_SD_ATTRIBUTES} SHA-256 digests`);
  }
  if (!values.every(isDigest)) throw invalid('every digest must be a base64url SHA-256 digest (43 characters)');
  const sorted = (values as string[]).sort();
  if (sorted.some((d, i) => i > 0 && d === sorted[i - 1])) throw invalid('digests must not repeat');
  return sorted;
}

export interface SdCommitmentInput {
  credentialId: string;
  issuer: string;
  /** Holder DID the credential is bound to (the subject); null for a credential with no holder. */
  holder: string | null;
  issuanceDate: string;
  expirationDate?: string;
  type: readonly string[];
  digests: Readonly<Record<string, string>> | readonly string[];
  /**
   * Further members the issuer's signature must cover, shown in full wherever the credential is
   * (e.g. `credentialStatus`, `@context`, the proof options). JSON values only.
   */
  bound?: Readonly<Record<string, unknown>>;
}

/**
 * The bytes an issuer signs for a selectively disclosable credential: RFC 8785 canonical JSON of
 *
 * `{ v: 1, purpose: 'credgate-sd-credential', sdAlg: 'sha-256', credentialId, issuer, holder,
 *    issuanceDate, expirationDate?, type, digests: sdDigestList(digests) }`.
 *
 * `v`, `purpose` and `sdAlg` are constants that separate these bytes from any other signed JSON
 * (the same key must never be tricked into signing a commitment through another endpoint) and fix
 * the digest algorithm. The caller signs the bytes with the issuer key (secp256k1 or Ed25519) and
 * the verifier rebuilds them from the presented credential.
 *
 * @throws AppError INVALID_INPUT with one detail per bad field.
 */
export function sdCommitment(input: SdCommitmentInput): Uint8Array {
  const issues: FieldIssue[] = [];
  for (const field of ['credentialId', 'issuer', 'issuanceDate'] as const) {
    const v: unknown = input[field];
    if (typeof v !== 'string' || v.length === 0) issues.push({ field, message: `${field} must be a non-empty string` });
  }
  if (input.holder !== null && (typeof input.holder !== 'string' || input.holder.length === 0)) {
    issues.push({ field: 'holder', message: 'holder must be a non-empty string or null' });
  }
  const exp: unknown = input.expirationDate;
  if (exp !== undefined && (typeof exp !== 'string' || exp.length === 0)) {
    issues.push({ field: 'expirationDate', message: 'expirationDate must be a non-empty string when present' });
  }
  const type: unknown = input.type;
  if (!Array.isArray(type) || type.length === 0 || !type.every((t) => typeof t === 'string' && t.length > 0)) {
    issues.push({ field: 'type', message: 'type must be a non-empty array of strings' });
  }
  let digests: string[] = [];
  try {
    digests = sdDigestList(input.digests);
  } catch (e) {
    issues.push({ field: 'digests', message: e instanceof AppError ? e.message : 'digests are invalid' });
  }
  if (issues.length > 0) throw invalid('invalid selective-disclosure commitment', issues);
  return canonicalBytes({
    v: 1,
    purpose: 'credgate-sd-credential',
    sdAlg: SD_ALG,
    credentialId: input.credentialId,
    issuer: input.issuer,
    holder: input.holder,
    issuanceDate: input.issuanceDate,
    expirationDate: input.expirationDate,
    type: [...input.type],
    digests,
    ...(input.bound !== undefined ? { bound: input.bound } : {}),
  });
}

export interface DisclosedCredentialInput {
  /** The attribute values shown in the presented credentialSubject. */
  disclosed: Record<string, unknown>;
  /** The disclosures presented with the credential, one per shown attribute, any order. */
  disclosures: readonly string[];
  /** The digests the issuer signed (record or list; verify that signature separately). */
  digests: Readonly<Record<string, string>> | readonly string[];
  /** When given (e.g. from presentationAttributes), the shown names must be exactly these. */
  expectedAttributes?: readonly string[];
}

export type DisclosedCredentialCheck = { ok: true; values: Record<string, unknown> } | { ok: false; reason: string };

/**
 * Checks that what a presentation shows of a credential is backed by the issuer's digests:
 *
 * - every disclosure hashes to a distinct signed digest and names a distinct attribute;
 * - every shown attribute has a disclosure, and its shown value equals (as JSON) the disclosed one;
 * - every disclosure corresponds to a shown attribute (nothing is revealed beside the shown view);
 * - with `expectedAttributes`, the shown names are exactly that set.
 *
 * Signed digests without a disclosure are the undisclosed attributes; they reveal nothing. The
 * issuer's signature over {@link sdCommitment} is the caller's check. Never throws.
 */
export function checkDisclosedCredential(input: DisclosedCredentialInput): DisclosedCredentialCheck {
  let signed: Set<string>;
  try {
    signed = new Set(sdDigestList(input.digests));
  } catch {
    return { ok: false, reason: 'signed digests are malformed' };
  }
  if (!isRecord(input.disclosed)) return { ok: false, reason: 'disclosed attributes must be an object' };
  const shown = Object.keys(input.disclosed);
  if (input.expectedAttributes !== undefined) {
    const expected = new Set(input.expectedAttributes);
    if (expected.size !== input.expectedAttributes.length || expected.size !== shown.length || !shown.every((n) => expected.has(n))) {
      return { ok: false, reason: 'shown attributes differ from the requested attribute list' };
    }
  }
  if (!Array.isArray(input.disclosures) || input.disclosures.length > signed.size) {
    return { ok: false, reason: 'disclosures must be a list no longer than the signed digests' };
  }
  const used = new Set<string>();
  const revealed = new Map<string, unknown>();
  for (const [i, disclosure] of input.disclosures.entries()) {
    if (typeof disclosure !== 'string') return { ok: false, reason: `disclosure ${i} is not a string` };
    const digest = disclosureDigest(disclosure);
    if (!signed.has(digest)) return { ok: false, reason: `disclosure ${i} is not covered by the signed digests` };
    if (used.has(digest)) return { ok: false, reason: `disclosure ${i} is repeated` };
    used.add(digest);
    let parsed: ParsedDisclosure;
    try {
      parsed = parseDisclosure(disclosure);
    } catch {
      return { ok: false, reason: `disclosure ${i} is malformed` };
    }
    if (revealed.has(parsed.name)) return { ok: false, reason: `attribute "${parsed.name}" is disclosed twice` };
    revealed.set(parsed.name, parsed.value);
  }
  const values: Record<string, unknown> = {};
  for (const name of shown) {
    if (!revealed.has(name)) return { ok: false, reason: `attribute "${name.slice(0, 64)}" has no disclosure` };
    const value = revealed.get(name);
    let same = false;
    try {
      same = canonicalize(input.disclosed[name]) === canonicalize(value);
    } catch {
      same = false;
    }
    if (!same) return { ok: false, reason: `attribute "${name.slice(0, 64)}" differs from its disclosure` };
    values[name] = value;
  }
  for (const name of revealed.keys()) {
    if (!Object.hasOwn(input.disclosed, name)) {
      return { ok: false, reason: `attribute "${name.slice(0, 64)}" is disclosed but not shown` };
    }
  }
  return { ok: true, values };
}
