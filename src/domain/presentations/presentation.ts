import { AppError, type FieldIssue } from '../../errors';
import { canonicalBytes } from '../canonical';
import { CREDENTIALS_V1_URL } from '../contexts';
import { bytesToHex, hexToBytes } from '../encoding/hex';
import { parseSecp256k1PrivateKey, parseSecp256k1PublicKey, secp256k1SignMessage, secp256k1VerifyMessage } from '../keys/secp256k1';
import { isRfc3339DateTime } from '../templates/date-values';

/*
 * Holder proof of a verifiable presentation (spec §2.11): `EcdsaSecp256k1Signature2019` in name,
 * computed over RFC 8785 canonical JSON (not the suite's original JSON-LD/URDNA2015
 * canonicalisation, which would need a document loader and would not cover unknown members).
 *
 * Signing input = canonical JSON of the whole presentation without `proof`, with `proof` replaced
 * by the proof options (everything in the proof except `signatureValue`). So the holder signs
 * `holder`, `verifiableCredential` (with their shown attributes and disclosures),
 * `presentationAttributes`, `issuanceDate`, every other member, and the proof's `type`, `created`,
 * `verificationMethod`, `proofPurpose`, `challenge` and `domain`. `signatureValue` is the hex of
 * the 64-byte compact secp256k1 ECDSA signature over SHA-256 of those bytes (RFC 6979, low-S).
 */

export const PRESENTATION_PROOF_TYPE = 'EcdsaSecp256k1Signature2019';
const PROOF_OPTION_FIELDS = ['created', 'verificationMethod', 'proofPurpose', 'challenge', 'domain'] as const;
const PROOF_FIELDS = new Set<string>(['type', 'signatureValue', ...PROOF_OPTION_FIELDS]);
const MAX_OPTION_LENGTH = 2_048;

export interface PresentationProofOptions {
  /** RFC 3339 date-time. */
  created: string;
  /** The holder DID, or a key of it (`<holder>#<fragment>`). */
  verificationMethod: string;
  /** Typically `authentication`; optional because spec §2.11 does not show it. */
  proofPurpose?: string;
  /** Verifier nonce; binds the presentation to one request. */
  challenge?: string;
  /** Verifier identity; binds the presentation to one audience. */
  domain?: string;
}

export interface PresentationProof extends PresentationProofOptions {
  type: typeof PRESENTATION_PROOF_TYPE;
  signatureValue: string;
}

export type SignedPresentation<T extends Record<string, unknown>> = Omit<T, 'proof'> & { proof: PresentationProof };

/** What the verifier requires; an absent member is not checked. */
export interface PresentationExpectations {
  challenge?: string;
  domain?: string;
  /** Expected `holder` of the presentation (e.g. the `holderDID` of POST /verify-vp). */
  holder?: string;
}

