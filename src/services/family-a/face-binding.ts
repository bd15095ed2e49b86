import { randomBytes } from 'node:crypto';
import { FACE_SALT_BYTES, faceCommitment } from '../../domain/credentials/face-commitment';
import { base64ToBytes } from '../../domain/encoding';

/** The face bound to an issued credential, as its sealed record keeps it. */
export interface SealedFace {
  /** The gallery template (base64), never shown in a credential. */
  readonly template: string;
  /** Base64 salt of the credential's face commitment; null for records sealed before commitments. */
  readonly salt: string | null;
}

export const newFaceSalt = (): string => Buffer.from(randomBytes(FACE_SALT_BYTES)).toString('base64');

/** What a freshly issued credential shows in `biometrics.face`: the commitment, never the template. */
export function shownFaceCommitment(face: SealedFace | null, credentialId: string): string | null {
  if (!face) return null;
  if (face.salt === null) throw new Error('a new face binding needs a salt');
  return faceCommitment(face.template, base64ToBytes(face.salt), credentialId);
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The gallery template a probe may be compared with, or null when the presented credential binds
 * no face. Call it only after the credential's proof and the holder proof verified: the record is
 * the one the signed `id` names, so `sealed` is the face bound at issuance.
 *
 * - A credential that shows a commitment must show exactly the commitment to the sealed template.
 * - A re-issued credential shows `biometrics: {}` (reference 2.4): its face is bound by the record
 *   alone (the signed id selects it).
 * - Records sealed before commitments (salt null) are bound by the record alone as well.
 */
export function boundGalleryTemplate(sealed: SealedFace | null, presented: Record<string, unknown>, credentialId: string): string | null {
  if (!sealed) return null;
  if (sealed.salt === null) return sealed.template;
  const bio = presented['biometrics'];
  if (isObject(bio) && !Object.hasOwn(bio, 'face')) return sealed.template;
  const shown = isObject(bio) ? bio['face'] : undefined;
  return shown === faceCommitment(sealed.template, base64ToBytes(sealed.salt), credentialId) ? sealed.template : null;
}
