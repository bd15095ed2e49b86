import { secp256k1 } from '@noble/curves/secp256k1.js';
import { AppError } from '../../errors';
import { base64UrlToBytes, bytesToBase64Url } from '../encoding/base64';
import { bytesEqual } from './ed25519';
import { libsecp256k1Verify } from './libsecp256k1';
import { parseSecp256k1PrivateKey, parseSecp256k1PublicKey, secp256k1SignMessage } from './secp256k1';

/** RFC 8812 §3.1 public JWK for secp256k1. */
export interface Secp256k1PublicJwk {
  kty: 'EC';
  crv: 'secp256k1';
  x: string;
  y: string;
}

export interface Secp256k1PrivateJwk extends Secp256k1PublicJwk {
  d: string;
}

/** A JWS protected header; `alg` is always ES256K once verified. */
export interface JwsHeader {
  alg: string;
  [name: string]: unknown;
}

/** `payload` and `header` are present only when `valid` is true, so unverified data is never handed out. */
export interface Es256kVerification {
  valid: boolean;
  payload?: Uint8Array;
  header?: JwsHeader;
}

const COORD_LENGTH = 32;
const SIGNATURE_LENGTH = 64;
const utf8Encoder = new TextEncoder();

function badPublic(field: string, message: string): AppError {
  return new AppError('INVALID_PUBLIC_KEY', message, [{ field, message }]);
}

