import { createHash, createPublicKey, randomBytes, verify as verifySignature } from 'node:crypto';
import type { JoseSigner, JsonWebKey } from './types';

/**
 * The few JOSE operations SD-JWT VC needs, on node:crypto: SHA-256 digests, random salts,
 * compact JWS signing through a JoseSigner and ES256 verification against a JWK.
 */

export const b64url = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64url');
export const b64urlJson = (value: unknown): string => b64url(Buffer.from(JSON.stringify(value), 'utf8'));

/** SHA-256 of the ASCII/UTF-8 text (disclosures and the presented SD-JWT are hashed as sent). */
export const sha256B64url = (text: string): string => createHash('sha256').update(text, 'utf8').digest('base64url');

/** 128 bits of salt per disclosure (SD-JWT §4.2.1 recommends at least that). */
export const randomSalt = (): string => randomBytes(16).toString('base64url');

/** Strict base64url (no padding, no other characters), so one value has one encoding. */
const B64URL = /^[A-Za-z0-9_-]*$/;

export function decodeB64urlJson(part: string): unknown {
  if (!B64URL.test(part)) throw new SyntaxError('not base64url');
  return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
}

export interface DecodedJws {
  readonly header: Record<string, unknown>;
  readonly payload: Record<string, unknown>;
  /** `header.payload`, the bytes the signature covers. */
  readonly signingInput: string;
  readonly signature: Buffer;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Splits a compact JWS; null when it is not one (three base64url parts, JSON object header and payload). */
export function decodeJws(compact: string): DecodedJws | null {
  const parts = compact.split('.');
  if (parts.length !== 3) return null;
  const [h, p, s] = parts as [string, string, string];
  try {
    const header = decodeB64urlJson(h);
    const payload = decodeB64urlJson(p);
    if (!isObject(header) || !isObject(payload) || !B64URL.test(s)) return null;
    return { header, payload, signingInput: `${h}.${p}`, signature: Buffer.from(s, 'base64url') };
  } catch {
    return null;
  }
}

/** Signs header and payload as a compact JWS with the signer's raw ES256 signature. */
export async function signJws(signer: JoseSigner, header: Record<string, unknown>, payload: Record<string, unknown>): Promise<string> {
  const input = `${b64urlJson({ ...header, alg: signer.alg })}.${b64urlJson(payload)}`;
  const signature = await signer.sign(Buffer.from(input, 'ascii'));
  return `${input}.${b64url(signature)}`;
}

/** An EC P-256 public JWK, or null (private members and other curves are refused). */
export function p256PublicJwk(jwk: unknown): JsonWebKey | null {
  if (!isObject(jwk) || jwk['kty'] !== 'EC' || jwk['crv'] !== 'P-256' || typeof jwk['x'] !== 'string' || typeof jwk['y'] !== 'string') return null;
  if ('d' in jwk) return null;
  return { kty: 'EC', crv: 'P-256', x: jwk['x'], y: jwk['y'] };
}

/** ES256 over `signingInput` with a raw r||s signature; false (never throws) for any bad key or signature. */
export function verifyEs256(jwk: JsonWebKey, signingInput: string, signature: Uint8Array): boolean {
  const key = p256PublicJwk(jwk);
  if (!key || signature.length !== 64) return false;
  try {
    return verifySignature('sha256', Buffer.from(signingInput, 'ascii'), { key: createPublicKey({ key: key, format: 'jwk' }), dsaEncoding: 'ieee-p1363' }, signature);
  } catch {
    return false;
  }
}
