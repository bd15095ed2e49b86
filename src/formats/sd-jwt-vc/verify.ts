import { AppError, invalidInput } from '../../errors';
import { splitSdJwt } from './compact';
import { resolveDisclosures } from './disclosures';
import { SD_JWT_VC_TYP } from './issue';
import { decodeJws, p256PublicJwk, sha256B64url, verifyEs256 } from './jose';
import { SD_ALG } from './library';
import type { JsonWebKey, IssuerTrust, SdJwtProblem, StatusListReference } from './types';

/** Clock skew tolerated on iat, nbf and exp (issuers and wallets never share one clock exactly). */
export const SD_JWT_SKEW_SECONDS = 60;

export interface KeyBindingExpectation {
  /** The verifier's client_id (OID4VP) the KB-JWT must be addressed to. */
  readonly aud: string;
  readonly nonce: string;
  /** Seconds since the epoch. */
  readonly now: number;
  /** How old the KB-JWT's iat may be. */
  readonly maxAgeSeconds: number;
}

export interface VerifySdJwtVcOptions {
  readonly trust: IssuerTrust;
  /** When given, a key-binding JWT signed by `cnf.jwk` is required and checked against it. */
  readonly keyBinding?: KeyBindingExpectation;
  /**
   * Reads the status of a `status.status_list` reference (0 = VALID). When absent, status is
   * not checked; a credential that carries none is never refused for it.
   */
  readonly checkStatus?: (ref: StatusListReference) => Promise<number>;
  /** Seconds since the epoch. */
  readonly now: number;
}

