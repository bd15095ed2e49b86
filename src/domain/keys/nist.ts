import { p256, p384 } from '@noble/curves/nist.js';
import { AppError } from '../../errors';
import { base64UrlToBytes, bytesToBase64Url } from '../encoding/base64';

/** NIST curves accepted for did:key public keys (signing with them is out of scope here). */
export type NistCurve = 'P-256' | 'P-384';

export interface NistPublicJwk {
  kty: 'EC';
  crv: NistCurve;
  x: string;
  y: string;
}

const CURVES = { 'P-256': p256, 'P-384': p384 } as const;
/** Coordinate (field element) size in bytes. */
const COORD_LENGTH: Record<NistCurve, number> = { 'P-256': 32, 'P-384': 48 };

function badPublic(field: string, message: string): AppError {
  return new AppError('INVALID_PUBLIC_KEY', message, [{ field, message }]);
}

function assertCurve(curve: NistCurve): void {
  if (!Object.hasOwn(CURVES, curve)) {
    throw new AppError('INVALID_INPUT', 'curve must be P-256 or P-384');
  }
}

/** Byte length of a SEC1 compressed point on `curve` (33 for P-256, 49 for P-384). */
export function nistCompressedLength(curve: NistCurve): number {
  assertCurve(curve);
  return COORD_LENGTH[curve] + 1;
}

/**
 * Validates a SEC1 public key on `curve` (compressed, or uncompressed when `compressedOnly` is
 * false) and returns it compressed. did:key mandates the compressed form, so it passes true.
 */
export function parseNistPublicKey(
  curve: NistCurve,
  bytes: Uint8Array,
  field = 'publicKey',
  compressedOnly = false,
): Uint8Array {
  assertCurve(curve);
  const size = COORD_LENGTH[curve];
  const okLength = bytes instanceof Uint8Array &&
    (bytes.length === size + 1 || (!compressedOnly && bytes.length === 2 * size + 1));
  if (!okLength) {
    const form = compressedOnly ? 'compressed' : 'compressed or uncompressed';
    throw badPublic(field, `${field} must be a ${form} ${curve} public key`);
  }
  try {
    const point = CURVES[curve].Point.fromBytes(bytes);
    point.assertValidity();
    return point.toBytes(true);
  } catch {
    throw badPublic(field, `${field} is not a valid ${curve} curve point`);
  }
}

/** Expresses a (compressed or uncompressed) public key as an RFC 7518 EC JWK. */
export function nistPublicKeyToJwk(curve: NistCurve, publicKey: Uint8Array): NistPublicJwk {
  const compressed = parseNistPublicKey(curve, publicKey);
  const uncompressed = CURVES[curve].Point.fromBytes(compressed).toBytes(false);
  const size = COORD_LENGTH[curve];
  return {
    kty: 'EC',
    crv: curve,
    x: bytesToBase64Url(uncompressed.slice(1, 1 + size)),
    y: bytesToBase64Url(uncompressed.slice(1 + size)),
  };
}

/** Validates an EC JWK on `curve` and returns the compressed public key. */
export function nistJwkToPublicKey(curve: NistCurve, jwk: unknown, field = 'publicKeyJwk'): Uint8Array {
  assertCurve(curve);
  const j = jwk as Partial<Record<string, unknown>> | null;
  if (typeof j !== 'object' || j === null || j.kty !== 'EC' || j.crv !== curve) {
    throw badPublic(field, `${field} must be an EC JWK on ${curve}`);
  }
  const size = COORD_LENGTH[curve];
  let x: Uint8Array;
  let y: Uint8Array;
  try {
    x = base64UrlToBytes(j.x as string, `${field}.x`);
    y = base64UrlToBytes(j.y as string, `${field}.y`);
  } catch {
    throw badPublic(field, `${field} x and y must be base64url`);
  }
  if (x.length !== size || y.length !== size) {
    throw badPublic(field, `${field} coordinates must be ${size} bytes`);
  }
  const sec1 = new Uint8Array(2 * size + 1);
  sec1[0] = 0x04;
  sec1.set(x, 1);
  sec1.set(y, 1 + size);
  return parseNistPublicKey(curve, sec1, field);
}
