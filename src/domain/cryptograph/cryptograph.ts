import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { AppError } from '../../errors';
import { canonicalBytes, canonicalize } from '../canonical';
import { activeJsonLdBudget, assertWithinJsonLdBudget } from '../contexts';
import { ed25519Verify, parseEd25519PublicKey } from '../keys';
import { base45DecodeStrict, base45Encode } from './base45-strict';
import { parseCompactJws, signCompactEdDsaJws } from './compact-jws';

/**
 * A cryptograph is a compact, signed, QR-ready encoding of a credential:
 *
 *   "CG1:" + base45( deflateRaw( compact EdDSA JWS ) )
 *
 * The JWS payload is the RFC 8785 JSON of the credential and its protected header is
 * `{"alg":"EdDSA","kid":<issuer key id>}`. Base45 (RFC 9285) uses only characters of the QR
 * alphanumeric mode (5.5 bits per character instead of 8 in byte mode), the same layering the
 * EU Digital COVID Certificate uses (with CBOR/COSE there, JSON/JWS here).
 */
export const CRYPTOGRAPH_PREFIX = 'CG1:';
/**
 * Cap on the inflated JWS: stops a small text from expanding into a decompression bomb. A QR code
 * holds at most 3391 characters (about 2.5 KB of deflate), so 256 KiB is far above any printable
 * cryptograph while bounding what the JSON parse and the structural budget check may cost.
 */
export const MAX_CRYPTOGRAPH_INFLATED_BYTES = 256 * 1024;
/** Cap on the text itself, checked before any decoding work (about 43 KB of deflate). */
export const MAX_CRYPTOGRAPH_TEXT_LENGTH = 64 * 1024;
const MAX_KID_LENGTH = 1024;

export interface CryptographSigner {
  /** The issuer's 32-byte Ed25519 seed. */
  seed: Uint8Array;
  /** Key id placed in the protected header, e.g. `<issuer DID>#did-root-key`. */
  kid: string;
}

export interface DecodedCryptograph {
  credential: Record<string, unknown>;
  kid: string;
  /**
   * Checks the signature with the issuer's Ed25519 public key (bytes or padded base64). Returns
   * false, never throws, for a wrong, malformed or small-order key or a bad signature.
   */
  verify(publicKey: Uint8Array | string): boolean;
}

function malformed(reason: string): AppError {
  const message = `cryptograph is malformed: ${reason}`;
  return new AppError('INVALID_INPUT', message, [{ field: 'cryptograph', message }]);
}

/**
 * Encodes and signs a credential as a cryptograph. Deterministic for a given credential and key.
 *
 * @throws AppError INVALID_INPUT when the credential is not a JSON object or the kid is empty;
 * INVALID_PRIVATE_KEY when the seed is not 32 bytes.
 */
export function encodeCryptograph(credential: object, signer: CryptographSigner): string {
  if (credential === null || typeof credential !== 'object' || Array.isArray(credential)) {
    throw new AppError('INVALID_INPUT', 'credential must be a JSON object');
  }
  const { kid } = signer;
  if (typeof kid !== 'string' || kid.length === 0 || kid.length > MAX_KID_LENGTH) {
    throw new AppError('INVALID_INPUT', `kid must be a non-empty string of at most ${MAX_KID_LENGTH} characters`);
  }
  const jws = signCompactEdDsaJws({ kid }, canonicalBytes(credential), signer.seed);
  const compressed = deflateRawSync(Buffer.from(jws, 'ascii'), { level: 9 });
  return CRYPTOGRAPH_PREFIX + base45Encode(compressed);
}

function inflate(bytes: Uint8Array): Buffer {
  let result: { buffer: Buffer; engine: { bytesWritten: number } };
  try {
    // `info: true` exposes how much input the stream consumed (the typings do not model it).
    result = inflateRawSync(bytes, { maxOutputLength: MAX_CRYPTOGRAPH_INFLATED_BYTES, info: true }) as unknown as typeof result;
  } catch (e) {
    // Checked by code, not `instanceof RangeError`: the error may come from another realm.
    if ((e as { code?: unknown } | null)?.code === 'ERR_BUFFER_TOO_LARGE') {
      throw malformed(`inflates to more than ${MAX_CRYPTOGRAPH_INFLATED_BYTES} bytes`);
    }
    throw malformed('not a raw deflate stream');
  }
  // zlib stops at the end-of-stream marker and ignores what follows; bytes after it are refused.
  if (result.engine.bytesWritten !== bytes.length) throw malformed('trailing bytes after the deflate stream');
  return result.buffer;
}

