import { invalidInput } from '../../errors';
import { splitSdJwt } from './compact';
import { sdJwtVcInstance } from './library';
import type { JoseSigner } from './types';

export interface PresentSdJwtVcInput {
  /**
   * Claims to show, each a dot path (`given_name`, `address.street`) or a DCQL-style array of
   * segments (`['address', 'street']`, array elements by index), for names that contain dots.
   * Everything else stays hidden.
   */
  readonly disclose: readonly (string | readonly (string | number)[])[];
  /** The holder key (`cnf.jwk`); when given, a key-binding JWT is appended. */
  readonly holder?: JoseSigner;
  /** The verifier's client_id. */
  readonly aud: string;
  readonly nonce: string;
  /** Seconds since the epoch (the KB-JWT's iat). */
  readonly iat?: number;
}

type PFrame = { [k: string]: boolean | PFrame };

const segmentsOf = (path: string | readonly (string | number)[]): string[] => (typeof path === 'string' ? path.split('.') : path.map(String));

/** Whether the (fully disclosed) claims have a value at `segments`. */
function hasPath(claims: unknown, segments: readonly string[]): boolean {
  let value = claims;
  for (const s of segments) {
    if (Array.isArray(value)) {
      if (!/^\d+$/.test(s) || Number(s) >= value.length) return false;
      value = value[Number(s)];
    } else if (typeof value === 'object' && value !== null && Object.hasOwn(value, s)) {
      value = (value as Record<string, unknown>)[s];
    } else return false;
  }
  return segments.length > 0;
}

/** `[['a', 'b'], ['c']]` -> `{ a: { b: true }, c: true }`, the library's presentation frame. */
function frameOf(paths: readonly (readonly string[])[]): PFrame {
  const root: PFrame = {};
  for (const segments of paths) {
    let frame = root;
    segments.forEach((segment, i) => {
      if (i === segments.length - 1) {
        if (frame[segment] === undefined) frame[segment] = true;
        return;
      }
      const next = frame[segment];
      frame = typeof next === 'object' ? next : (frame[segment] = {});
    });
  }
  return root;
}

/**
 * A presentation of an SD-JWT VC showing only the disclosures of `disclose` (and those of their
 * parents), with a key-binding JWT (aud, nonce, iat, sd_hash) when a holder signer is given.
 *
 * @throws AppError INVALID_INPUT when the credential is not an SD-JWT or a path names no claim.
 */
export async function presentSdJwtVc(compact: string, input: PresentSdJwtVcInput): Promise<string> {
  const split = splitSdJwt(compact);
  if (!split) throw invalidInput('not an SD-JWT (compact serialization expected)', [{ field: 'credential', message: 'not an SD-JWT' }]);
  // A presentation starts from the issued credential, never from another presentation's KB-JWT.
  const issued = split.presented;
  const instance = sdJwtVcInstance({ ...(input.holder ? { holder: input.holder } : {}) });
  const claims = await instance.getClaims(issued);
  const paths = input.disclose.map(segmentsOf);
  const unknown = paths.filter((p) => !hasPath(claims, p)).map((p) => p.join('.'));
  if (unknown.length > 0) throw invalidInput(`the credential has no claim ${unknown.join(', ')}`, unknown.map((p) => ({ field: 'disclose', message: `no claim ${p}` })));
  const frame = frameOf(paths);
  if (!input.holder) return instance.present(issued, frame as never);
  return instance.present(issued, frame as never, {
    kb: { payload: { iat: input.iat ?? Math.floor(Date.now() / 1000), aud: input.aud, nonce: input.nonce } },
  });
}
