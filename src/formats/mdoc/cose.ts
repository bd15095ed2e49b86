import { createHash, createPublicKey, verify as verifySignature, type JsonWebKey } from 'node:crypto';
import { cborEncode } from './cbor';

/**
 * COSE_Sign1 (RFC 9052) over node:crypto. ECDSA signatures in COSE are the raw r||s concatenation,
 * which is node's 'ieee-p1363' encoding, so the shared signer (raw r||s for JOSE) signs COSE too.
 */

/** COSE header labels used by ISO 18013-5. */
export const HEADER_ALG = 1;
export const HEADER_X5CHAIN = 33;

/** The ECDSA algorithms ISO 18013-5 and HAIP allow, with the curve each implies. -9 is the fully-specified ESP256. */
const ECDSA: ReadonlyMap<number, { hash: 'sha256' | 'sha384' | 'sha512'; crv: 'P-256' | 'P-384' | 'P-521' }> = new Map([
  [-7, { hash: 'sha256', crv: 'P-256' }],
  [-9, { hash: 'sha256', crv: 'P-256' }],
  [-35, { hash: 'sha384', crv: 'P-384' }],
  [-36, { hash: 'sha512', crv: 'P-521' }],
]);

export const COSE_ES256 = -7;

const COSE_CRV: ReadonlyMap<unknown, number> = new Map([
  ['P-256', 1],
  ['P-384', 2],
  ['P-521', 3],
]);
const CRV_OF_COSE = new Map<number, string>([
  [1, 'P-256'],
  [2, 'P-384'],
  [3, 'P-521'],
]);
const COORDINATE_BYTES: ReadonlyMap<unknown, number> = new Map([
  ['P-256', 32],
  ['P-384', 48],
  ['P-521', 66],
]);

/** Sig_structure for COSE_Sign1: what is actually signed. */
export function sigStructure(protectedBytes: Uint8Array, payload: Uint8Array): Uint8Array {
  return cborEncode(['Signature1', protectedBytes, new Uint8Array(0), payload]);
}

/** The algorithm of a protected header, or undefined when absent, unreadable or not an allowed ECDSA one. */
export function ecdsaAlgorithm(protectedHeader: Map<unknown, unknown>): number | undefined {
  const alg = protectedHeader.get(HEADER_ALG);
  return typeof alg === 'number' && ECDSA.has(alg) ? alg : undefined;
}

/**
 * Verifies a raw r||s signature with a public JWK. False (never an exception) for a wrong key, a key on
 * another curve than the algorithm implies, or a key node cannot import: each means "not verified".
 */
export function verifyEcdsa(alg: number, jwk: JsonWebKey, data: Uint8Array, signature: Uint8Array): boolean {
  const spec = ECDSA.get(alg);
  if (!spec || jwk.kty !== 'EC' || jwk.crv !== spec.crv) return false;
  try {
    const key = createPublicKey({ key: { kty: 'EC', crv: jwk.crv, x: jwk.x, y: jwk.y }, format: 'jwk' });
    return verifySignature(spec.hash, data, { key, dsaEncoding: 'ieee-p1363' }, signature);
  } catch {
    return false;
  }
}

/** A public EC JWK as a COSE_Key map (RFC 9053 §7.1.1): kty EC2, crv, x, y. */
export function coseKeyFromJwk(jwk: JsonWebKey): Map<number, number | Uint8Array> {
  const crv = COSE_CRV.get(jwk.crv);
  const size = COORDINATE_BYTES.get(jwk.crv);
  if (jwk.kty !== 'EC' || crv === undefined || size === undefined || typeof jwk.x !== 'string' || typeof jwk.y !== 'string') {
    throw new Error('device key must be a public EC JWK on P-256, P-384 or P-521');
  }
  const x = Buffer.from(jwk.x, 'base64url');
  const y = Buffer.from(jwk.y, 'base64url');
  if (x.length !== size || y.length !== size) throw new Error('device key coordinates have the wrong length');
  return new Map<number, number | Uint8Array>([
    [1, 2],
    [-1, crv],
    [-2, new Uint8Array(x)],
    [-3, new Uint8Array(y)],
  ]);
}

/** A COSE_Key map back to a public JWK; undefined when it is not an EC2 key on a supported curve. */
export function jwkFromCoseKey(key: Map<unknown, unknown>): JsonWebKey | undefined {
  const crv = CRV_OF_COSE.get(key.get(-1) as number);
  const x = key.get(-2);
  const y = key.get(-3);
  if (key.get(1) !== 2 || crv === undefined || !(x instanceof Uint8Array) || !(y instanceof Uint8Array)) return undefined;
  const size = COORDINATE_BYTES.get(crv);
  if (x.length !== size || y.length !== size) return undefined;
  return { kty: 'EC', crv, x: Buffer.from(x).toString('base64url'), y: Buffer.from(y).toString('base64url') };
}

/** RFC 7638 JWK SHA-256 thumbprint (the bytes OID4VP Annex B puts in the handover for encrypted responses). */
export function jwkThumbprint(jwk: JsonWebKey): Uint8Array {
  let members: Record<string, unknown>;
  if (jwk.kty === 'EC') members = { crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y };
  else if (jwk.kty === 'OKP') members = { crv: jwk.crv, kty: jwk.kty, x: jwk.x };
  else if (jwk.kty === 'RSA') members = { e: jwk.e, kty: jwk.kty, n: jwk.n };
  else throw new Error(`cannot take the thumbprint of a ${String(jwk.kty)} key`);
  for (const [name, value] of Object.entries(members)) {
    if (typeof value !== 'string') throw new Error(`JWK member ${name} is required for its thumbprint`);
  }
  // Members in lexicographic order, no whitespace (RFC 7638 §3.3): the object literals above are ordered.
  return new Uint8Array(createHash('sha256').update(JSON.stringify(members)).digest());
}