export interface PresentationVerification {
  valid: boolean;
  reason?: string;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isText(v: unknown): v is string {
  return typeof v === 'string' && v.length > 0 && v.length <= MAX_OPTION_LENGTH;
}

function presentationIssues(vp: unknown, options: Record<string, unknown>): FieldIssue[] {
  const issues: FieldIssue[] = [];
  if (!isRecord(vp)) return [{ field: 'presentation', message: 'presentation must be an object' }];
  if (!Array.isArray(vp.type) || !vp.type.includes('VerifiablePresentation')) {
    issues.push({ field: 'type', message: 'type must be an array containing VerifiablePresentation' });
  }
  if (!isText(vp.holder)) issues.push({ field: 'holder', message: 'holder must be a DID string' });
  if (typeof options.created !== 'string' || !isRfc3339DateTime(options.created)) {
    issues.push({ field: 'proof.created', message: 'created must be an RFC 3339 date-time' });
  }
  const vm = options.verificationMethod;
  if (!isText(vm)) {
    issues.push({ field: 'proof.verificationMethod', message: 'verificationMethod must be a non-empty string' });
  } else if (isText(vp.holder) && vm !== vp.holder && !vm.startsWith(`${vp.holder}#`)) {
    issues.push({ field: 'proof.verificationMethod', message: 'verificationMethod must be the holder DID or one of its keys' });
  }
  for (const field of ['proofPurpose', 'challenge', 'domain'] as const) {
    if (options[field] !== undefined && !isText(options[field])) {
      issues.push({ field: `proof.${field}`, message: `${field} must be a non-empty string when present` });
    }
  }
  return issues;
}

/** The proof without `signatureValue`, members in a fixed set, absent options left out. */
function proofOptionsObject(options: PresentationProofOptions): Record<string, unknown> {
  const out: Record<string, unknown> = { type: PRESENTATION_PROOF_TYPE };
  for (const field of PROOF_OPTION_FIELDS) {
    if (options[field] !== undefined) out[field] = options[field];
  }
  return out;
}

/**
 * The bytes the holder signs (see the module comment). Any `proof` already on `vp` is ignored.
 *
 * @throws AppError INVALID_INPUT when the presentation has no `VerifiablePresentation` type or
 *   holder, `created` is not RFC 3339, `verificationMethod` is not the holder (or `holder#...`),
 *   or a member cannot be canonicalised.
 */
export function buildPresentationSigningInput(vp: Record<string, unknown>, options: PresentationProofOptions): Uint8Array {
  const opts = options as unknown as Record<string, unknown>;
  const issues = presentationIssues(vp, isRecord(opts) ? opts : {});
  if (issues.length > 0) throw new AppError('INVALID_INPUT', 'invalid presentation', issues);
  const { proof: _ignored, ...unsigned } = vp;
  return canonicalBytes({ ...unsigned, proof: proofOptionsObject(options) });
}

/**
 * Signs a presentation as its holder, returning a copy with `proof` set.
 *
 * @throws AppError INVALID_INPUT (see {@link buildPresentationSigningInput}), INVALID_PRIVATE_KEY.
 */
export function signPresentation<T extends Record<string, unknown>>(
  vp: T,
  holderPrivateKeyHex: string,
  options: PresentationProofOptions,
): SignedPresentation<T> {
  const sk = parseSecp256k1PrivateKey(holderPrivateKeyHex, 'privateKey');
  const input = buildPresentationSigningInput(vp, options);
  const signatureValue = bytesToHex(secp256k1SignMessage(input, sk));
  const { proof: _old, ...rest } = vp;
  const proof = { ...proofOptionsObject(options), signatureValue } as unknown as PresentationProof;
  return { ...rest, proof } as unknown as SignedPresentation<T>;
}

/**
 * Verifies the holder proof of a presentation with the holder's secp256k1 public key, and the
 * verifier's expectations: a presentation made for challenge A (or domain A) is invalid when B is
 * expected. When the verifier expects no challenge, a signed one is allowed (it is still covered).
 *
 * The caller must separately establish that `holderPublicKeyHex` belongs to the holder DID (DID
 * resolution) and verify each credential (issuer signature, disclosures: checkDisclosedCredential).
 *
 * @returns `{ valid: false, reason }` for any mismatch or malformed presentation; never throws for those.
 * @throws AppError INVALID_PUBLIC_KEY for a malformed public key.
 */
export function verifyPresentationSignature(
  vp: unknown,
  holderPublicKeyHex: string,
  expected: PresentationExpectations = {},
): PresentationVerification {
  const publicKey = parseSecp256k1PublicKey(holderPublicKeyHex, 'holderPublicKey');
  if (!isRecord(vp)) return { valid: false, reason: 'presentation must be an object' };
  const proof = vp.proof;
  if (!isRecord(proof)) return { valid: false, reason: 'presentation has no proof' };
  if (proof.type !== PRESENTATION_PROOF_TYPE) return { valid: false, reason: `proof type must be ${PRESENTATION_PROOF_TYPE}` };
  const unknown = Object.keys(proof).find((k) => !PROOF_FIELDS.has(k));
  if (unknown !== undefined) return { valid: false, reason: 'proof has an unsupported member' };
  if (typeof proof.signatureValue !== 'string' || !/^[0-9a-fA-F]{128}$/.test(proof.signatureValue)) {
    return { valid: false, reason: 'signatureValue must be 128 hex digits' };
  }
  if (expected.holder !== undefined && vp.holder !== expected.holder) {
    return { valid: false, reason: 'presentation holder is not the expected holder' };
  }
  if (expected.challenge !== undefined && proof.challenge !== expected.challenge) {
    return { valid: false, reason: 'challenge does not match' };
  }
  if (expected.domain !== undefined && proof.domain !== expected.domain) {
    return { valid: false, reason: 'domain does not match' };
  }
  let input: Uint8Array;
  try {
    input = buildPresentationSigningInput(vp, proof as unknown as PresentationProofOptions);
  } catch (e) {
    const detail = e instanceof AppError && e.details?.[0] ? `: ${e.details[0].message}` : '';
    return { valid: false, reason: `presentation is malformed${detail}` };
  }
  if (!secp256k1VerifyMessage(hexToBytes(proof.signatureValue), input, publicKey)) {
    return { valid: false, reason: 'signature does not verify with the holder public key' };
  }
  return { valid: true };
}

/** The exact `@context` of a presentation (context pinning: no other or extra context). */
export const PRESENTATION_CONTEXT: readonly string[] = [CREDENTIALS_V1_URL];
/** Members of a presentation (2.11); anything else is refused rather than carried along signed but unread. */
const PRESENTATION_MEMBERS = ['@context', 'type', 'verifiableCredential', 'holder', 'presentationAttributes', 'issuanceDate', 'proof'];
/** The only purpose a holder's presentation proof may state. */
export const PRESENTATION_PROOF_PURPOSE = 'authentication';
/** Tolerated clock difference for presentation dates slightly in the verifier's future. */
export const PRESENTATION_CLOCK_SKEW_MS = 5 * 60 * 1000;

/**
 * Structural and time checks of a presentation at `now`, before any signature work: exactly the
 * members of 2.11, the pinned `@context`, `type` exactly `["VerifiablePresentation"]`,
 * `proofPurpose` exactly `authentication`, and `issuanceDate` and `proof.created` well-formed
 * RFC 3339 instants not in the future. Returns the first problem, or null.
 */
export function presentationShapeProblem(vp: Record<string, unknown>, now: Date): string | null {
  const extra = Object.keys(vp).find((k) => !PRESENTATION_MEMBERS.includes(k));
  if (extra !== undefined) return `presentation member "${extra.slice(0, 64)}" is not supported`;
  const missing = PRESENTATION_MEMBERS.find((k) => !Object.hasOwn(vp, k));
  if (missing !== undefined) return `presentation member "${missing}" is missing`;
  const ctx = vp['@context'];
  if (!Array.isArray(ctx) || ctx.length !== PRESENTATION_CONTEXT.length || !ctx.every((c, i) => c === PRESENTATION_CONTEXT[i])) {
    return `presentation @context must be exactly ${JSON.stringify(PRESENTATION_CONTEXT)}`;
  }
  const type = vp['type'];
  if (!Array.isArray(type) || type.length !== 1 || type[0] !== 'VerifiablePresentation') return 'presentation type must be ["VerifiablePresentation"]';
  const proof = vp['proof'];
  if (!isRecord(proof)) return 'presentation has no proof';
  if (proof['proofPurpose'] !== PRESENTATION_PROOF_PURPOSE) return `proofPurpose must be ${PRESENTATION_PROOF_PURPOSE}`;
  const latest = now.getTime() + PRESENTATION_CLOCK_SKEW_MS;
  for (const [name, v] of [['issuanceDate', vp['issuanceDate']], ['proof.created', proof['created']]] as const) {
    if (typeof v !== 'string' || v.length > 64 || !isRfc3339DateTime(v) || !Number.isFinite(Date.parse(v))) return `${name} must be an RFC 3339 date-time`;
    if (Date.parse(v) > latest) return `${name} is in the future`;
  }
  return null;
}
