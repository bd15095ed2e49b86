import { invalidInput } from '../../errors';
import { splitSdJwt } from './compact';
import { sdJwtVcInstance } from './library';
import type { JoseSigner } from './types';

export interface PresentSdJwtVcInput {
  /** Dot paths of the claims to show (`given_name`, `address.street`); the rest stays hidden. */
  readonly disclose: readonly string[];
  /** The holder key (`cnf.jwk`); when given, a key-binding JWT is appended. */
  readonly holder?: JoseSigner;
  /** The verifier's client_id. */
  readonly aud: string;
  readonly nonce: string;
  /** Seconds since the epoch (the KB-JWT's iat). */
  readonly iat?: number;
}

type PFrame = { [k: string]: boolean | PFrame };

/** `['a.b', 'c']` -> `{ a: { b: true }, c: true }`, the library's presentation frame. */
function frameOf(paths: readonly string[]): PFrame {
  const root: PFrame = {};
  for (const path of paths) {
    const segments = path.split('.');
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
  const keys = new Set(await instance.keys(issued));
  const unknown = input.disclose.filter((p) => !keys.has(p));
  if (unknown.length > 0) throw invalidInput(`the credential has no claim ${unknown.join(', ')}`, unknown.map((p) => ({ field: 'disclose', message: `no claim ${p}` })));
  const frame = frameOf(input.disclose);
  if (!input.holder) return instance.present(issued, frame as never);
  return instance.present(issued, frame as never, {
    kb: { payload: { iat: input.iat ?? Math.floor(Date.now() / 1000), aud: input.aud, nonce: input.nonce } },
  });
}
