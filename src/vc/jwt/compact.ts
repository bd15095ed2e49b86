import { base64url, decodeProtectedHeader, type ProtectedHeaderParameters } from 'jose';
import type { JsonObject, ProofSigner } from '../ports';
import { isJsonObject } from '../model';
import { JWS_ALGORITHM } from './algorithms';

export const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** Bounds the work spent on an input before its signature is known good (a credential JWT is kilobytes). */
export const MAX_JWT_LENGTH = 256 * 1024;

const encoder = new TextEncoder();

/**
 * A compact JWS signed through the signer: the private key stays behind `signer.sign`, which jose
 * cannot call, so the signing input is built here (RFC 7515 §7.1) with jose's base64url.
 * The signer's raw signatures are already in JOSE form (Ed25519 64 bytes; ECDSA r || s).
 */
export async function signCompact(header: JsonObject, payload: JsonObject, signer: ProofSigner): Promise<string> {
  // A BBS key (bbs-2023) has no JWS algorithm: it signs message lists, not a signing input.
  const alg = signer.keyType === 'Bls12381G2' ? undefined : JWS_ALGORITHM[signer.keyType];
  if (alg === undefined) throw new Error(`no JWS algorithm for key type ${String(signer.keyType)}`);
  const input = `${base64url.encode(JSON.stringify({ ...header, alg }))}.${base64url.encode(JSON.stringify(payload))}`;
  const signature = await signer.sign(encoder.encode(input));
  return `${input}.${base64url.encode(signature)}`;
}

export interface DecodedJws {
  readonly header: ProtectedHeaderParameters;
  readonly payload: JsonObject;
}

/**
 * Header and payload of a compact JWS, read before verification only to choose the key and the rules
 * to verify with. Returns undefined for anything that is not a JWS with JSON object parts.
 */
export function decodeUnverified(jws: string): DecodedJws | undefined {
  if (jws.length > MAX_JWT_LENGTH || !COMPACT_JWS.test(jws)) return undefined;
  try {
    const header = decodeProtectedHeader(jws);
    const payload: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(base64url.decode(jws.split('.')[1] ?? '')));
    return isJsonObject(payload) ? { header, payload } : undefined;
  } catch {
    return undefined;
  }
}
