import type { JsonObject } from '../ports';
import { CREDENTIALS_V2_CONTEXT, isJsonObject } from '../model';
import { COMPACT_JWS } from './compact';

/** VC-JOSE-COSE media types; a VCDM 2.0 envelope names them in its data: URL. */
export const VC_JWT_MEDIA_TYPE = 'application/vc+jwt';
export const VP_JWT_MEDIA_TYPE = 'application/vp+jwt';

export const ENVELOPED = { credential: 'EnvelopedVerifiableCredential', presentation: 'EnvelopedVerifiablePresentation' } as const;
export type EnvelopeKind = keyof typeof ENVELOPED;

function envelope(kind: EnvelopeKind, mediaType: string, jwt: string): JsonObject {
  return { '@context': CREDENTIALS_V2_CONTEXT, id: `data:${mediaType},${jwt}`, type: ENVELOPED[kind] };
}

/** VCDM 2.0 §4.13: a JWT credential carried as a data: URL inside an EnvelopedVerifiableCredential. */
export function envelopeJwtCredential(jwt: string): JsonObject {
  return envelope('credential', VC_JWT_MEDIA_TYPE, jwt);
}

export function envelopeJwtPresentation(jwt: string): JsonObject {
  return envelope('presentation', VP_JWT_MEDIA_TYPE, jwt);
}

function typesInclude(value: unknown, type: string): boolean {
  return value === type || (Array.isArray(value) && value.includes(type));
}

export function isEnvelope(input: unknown, kind: EnvelopeKind): input is JsonObject {
  return isJsonObject(input) && typesInclude(input.type, ENVELOPED[kind]);
}

/** A compact JWT string, or any EnvelopedVerifiableCredential (the verifier explains a wrong media type). */
export function isJwtCredential(input: unknown): boolean {
  return (typeof input === 'string' && COMPACT_JWS.test(input)) || isEnvelope(input, 'credential');
}

export function isJwtPresentation(input: unknown): boolean {
  return (typeof input === 'string' && COMPACT_JWS.test(input)) || isEnvelope(input, 'presentation');
}

/**
 * The JWT inside an envelope, or a reason it cannot be taken out. Only the exact media type is
 * accepted (type/subtype compared case-insensitively, no parameters, no base64 flag): anything else
 * is a different securing mechanism, and reading it as a JWT would verify something the issuer did not mean.
 */
export function openEnvelope(input: JsonObject, kind: EnvelopeKind): { jwt: string } | { error: string } {
  const mediaType = kind === 'credential' ? VC_JWT_MEDIA_TYPE : VP_JWT_MEDIA_TYPE;
  const id = input.id;
  if (typeof id !== 'string' || !id.startsWith('data:')) return { error: `${ENVELOPED[kind]} id must be a data: URL` };
  const comma = id.indexOf(',');
  const declared = comma < 0 ? '' : id.slice('data:'.length, comma);
  if (declared.toLowerCase() !== mediaType) return { error: `${ENVELOPED[kind]} media type must be ${mediaType}, not ${declared || 'none'}` };
  const jwt = id.slice(comma + 1);
  if (!COMPACT_JWS.test(jwt)) return { error: `${ENVELOPED[kind]} does not carry a compact JWS` };
  return { jwt };
}
