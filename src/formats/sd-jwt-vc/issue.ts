import { invalidInput } from '../../errors';
import { decoyCount, sdJwtVcInstance } from './library';
import { p256PublicJwk } from './jose';
import type { JsonWebKey, JoseSigner, StatusListReference } from './types';

/** The media type and `typ` of SD-JWT VCs (SD-JWT VC draft §3.2.1; HAIP: dc+sd-jwt). */
export const SD_JWT_VC_TYP = 'dc+sd-jwt';

/**
 * Claims the issuer sets itself and that must never be selectively disclosed (SD-JWT VC §3.2.2):
 * a verifier needs them to decide anything at all. `iat` is set by us too, so it is refused in
 * the subject claims as well.
 */
export const RESERVED_CLAIMS: ReadonlySet<string> = new Set(['iss', 'vct', 'iat', 'nbf', 'exp', 'cnf', 'status', 'vct#integrity', '_sd', '_sd_alg', '...']);

export interface IssueSdJwtVcInput {
  readonly signer: JoseSigner;
  readonly iss: string;
  /** A resolvable URL of the type metadata (see vctUrl in the token status list service). */
  readonly vct: string;
  /** The subject's claims; nested objects and arrays allowed. */
  readonly claims: Readonly<Record<string, unknown>>;
  /**
   * Dot paths of claims to make selectively disclosable (`address.street` makes `street` of
   * `address` one). Default: every top-level claim. Paths into nested objects also disclose
   * their parents when those are listed too.
   */
  readonly disclosable?: readonly string[];
  /** The holder's public key (`cnf.jwk`): presentations must then carry a key-binding JWT. */
  readonly holderJwk?: JsonWebKey;
  readonly status?: StatusListReference;
  /** Seconds since the epoch. */
  readonly iat?: number;
  readonly nbf?: number;
  readonly exp?: number;
}

type Frame = { _sd?: string[]; _sd_decoy?: number; [k: string]: unknown };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Builds the library's disclosure frame from dot paths, with decoys at every level that discloses something. */
function frameOf(claims: Readonly<Record<string, unknown>>, paths: readonly string[]): Frame {
  const root: Frame = {};
  for (const path of paths) {
    const segments = path.split('.');
    if (segments.some((s) => s.length === 0)) throw invalidInput(`disclosable path "${path}" is malformed`, [{ field: 'disclosable', message: 'empty path segment' }]);
    let frame = root;
    let value: unknown = claims;
    segments.forEach((segment, i) => {
      const container = value;
      const present = Array.isArray(container) ? /^\d+$/.test(segment) && Number(segment) < container.length : isObject(container) && Object.hasOwn(container, segment);
      if (!present) throw invalidInput(`disclosable path "${path}" names no claim`, [{ field: 'disclosable', message: `no claim ${path}` }]);
      if (i === 0 && RESERVED_CLAIMS.has(segment)) throw invalidInput(`claim ${segment} cannot be selectively disclosable`, [{ field: 'disclosable', message: 'reserved claim' }]);
      if (segment === '_sd' || segment === '_sd_decoy' || segment === '...') throw invalidInput(`claim name ${segment} is reserved by SD-JWT`, [{ field: 'disclosable', message: 'reserved name' }]);
      value = Array.isArray(container) ? container[Number(segment)] : (container as Record<string, unknown>)[segment];
      if (i === segments.length - 1) {
        frame._sd = [...new Set([...(frame._sd ?? []), segment])];
        frame._sd_decoy ??= decoyCount();
      } else {
        frame = (frame[segment] as Frame | undefined) ?? (frame[segment] = {} as Frame) as Frame;
      }
    });
  }
  return root;
}

/**
 * Issues an SD-JWT VC (`typ: dc+sd-jwt`): `iss`, `vct`, `iat` (and `nbf`/`exp` when given),
 * `cnf.jwk` when a holder key is given and `status.status_list` when a status entry is; every
 * top-level subject claim selectively disclosable unless `disclosable` says otherwise; decoy
 * digests; `x5c` in the header when the signer has a chain, else its `kid`.
 *
 * @throws AppError INVALID_INPUT for reserved claim names, bad paths or a holder key that is not a P-256 public JWK.
 */
export async function issueSdJwtVc(input: IssueSdJwtVcInput): Promise<string> {
  for (const name of Object.keys(input.claims)) {
    if (RESERVED_CLAIMS.has(name)) throw invalidInput(`claim ${name} is set by the issuer, not by the subject claims`, [{ field: `claims.${name}`, message: 'reserved claim' }]);
  }
  const holder = input.holderJwk === undefined ? undefined : p256PublicJwk(input.holderJwk);
  if (input.holderJwk !== undefined && !holder) throw invalidInput('holderJwk must be an EC P-256 public JWK', [{ field: 'holderJwk', message: 'not a P-256 public key' }]);
  if (input.status && (!Number.isSafeInteger(input.status.idx) || input.status.idx < 0)) throw invalidInput('status.idx must be a non-negative integer', [{ field: 'status.idx', message: 'bad index' }]);
  const iat = input.iat ?? Math.floor(Date.now() / 1000);
  const payload = {
    ...structuredClone(input.claims),
    iss: input.iss,
    vct: input.vct,
    iat,
    ...(input.nbf !== undefined ? { nbf: input.nbf } : {}),
    ...(input.exp !== undefined ? { exp: input.exp } : {}),
    ...(holder ? { cnf: { jwk: holder } } : {}),
    ...(input.status ? { status: { status_list: { idx: input.status.idx, uri: input.status.uri } } } : {}),
  };
  const frame = frameOf(input.claims, input.disclosable ?? Object.keys(input.claims));
  const header = input.signer.x5c && input.signer.x5c.length > 0 ? { x5c: [...input.signer.x5c] } : input.signer.kid ? { kid: input.signer.kid } : {};
  // The library sets typ (dc+sd-jwt) and alg; an empty frame still gets _sd_alg, which is harmless.
  return sdJwtVcInstance({ signer: input.signer }).issue(payload, frame as never, { header });
}
