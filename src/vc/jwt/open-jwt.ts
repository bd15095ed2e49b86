import type { ProtectedHeaderParameters } from 'jose';
import type { JsonObject, ProofVerification, VcProblem } from '../ports';
import { decodeUnverified } from './compact';
import { ENVELOPED, isEnvelope, openEnvelope, type EnvelopeKind } from './envelope';

export const malformed = (title: string): VcProblem => ({ type: 'MALFORMED_VALUE_ERROR', title });

export const failed = (errors: VcProblem[], suite?: string): ProofVerification => (suite ? { verified: false, suite, errors } : { verified: false, errors });

/** typ is a media type without its `application/` prefix (RFC 7515 §4.1.9); compared case-insensitively. */
function typOf(header: ProtectedHeaderParameters): string | undefined {
  if (typeof header.typ !== 'string') return undefined;
  const typ = header.typ.toLowerCase();
  return typ.startsWith('application/') ? typ.slice('application/'.length) : typ;
}

export interface OpenedJwt {
  readonly jwt: string;
  /** Whether it came in a VCDM 2.0 envelope, which only VC-JOSE-COSE (vc+jwt / vp+jwt) may use. */
  readonly enveloped: boolean;
  readonly header: ProtectedHeaderParameters;
  readonly payload: JsonObject;
  /** The header's typ, normalized; undefined when absent. */
  readonly typ: string | undefined;
}

/**
 * The compact JWS a verifier was given, bare or inside an Enveloped{Credential,Presentation}, with
 * its header and payload decoded but not yet verified (they only choose the rules and the key).
 * Credentials and presentations arrive the same way, so both verifiers start here.
 */
export function openJwt(input: string | JsonObject, kind: EnvelopeKind): OpenedJwt | VcProblem[] {
  let jwt: string;
  let enveloped = false;
  if (typeof input === 'string') jwt = input;
  else if (isEnvelope(input, kind)) {
    const opened = openEnvelope(input, kind);
    if ('error' in opened) return [malformed(opened.error)];
    jwt = opened.jwt;
    enveloped = true;
  } else return [malformed(`expected a compact JWT or an ${ENVELOPED[kind]}`)];

  const decoded = decodeUnverified(jwt);
  if (!decoded) return [{ type: 'PARSING_ERROR', title: 'not a compact JWS with a JSON header and payload' }];
  return { jwt, enveloped, header: decoded.header, payload: decoded.payload, typ: typOf(decoded.header) };
}
