import { createHash } from 'node:crypto';

/**
 * How a Family A credential binds a face without carrying it: `biometrics.face` holds
 * `sha256-salted:<base64url digest>` where
 *
 *   digest = SHA-256( "credgate/face-commitment/v1" 0x00 || credentialId 0x00 || salt (32 bytes) || template bytes )
 *
 * The template and the salt stay in the sealed record. Without the salt the value reveals nothing
 * about the face and cannot be tested against a guessed template; with a fresh salt per credential
 * two credentials of one face do not share a value (no cross-credential linking). The credential's
 * proof covers `biometrics` (a JSON literal in the Credgate context), so the commitment is signed.
 */
export const FACE_COMMITMENT_PREFIX = 'sha256-salted:';
export const FACE_SALT_BYTES = 32;
const DOMAIN = 'credgate/face-commitment/v1';

export function faceCommitment(templateBase64: string, salt: Uint8Array, credentialId: string): string {
  if (salt.length !== FACE_SALT_BYTES) throw new RangeError(`a face commitment salt has ${FACE_SALT_BYTES} bytes`);
  const digest = createHash('sha256')
    .update(`${DOMAIN}\0${credentialId}\0`, 'utf8')
    .update(salt)
    .update(Buffer.from(templateBase64, 'base64'))
    .digest('base64url');
  return `${FACE_COMMITMENT_PREFIX}${digest}`;
}
