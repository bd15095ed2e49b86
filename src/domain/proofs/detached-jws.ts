import { base64urlnopad } from '@scure/base';
import { AppError } from '../../errors';
import { nativeEd25519Sign, nativeEd25519Verify } from '../keys/ed25519';
import type { Signer } from '../keys/signer.port';

/**
 * RFC 7797 detached JWS with an unencoded payload, EdDSA (Ed25519) only — the `jws` form of the
 * Ed25519Signature2018 suite: `<b64url(header)>..<b64url(signature)>`, where the signature covers
 * `ASCII(b64url(header)) || '.' || payload` with the raw payload bytes (no base64url of the payload).
 */

/** The only header Credgate emits and accepts. */
export const DETACHED_EDDSA_HEADER = Object.freeze({ alg: 'EdDSA', b64: false, crit: Object.freeze(['b64']) });

const ascii = new TextEncoder();
const ENCODED_HEADER = base64urlnopad.encode(ascii.encode(JSON.stringify(DETACHED_EDDSA_HEADER)));
const B64URL = /^[A-Za-z0-9_-]+$/;
const ED25519_SIGNATURE_BYTES = 64;
const ED25519_PUBLIC_KEY_BYTES = 32;
const ED25519_SEED_BYTES = 32;

export interface JwsVerification {
  verified: boolean;
  reason?: string;
}

/** Uint8Array check that also holds for arrays created in another realm (e.g. under jest). */
export function isBytes(value: unknown): value is Uint8Array {
  return value instanceof Uint8Array || (ArrayBuffer.isView(value) && value.constructor.name === 'Uint8Array');
}

/** `ASCII(encodedHeader) || '.' || payload` (RFC 7797 §3 with b64=false). */
export function detachedSigningInput(encodedHeader: string, payload: Uint8Array): Uint8Array {
  const prefix = ascii.encode(`${encodedHeader}.`);
  const input = new Uint8Array(prefix.length + payload.length);
  input.set(prefix, 0);
  input.set(payload, prefix.length);
  return input;
}

/**
 * Signs `payload` as a detached, unencoded-payload EdDSA JWS. Ed25519 is deterministic, so the same
 * seed and payload always give the same string. `seed` is the 32-byte RFC 8032 private key; any
 * other length throws `AppError('INVALID_PRIVATE_KEY')` (the message never includes key bytes).
 */
export function signDetachedEdDsaJws(payload: Uint8Array, seed: Uint8Array): string {
  if (!isBytes(seed) || seed.length !== ED25519_SEED_BYTES) {
    throw new AppError('INVALID_PRIVATE_KEY', 'Ed25519 private key must be a 32-byte seed');
  }
  const signature = nativeEd25519Sign(detachedSigningInput(ENCODED_HEADER, payload), seed);
  return `${ENCODED_HEADER}..${base64urlnopad.encode(signature)}`;
}

/**
 * The same JWS signed through the signer port (src/domain/keys/signer.port.ts), for a key whose
 * private half stays with its holder. The signer must sign Ed25519: anything but 64 bytes back is
 * refused as a fault of the signer (INTERNAL), never emitted as a proof.
 */
export async function signDetachedEdDsaJwsWith(payload: Uint8Array, signer: Signer): Promise<string> {
  const signature = await signer.sign(detachedSigningInput(ENCODED_HEADER, payload));
  if (!isBytes(signature) || signature.length !== ED25519_SIGNATURE_BYTES) {
    throw new AppError('INTERNAL', 'the signer did not return a 64-byte Ed25519 signature');
  }
  return `${ENCODED_HEADER}..${base64urlnopad.encode(signature)}`;
}

function isExpectedHeader(header: unknown): boolean {
  if (header === null || typeof header !== 'object' || Array.isArray(header)) return false;
  const h = header as Record<string, unknown>;
  return (
    Object.keys(h).length === 3 &&
    h.alg === 'EdDSA' &&
    h.b64 === false &&
    Array.isArray(h.crit) &&
    h.crit.length === 1 &&
    h.crit[0] === 'b64'
  );
}

function decodeHeader(encoded: string): unknown {
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(base64urlnopad.decode(encoded)));
  } catch {
    return undefined;
  }
}

function decodeSignature(encoded: string): Uint8Array | undefined {
  try {
    return base64urlnopad.decode(encoded);
  } catch {
    return undefined;
  }
}

/** A syntactically valid detached EdDSA JWS, split into the parts verification needs. */
export interface ParsedDetachedJws {
  encodedHeader: string;
  signature: Uint8Array;
}

/**
 * Checks the shape of a detached EdDSA JWS without any cryptography: `<header>..<signature>`, both
 * base64url without padding, the header exactly `{alg: EdDSA, b64: false, crit: [b64]}` (so no
 * other algorithm or an encoded payload can be smuggled in) and a 64-byte signature.
 */
export function parseDetachedEdDsaJws(jws: unknown): ParsedDetachedJws | { reason: string } {
  if (typeof jws !== 'string') return { reason: 'proof jws is missing or not a string' };
  const parts = jws.split('.');
  const [encodedHeader, detachedPayload, encodedSignature] = parts;
  if (parts.length !== 3 || encodedHeader === undefined || encodedSignature === undefined || detachedPayload !== '') {
    return { reason: 'proof jws is not a detached JWS (<header>..<signature>)' };
  }
  if (!B64URL.test(encodedHeader) || !B64URL.test(encodedSignature)) {
    return { reason: 'proof jws is not base64url' };
  }
  if (!isExpectedHeader(decodeHeader(encodedHeader))) {
    return { reason: 'proof jws header must be exactly {"alg":"EdDSA","b64":false,"crit":["b64"]}' };
  }
  const signature = decodeSignature(encodedSignature);
  if (signature === undefined || signature.length !== ED25519_SIGNATURE_BYTES) {
    return { reason: 'proof jws signature is not a 64-byte Ed25519 signature' };
  }
  return { encodedHeader, signature };
}

/**
 * Verifies a detached EdDSA JWS over `payload`. Never throws: a malformed JWS, an unexpected header,
 * a public key that is not 32 bytes or a bad signature is reported as `{ verified: false, reason }`.
 * Verification is strict RFC 8032 (not ZIP-215), so non-canonical encodings are rejected too.
 */
export function verifyDetachedEdDsaJws(jws: unknown, payload: Uint8Array, publicKey: Uint8Array): JwsVerification {
  const parsed = parseDetachedEdDsaJws(jws);
  if ('reason' in parsed) return { verified: false, reason: parsed.reason };
  if (!isBytes(publicKey) || publicKey.length !== ED25519_PUBLIC_KEY_BYTES) {
    return { verified: false, reason: 'public key is not a 32-byte Ed25519 key' };
  }
  let valid = false;
  try {
    const input = detachedSigningInput(parsed.encodedHeader, payload);
    valid = nativeEd25519Verify(parsed.signature, input, publicKey);
  } catch {
    valid = false;
  }
  return valid ? { verified: true } : { verified: false, reason: 'signature does not match the document' };
}