function isHeader(h: unknown): h is { alg: 'EdDSA'; kid: string } {
  if (h === null || typeof h !== 'object' || Array.isArray(h)) return false;
  const r = h as Record<string, unknown>;
  const keys = Object.keys(r).sort();
  if (keys.length !== 2 || keys[0] !== 'alg' || keys[1] !== 'kid') return false;
  return r.alg === 'EdDSA' && typeof r.kid === 'string' && r.kid.length > 0;
}

/**
 * Decodes a cryptograph without trusting it: the returned `verify` must be called with the
 * issuer's public key (resolved from `kid` by the caller) before the credential is believed.
 *
 * Note: the deflate stream's last byte may carry up to 7 unused padding bits that inflate
 * ignores. Editing only those changes no decoded byte, hence neither the credential nor its
 * signature; every other edit is refused here or fails `verify`.
 *
 * The signature covers the JWS inside the deflate stream, so it cannot be checked before
 * inflating; inflation is therefore capped ({@link MAX_CRYPTOGRAPH_INFLATED_BYTES}) and the credential
 * must fit the JSON-LD structural budget. Callers must check `verify` before canonicalising the
 * credential (its Linked Data proof), so a forged cryptograph never costs a canonicalisation.
 *
 * @throws AppError INVALID_INPUT for a wrong prefix, invalid base45, a corrupt or oversized
 * deflate stream, or a JWS that is not ours (header other than alg EdDSA + kid, non-canonical
 * or non-object payload, signature not 64 bytes); DOCUMENT_TOO_LARGE (413) for a credential over
 * the JSON-LD structural budget.
 */
export function decodeCryptograph(text: unknown): DecodedCryptograph {
  if (typeof text !== 'string') throw malformed('not a string');
  if (text.length > MAX_CRYPTOGRAPH_TEXT_LENGTH) throw malformed('too long');
  if (!text.startsWith(CRYPTOGRAPH_PREFIX)) throw malformed(`missing the ${CRYPTOGRAPH_PREFIX} prefix`);
  const compressed = base45DecodeStrict(text.slice(CRYPTOGRAPH_PREFIX.length));
  if (compressed === undefined || compressed.length === 0) throw malformed('invalid base45');
  const inflated = inflate(compressed);
  let jwsText: string;
  try {
    jwsText = new TextDecoder('utf-8', { fatal: true }).decode(inflated);
  } catch {
    throw malformed('not text');
  }
  const jws = parseCompactJws(jwsText);
  if (!jws) throw malformed('not a compact JWS');
  if (!isHeader(jws.header)) throw malformed('the JWS header must be exactly alg EdDSA and a kid');
  if (jws.signature.length !== 64) throw malformed('the signature is not 64 bytes');
  let payloadText: string;
  let credential: unknown;
  try {
    payloadText = new TextDecoder('utf-8', { fatal: true }).decode(jws.payload);
    credential = JSON.parse(payloadText);
  } catch {
    throw malformed('the payload is not JSON');
  }
  if (credential === null || typeof credential !== 'object' || Array.isArray(credential)) {
    throw malformed('the payload is not a JSON object');
  }
  // A few hundred bytes of deflate can carry thousands of identical blank nodes whose JSON-LD
  // canonicalisation would cost seconds: refuse them here (413), before anyone canonicalises.
  assertWithinJsonLdBudget(credential, activeJsonLdBudget(), 'cryptograph');
  // One spelling per credential: also rejects duplicate keys, which JSON.parse would merge.
  if (canonicalize(credential) !== payloadText) throw malformed('the payload is not RFC 8785 canonical JSON');
  const { signature, signingInput } = jws;
  return {
    credential: credential as Record<string, unknown>,
    kid: jws.header.kid,
    verify(publicKey: Uint8Array | string): boolean {
      let key: Uint8Array;
      try {
        key = parseEd25519PublicKey(publicKey);
      } catch {
        return false;
      }
      return ed25519Verify(signature, signingInput, key);
    },
  };
}
