import { AppError } from '../../errors';
import type { JsonObject } from '../ports';
import { checkCredentialShape } from './shape';
import { credentialVersion } from './version';
import { isJsonObject } from './values';

/** XMLSchema dateTimeStamp of `now`, whole seconds, UTC — what JWT claims (seconds) can carry back exactly. */
export function dateTimeStampOf(now: Date): string {
  return new Date(Math.floor(now.getTime() / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

function refuse(message: string, field: string): AppError {
  return new AppError('INVALID_INPUT', message, [{ field: `credential.${field}`, message }]);
}

function checkUnsigned(credential: JsonObject): '1.1' | '2.0' {
  if (!isJsonObject(credential)) throw refuse('credential must be a JSON object', '');
  const version = credentialVersion(credential);
  if (version === undefined) {
    throw refuse('credential @context must start with https://www.w3.org/2018/credentials/v1 or https://www.w3.org/ns/credentials/v2', '@context');
  }
  if (credential.proof !== undefined) throw refuse('credential already has a proof; issue an unsigned credential', 'proof');
  return version;
}

/** The start of validity filled in when absent, and the result well formed (or INVALID_INPUT naming each problem). */
function completed(credential: JsonObject, version: '1.1' | '2.0', now: Date): JsonObject {
  const start = version === '1.1' ? 'issuanceDate' : 'validFrom';
  if (credential[start] === undefined) credential[start] = dateTimeStampOf(now);
  const problems = checkCredentialShape(credential);
  if (problems.length > 0) {
    throw new AppError(
      'INVALID_INPUT',
      `credential is not a well-formed VCDM ${version} credential: ${problems.map((p) => p.title).join('; ')}`,
      problems.map((p) => ({ field: `credential${p.detail ? `.${p.detail}` : ''}`, message: p.title })),
    );
  }
  return credential;
}

/**
 * Checks, without binding it to an issuer, a credential an issuer is asked to sign: what
 * prepareCredentialForIssuance would refuse for the credential's own sake. Its `issuer` is taken
 * as given (the shape rules require one).
 */
export function checkIssuableCredential(credential: JsonObject, now: Date): void {
  completed(structuredClone(credential), checkUnsigned(credential), now);
}

/**
 * The credential an issuer will sign: `issuer` set to the issuing DID (an issuer object keeps its
 * other members), the start of validity filled in when absent, and the result well formed. A
 * credential naming another issuer, or already carrying a proof, is refused rather than re-signed.
 * (The VC-API additionally requires callers to name the issuer: src/services/vc-api.)
 */
export function prepareCredentialForIssuance(credential: JsonObject, options: { issuer: string; now: Date }): JsonObject {
  const version = checkUnsigned(credential);
  const prepared = structuredClone(credential);
  const issuer = prepared.issuer;
  if (issuer === undefined) prepared.issuer = options.issuer;
  else if (typeof issuer === 'string') {
    if (issuer !== options.issuer) throw refuse(`credential issuer must be the issuing DID ${options.issuer}`, 'issuer');
  } else if (isJsonObject(issuer)) {
    if (issuer.id !== undefined && issuer.id !== options.issuer) throw refuse(`credential issuer.id must be the issuing DID ${options.issuer}`, 'issuer.id');
    prepared.issuer = { ...issuer, id: options.issuer };
  } else throw refuse('credential issuer must be a URL or an object', 'issuer');
  return completed(prepared, version, options.now);
}
