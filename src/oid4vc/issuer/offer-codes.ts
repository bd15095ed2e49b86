import { createHash } from 'node:crypto';

/**
 * One random offer secret `s` yields the pre-authorized code and the issuer_state, so the
 * by-reference offer URI (which carries `s`) can rebuild the offer while the database keeps only
 * hashes of each. Holding `s` is no more than holding the offer itself: both are bearer secrets
 * shown once, at creation.
 */
const derive = (label: string, s: string): string => createHash('sha256').update(`credgate/oid4vci/${label}/v1:${s}`, 'utf8').digest('base64url');

export const preAuthorizedCodeOf = (s: string): string => derive('pre-authorized-code', s);
export const issuerStateOf = (s: string): string => derive('issuer-state', s);