export interface SdJwtVcVerification {
  readonly verified: boolean;
  /** The payload with every presented disclosure resolved (`_sd`, `_sd_alg` and digests removed). */
  readonly claims: Record<string, unknown>;
  /** Paths of the selectively disclosed claims that were presented. */
  readonly disclosed: readonly (readonly (string | number)[])[];
  readonly iss: string | undefined;
  readonly vct: string | undefined;
  readonly cnfJwk?: JsonWebKey;
  readonly trustedBy?: 'x5c' | 'did';
  readonly status?: StatusListReference;
  readonly problems: readonly SdJwtProblem[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isTime = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

function statusReference(claims: Record<string, unknown>): StatusListReference | null | undefined {
  const status = claims['status'];
  if (status === undefined) return undefined;
  const list = isObject(status) ? status['status_list'] : undefined;
  if (!isObject(list) || typeof list['uri'] !== 'string' || !Number.isSafeInteger(list['idx']) || (list['idx'] as number) < 0) return null;
  return { uri: list['uri'], idx: list['idx'] as number };
}

/**
 * Verifies an SD-JWT VC (and its key binding when asked). Never throws for a bad credential:
 * every failed check is a problem and `verified` is false (habit 2).
 *
 * @throws AppError INVALID_INPUT when `compact` is not an SD-JWT at all.
 */
export async function verifySdJwtVc(compact: string, options: VerifySdJwtVcOptions): Promise<SdJwtVcVerification> {
  const split = typeof compact === 'string' ? splitSdJwt(compact) : null;
  const jws = split ? decodeJws(split.jwt) : null;
  if (!split || !jws) throw invalidInput('not an SD-JWT (compact serialization expected)', [{ field: 'credential', message: 'not an SD-JWT' }]);
  const problems: SdJwtProblem[] = [];
  const { header, payload } = jws;

  if (header['typ'] !== SD_JWT_VC_TYP) problems.push({ code: 'wrong_typ', message: `typ must be ${SD_JWT_VC_TYP}` });
  if (header['alg'] !== 'ES256') problems.push({ code: 'unsupported_alg', message: 'alg must be ES256' });
  const x5c = header['x5c'];
  if (x5c !== undefined && (!Array.isArray(x5c) || !x5c.every((c) => typeof c === 'string'))) problems.push({ code: 'malformed', message: 'x5c must be an array of strings' });
  const iss = typeof payload['iss'] === 'string' ? payload['iss'] : undefined;
  const vct = typeof payload['vct'] === 'string' ? payload['vct'] : undefined;
  if (!iss) problems.push({ code: 'missing_claim', message: 'iss is missing' });
  if (!vct) problems.push({ code: 'missing_claim', message: 'vct is missing' });

  let trustedBy: 'x5c' | 'did' | undefined;
  try {
    const trusted = await options.trust({
      ...(Array.isArray(x5c) ? { x5c: x5c as string[] } : {}),
      ...(iss ? { iss } : {}),
      ...(typeof header['kid'] === 'string' ? { kid: header['kid'] } : {}),
    });
    trustedBy = trusted.trustedBy;
    if (!verifyEs256(trusted.publicJwk, jws.signingInput, jws.signature)) problems.push({ code: 'bad_signature', message: 'the issuer signature does not verify' });
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    problems.push({ code: 'untrusted_issuer', message: e.message });
  }

  const sdAlg = payload['_sd_alg'];
  if (sdAlg !== undefined && sdAlg !== SD_ALG) problems.push({ code: 'unsupported_sd_alg', message: `_sd_alg must be ${SD_ALG}` });
  const resolved = resolveDisclosures(payload, split.disclosures);
  problems.push(...resolved.problems);
  const claims = resolved.claims;

  const { now } = options;
  if (payload['exp'] !== undefined && (!isTime(payload['exp']) || now > payload['exp'] + SD_JWT_SKEW_SECONDS)) problems.push({ code: 'expired', message: 'the credential has expired' });
  if (payload['nbf'] !== undefined && (!isTime(payload['nbf']) || now < payload['nbf'] - SD_JWT_SKEW_SECONDS)) problems.push({ code: 'not_yet_valid', message: 'the credential is not valid yet' });
  if (payload['iat'] !== undefined && (!isTime(payload['iat']) || now < payload['iat'] - SD_JWT_SKEW_SECONDS)) problems.push({ code: 'issued_in_future', message: 'the credential is issued in the future' });

  const cnf = payload['cnf'];
  const cnfJwk = isObject(cnf) && cnf['jwk'] !== undefined ? p256PublicJwk(cnf['jwk']) : undefined;
  if (cnf !== undefined && !cnfJwk) problems.push({ code: 'malformed', message: 'cnf must hold a P-256 public jwk' });
  if (options.keyBinding) problems.push(...checkKeyBinding(split.kbJwt, split.presented, cnfJwk ?? undefined, options.keyBinding));

  const status = statusReference(payload);
  if (status === null) problems.push({ code: 'malformed', message: 'status.status_list must have a uri and a non-negative integer idx' });
  else if (status && options.checkStatus) {
    try {
      const value = await options.checkStatus(status);
      if (value !== 0) problems.push({ code: 'status_invalid', message: value === 1 ? 'the credential has been revoked' : `the credential's status is ${value}` });
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      problems.push({ code: 'status_unavailable', message: e.message });
    }
  }

  return {
    verified: problems.length === 0,
    claims,
    disclosed: resolved.disclosed,
    iss,
    vct,
    ...(cnfJwk ? { cnfJwk } : {}),
    ...(trustedBy ? { trustedBy } : {}),
    ...(status ? { status } : {}),
    problems,
  };
}

/** The KB-JWT (SD-JWT §4.3): typ kb+jwt, ES256 by cnf.jwk, aud, nonce, a fresh iat, sd_hash over what was presented. */
function checkKeyBinding(kbJwt: string | undefined, presented: string, cnfJwk: JsonWebKey | undefined, expected: KeyBindingExpectation): SdJwtProblem[] {
  if (!kbJwt) return [{ code: 'key_binding_missing', message: 'a key-binding JWT is required' }];
  if (!cnfJwk) return [{ code: 'key_binding_invalid', message: 'the credential is not bound to a holder key (no cnf.jwk)' }];
  const kb = decodeJws(kbJwt);
  if (!kb) return [{ code: 'key_binding_invalid', message: 'the key-binding JWT is malformed' }];
  const bad = (message: string): SdJwtProblem => ({ code: 'key_binding_invalid', message });
  const problems: SdJwtProblem[] = [];
  if (kb.header['typ'] !== 'kb+jwt') problems.push(bad('the key-binding JWT typ must be kb+jwt'));
  if (kb.header['alg'] !== 'ES256' || !verifyEs256(cnfJwk, kb.signingInput, kb.signature)) problems.push(bad('the key-binding JWT is not signed by the holder key'));
  if (kb.payload['aud'] !== expected.aud) problems.push(bad('the key-binding JWT is addressed to another audience'));
  if (kb.payload['nonce'] !== expected.nonce) problems.push(bad('the key-binding JWT nonce does not match'));
  const iat = kb.payload['iat'];
  if (!isTime(iat) || iat > expected.now + SD_JWT_SKEW_SECONDS || iat < expected.now - expected.maxAgeSeconds - SD_JWT_SKEW_SECONDS) problems.push(bad('the key-binding JWT is not fresh'));
  if (kb.payload['sd_hash'] !== sha256B64url(presented)) problems.push(bad('the key-binding JWT sd_hash does not match the presented SD-JWT'));
  return problems;
}
