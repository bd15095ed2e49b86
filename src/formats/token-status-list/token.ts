import { AppError } from '../../errors';
import { decodeJws, signJws, verifyEs256 } from '../sd-jwt-vc/jose';
import type { IssuerTrust, JoseSigner } from '../sd-jwt-vc/types';
import { type BitsPerStatus, decodeLst, encodeLst, isBitsPerStatus } from './bits';

/** `typ` of a Status List Token in JWT form and the media type it is served with (§5.1, §8.1). */
export const STATUS_LIST_JWT_TYP = 'statuslist+jwt';
export const STATUS_LIST_JWT_MEDIA_TYPE = 'application/statuslist+jwt';

/** Status Type values (§7.1). */
export const TOKEN_STATUS = { VALID: 0, INVALID: 1, SUSPENDED: 2 } as const;

/** Clock skew tolerated on the token's iat and exp. */
const SKEW_SECONDS = 60;

export interface StatusListTokenInput {
  readonly signer: JoseSigner;
  /** The list's URL: the `uri` every referenced token carries. */
  readonly sub: string;
  readonly iss?: string;
  readonly bits: BitsPerStatus;
  readonly bytes: Uint8Array;
  /** Seconds since the epoch. */
  readonly iat: number;
  readonly exp?: number;
  /** Seconds a consumer may cache the token. */
  readonly ttl?: number;
}

/** Signs a Status List Token (JWT): typ statuslist+jwt, x5c or kid of the signer, sub, iat, exp, ttl, status_list {bits, lst}. */
export async function signStatusListToken(input: StatusListTokenInput): Promise<string> {
  const header = { typ: STATUS_LIST_JWT_TYP, ...(input.signer.x5c && input.signer.x5c.length > 0 ? { x5c: [...input.signer.x5c] } : input.signer.kid ? { kid: input.signer.kid } : {}) };
  const payload = {
    sub: input.sub,
    ...(input.iss ? { iss: input.iss } : {}),
    iat: input.iat,
    ...(input.exp !== undefined ? { exp: input.exp } : {}),
    ...(input.ttl !== undefined ? { ttl: input.ttl } : {}),
    status_list: { bits: input.bits, lst: encodeLst(input.bytes) },
  };
  return signJws(input.signer, header, payload);
}

export interface StatusListTokenContents {
  readonly bits: BitsPerStatus;
  readonly bytes: Uint8Array;
  readonly iat: number;
  readonly exp?: number;
  readonly ttl?: number;
}

export interface ReadStatusListTokenOptions {
  /** Who may sign the list: the same trust as for the credentials that point to it. */
  readonly trust: IssuerTrust;
  /** The `uri` of the reference; the token's `sub` must equal it (§8.3, step 3). */
  readonly uri: string;
  /** Seconds since the epoch. */
  readonly now: number;
  /** Largest byte array accepted after inflation. */
  readonly maxBytes: number;
}

const refused = (message: string) => new AppError('VERIFICATION_FAILED', `status list token refused: ${message}`);
const isTime = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * Validates a Status List Token as §8.3 asks (typ, signature by a trusted key, sub = the
 * reference's uri, iat, exp) and decodes its list.
 *
 * @throws AppError VERIFICATION_FAILED when it must not be used; INVALID_INPUT for a malformed list.
 */
export async function readStatusListToken(jwt: string, options: ReadStatusListTokenOptions): Promise<StatusListTokenContents> {
  const jws = decodeJws(jwt.trim());
  if (!jws) throw refused('not a compact JWS');
  const { header, payload } = jws;
  if (header['typ'] !== STATUS_LIST_JWT_TYP) throw refused(`typ must be ${STATUS_LIST_JWT_TYP}`);
  if (header['alg'] !== 'ES256') throw refused('alg must be ES256');
  const x5c = header['x5c'];
  const trusted = await options.trust({
    ...(Array.isArray(x5c) && x5c.every((c) => typeof c === 'string') ? { x5c: x5c as string[] } : {}),
    ...(typeof payload['iss'] === 'string' ? { iss: payload['iss'] } : {}),
    ...(typeof header['kid'] === 'string' ? { kid: header['kid'] } : {}),
  });
  if (!verifyEs256(trusted.publicJwk, jws.signingInput, jws.signature)) throw refused('the signature does not verify');
  if (payload['sub'] !== options.uri) throw refused('its sub is not the uri of the reference');
  const { iat, exp, ttl } = payload;
  if (!isTime(iat) || iat > options.now + SKEW_SECONDS) throw refused('iat is missing or in the future');
  if (exp !== undefined && (!isTime(exp) || options.now > exp + SKEW_SECONDS)) throw refused('it has expired');
  if (ttl !== undefined && (!isTime(ttl) || ttl <= 0)) throw refused('ttl must be a positive number');
  const list = payload['status_list'];
  if (typeof list !== 'object' || list === null) throw refused('status_list is missing');
  const { bits, lst } = list as Record<string, unknown>;
  if (!isBitsPerStatus(bits) || typeof lst !== 'string') throw refused('status_list needs bits (1, 2, 4 or 8) and lst');
  return { bits, bytes: decodeLst(lst, options.maxBytes), iat, ...(isTime(exp) ? { exp } : {}), ...(isTime(ttl) ? { ttl } : {}) };
}