function badPrivate(field: string, message: string): AppError {
  return new AppError('INVALID_PRIVATE_KEY', message, [{ field, message }]);
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function decodeCoordinate(value: unknown, name: string, onError: (m: string) => AppError): Uint8Array {
  let bytes: Uint8Array;
  try {
    bytes = base64UrlToBytes(value as string, name);
  } catch {
    throw onError(`${name} must be base64url`);
  }
  if (bytes.length !== COORD_LENGTH) throw onError(`${name} must be 32 bytes`);
  return bytes;
}

/**
 * Validates a secp256k1 EC JWK (kty EC, crv secp256k1, 32-byte x and y on the curve) and returns
 * the compressed public key. A JWK that declares another `alg` or a non-signature `use` is refused.
 */
export function jwkToSecp256k1PublicKey(jwk: unknown, field = 'publicKeyJwk'): Uint8Array {
  const j = asRecord(jwk);
  if (!j || j.kty !== 'EC' || j.crv !== 'secp256k1') {
    throw badPublic(field, `${field} must be an EC JWK with crv secp256k1`);
  }
  if (j.alg !== undefined && j.alg !== 'ES256K') throw badPublic(field, `${field} alg must be ES256K`);
  if (j.use !== undefined && j.use !== 'sig') throw badPublic(field, `${field} use must be sig`);
  const onError = (m: string): AppError => badPublic(field, m);
  const x = decodeCoordinate(j.x, `${field}.x`, onError);
  const y = decodeCoordinate(j.y, `${field}.y`, onError);
  const sec1 = new Uint8Array(1 + 2 * COORD_LENGTH);
  sec1[0] = 0x04;
  sec1.set(x, 1);
  sec1.set(y, 1 + COORD_LENGTH);
  return parseSecp256k1PublicKey(sec1, field);
}

/** Expresses a secp256k1 public key (compressed or uncompressed) as an RFC 8812 JWK. */
export function secp256k1PublicKeyToJwk(publicKey: Uint8Array): Secp256k1PublicJwk {
  const compressed = parseSecp256k1PublicKey(publicKey);
  const full = secp256k1.Point.fromBytes(compressed).toBytes(false);
  return {
    kty: 'EC',
    crv: 'secp256k1',
    x: bytesToBase64Url(full.slice(1, 1 + COORD_LENGTH)),
    y: bytesToBase64Url(full.slice(1 + COORD_LENGTH)),
  };
}

/**
 * Validates a secp256k1 private JWK and returns the 32-byte scalar. When x/y are present they must
 * be the public key of `d`, so a JWK whose halves were mixed up is caught before signing.
 */
export function jwkToSecp256k1PrivateKey(jwk: unknown, field = 'privateKeyJwk'): Uint8Array {
  const j = asRecord(jwk);
  if (!j || j.kty !== 'EC' || j.crv !== 'secp256k1') {
    throw badPrivate(field, `${field} must be an EC JWK with crv secp256k1`);
  }
  const d = decodeCoordinate(j.d, `${field}.d`, (m) => badPrivate(field, m));
  const sk = parseSecp256k1PrivateKey(d, field);
  if (j.x !== undefined || j.y !== undefined) {
    const declared = jwkToSecp256k1PublicKey({ kty: j.kty, crv: j.crv, x: j.x, y: j.y }, field);
    if (!bytesEqual(declared, secp256k1.getPublicKey(sk, true))) {
      throw badPrivate(field, `${field} x/y do not match d`);
    }
  }
  return sk;
}

function parseProtectedHeader(segment: string): JwsHeader | undefined {
  try {
    const json = new TextDecoder('utf-8', { fatal: true }).decode(base64UrlToBytes(segment));
    const header = asRecord(JSON.parse(json));
    if (!header || typeof header.alg !== 'string') return undefined;
    return header as JwsHeader;
  } catch {
    return undefined;
  }
}

/**
 * Verifies a compact ES256K JWS (RFC 7515 + RFC 8812): `alg` must be ES256K, the signature is the
 * 64-byte r||s over SHA-256(ASCII(header.payload)). High-S signatures are accepted: RFC 8812 does
 * not require low-S and other stacks (e.g. Microsoft ION/Entra) emit them, as does jose. A `crit`
 * header or unencoded payload (RFC 7797 `b64`) is refused because no extension is understood.
 *
 * Any defect of the JWS yields `{ valid: false }`; only an invalid JWK throws (INVALID_PUBLIC_KEY),
 * since that is a configuration error rather than untrusted input.
 */
export function verifyEs256kJws(compactJws: string, publicJwk: Secp256k1PublicJwk): Es256kVerification {
  const publicKey = jwkToSecp256k1PublicKey(publicJwk);
  const invalid: Es256kVerification = { valid: false };
  if (typeof compactJws !== 'string') return invalid;
  const parts = compactJws.split('.');
  if (parts.length !== 3) return invalid;
  const [headerB64, payloadB64, signatureB64] = parts as [string, string, string];
  const header = parseProtectedHeader(headerB64);
  if (!header || header.alg !== 'ES256K') return invalid;
  if ('crit' in header || ('b64' in header && header.b64 !== true)) return invalid;
  try {
    const payload = base64UrlToBytes(payloadB64);
    const signature = base64UrlToBytes(signatureB64);
    if (signature.length !== SIGNATURE_LENGTH) return invalid;
    const ok = libsecp256k1Verify(signature, utf8Encoder.encode(`${headerB64}.${payloadB64}`), publicKey, false);
    return ok ? { valid: true, payload, header } : invalid;
  } catch {
    return invalid;
  }
}

/**
 * Produces a compact ES256K JWS (deterministic RFC 6979, low-S). `payload` strings are UTF-8
 * encoded. Extra protected header members may be given; `alg` is always ES256K.
 */
export function signEs256kJws(
  payload: Uint8Array | string,
  privateJwk: Secp256k1PrivateJwk,
  extraHeader: Record<string, unknown> = {},
): string {
  const sk = jwkToSecp256k1PrivateKey(privateJwk);
  const { alg, ...rest } = extraHeader;
  if (alg !== undefined && alg !== 'ES256K') {
    throw new AppError('INVALID_INPUT', 'header alg must be ES256K');
  }
  const header = { alg: 'ES256K', ...rest };
  const bytes = typeof payload === 'string' ? utf8Encoder.encode(payload) : payload;
  const signingInput = `${bytesToBase64Url(utf8Encoder.encode(JSON.stringify(header)))}.${bytesToBase64Url(bytes)}`;
  const signature = secp256k1SignMessage(utf8Encoder.encode(signingInput), sk);
  return `${signingInput}.${bytesToBase64Url(signature)}`;
}
