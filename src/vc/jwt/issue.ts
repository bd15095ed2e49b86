import { AppError } from '../../errors';
import type { JsonObject, ProofSigner } from '../ports';
import { credentialVersion, isJsonObject } from '../model';
import { credentialToClaims } from './claims-v1';
import { signCompact } from './compact';

/** VC-JOSE-COSE §3.1.1 header typ values; `cty` is optional there and is left out. */
export const VC_JWT_TYP = 'vc+jwt';
export const VP_JWT_TYP = 'vp+jwt';

/**
 * Signs a credential as a JWT, in the form its data model version calls for:
 * - VCDM 2.0: VC-JOSE-COSE `application/vc+jwt`, header {alg, kid, typ: vc+jwt}, payload = the credential;
 * - VCDM 1.1: VC-JWT, header {alg, kid, typ: JWT}, payload {iss, sub, jti, nbf, exp, vc}.
 * `kid` is the signer's absolute verification method, so a verifier needs no guesswork. The
 * credential should come from prepareCredentialForIssuance (issuer, dates, no proof).
 */
export async function issueJwtCredential(credential: JsonObject, signer: ProofSigner): Promise<string> {
  if (!isJsonObject(credential)) throw new AppError('INVALID_INPUT', 'credential must be a JSON object');
  if (credential.proof !== undefined) throw new AppError('INVALID_INPUT', 'a JWT credential carries no embedded proof; remove proof');
  const version = credentialVersion(credential);
  if (version === '2.0') return signCompact({ kid: signer.verificationMethod, typ: VC_JWT_TYP }, credential, signer);
  if (version === '1.1') return signCompact({ kid: signer.verificationMethod, typ: 'JWT' }, credentialToClaims(credential), signer);
  throw new AppError('INVALID_INPUT', 'credential @context must start with a VCDM 1.1 or 2.0 base context');
}
