import { base58 } from '@scure/base';
import { AppError } from '../../errors';
import { base64UrlToBytes, bytesToBase64Url } from './base64';

/** Multibase prefixes this service reads and writes: base58btc and unpadded base64url. */
export type MultibasePrefix = 'z' | 'u';

/**
 * Multicodec codes (multiformats/multicodec table.csv) of the public key types this service
 * handles, keyed by their table names.
 */
export const MULTICODEC = {
  'ed25519-pub': 0xed,
  'x25519-pub': 0xec,
  'secp256k1-pub': 0xe7,
  'p256-pub': 0x1200,
  'p384-pub': 0x1201,
} as const;

export type MulticodecName = keyof typeof MULTICODEC;

/** The unsigned-varint spec caps encodings at 9 bytes (63 bits). */
const MAX_VARINT_BYTES = 9;

function invalid(field: string, message: string): AppError {
  return new AppError('INVALID_INPUT', message, [{ field, message }]);
}

const BASE58_RE = /^[1-9A-HJ-NP-Za-km-z]*$/;

/** Encodes bytes in base58btc (Bitcoin alphabet), without multibase prefix. */
export function base58btcEncode(bytes: Uint8Array): string {
  return base58.encode(bytes);
}

/** Decodes base58btc (no multibase prefix); characters outside the alphabet are rejected. */
export function base58btcDecode(s: string, field = 'value'): Uint8Array {
  const message = `${field} must be base58btc`;
  if (typeof s !== 'string' || !BASE58_RE.test(s)) throw invalid(field, message);
  try {
    return base58.decode(s);
  } catch {
    throw invalid(field, message);
  }
}

/** Encodes bytes as a multibase string: 'z' = base58btc, 'u' = unpadded base64url. */
export function multibaseEncode(bytes: Uint8Array, prefix: MultibasePrefix): string {
  switch (prefix) {
    case 'z':
      return `z${base58btcEncode(bytes)}`;
    case 'u':
      return `u${bytesToBase64Url(bytes)}`;
    default:
      throw invalid('prefix', 'multibase prefix must be z or u');
  }
}

/**
 * Decodes a multibase string with prefix 'z' (base58btc) or 'u' (base64url, no padding).
 * Other multibase encodings are valid multiformats but deliberately unsupported here.
 */
export function multibaseDecode(str: string, field = 'value'): Uint8Array {
  if (typeof str !== 'string' || str.length === 0) {
    throw invalid(field, `${field} must be a non-empty multibase string`);
  }
  const body = str.slice(1);
  switch (str[0]) {
    case 'z':
      return base58btcDecode(body, field);
    case 'u':
      return base64UrlToBytes(body, field);
    default:
      throw invalid(field, `${field} must be multibase base58btc (z) or base64url (u)`);
  }
}

/** Encodes a non-negative safe integer as an unsigned LEB128 varint (multiformats unsigned-varint). */
export function encodeVarint(value: number): Uint8Array {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw invalid('value', 'varint value must be a non-negative safe integer');
  }
  const out: number[] = [];
  let rest = value;
  // Division instead of bit shifts: shifts truncate to 32 bits.
  while (rest >= 0x80) {
    out.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  out.push(rest);
  return Uint8Array.from(out);
}

/**
 * Decodes an unsigned varint at `offset`. Rejects truncated input, encodings longer than 9 bytes
 * and non-minimal encodings (trailing 0x00 groups), as the unsigned-varint spec requires, so a
 * multicodec prefix has exactly one byte representation.
 */
export function decodeVarint(
  bytes: Uint8Array,
  offset = 0,
  field = 'value',
): { value: number; length: number } {
  let value = 0;
  let scale = 1;
  for (let i = 0; i < MAX_VARINT_BYTES; i++) {
    const b = bytes[offset + i];
    if (b === undefined) throw invalid(field, `${field} has a truncated varint`);
    value += (b & 0x7f) * scale;
    if (!Number.isSafeInteger(value)) throw invalid(field, `${field} has an oversized varint`);
    if ((b & 0x80) === 0) {
      if (b === 0 && i > 0) throw invalid(field, `${field} has a non-minimal varint`);
      return { value, length: i + 1 };
    }
    scale *= 0x80;
  }
  throw invalid(field, `${field} has an oversized varint`);
}

/** Prepends the varint of a multicodec code to `bytes`. */
export function addMulticodecPrefix(code: number, bytes: Uint8Array): Uint8Array {
  const prefix = encodeVarint(code);
  const out = new Uint8Array(prefix.length + bytes.length);
  out.set(prefix, 0);
  out.set(bytes, prefix.length);
  return out;
}

/** Splits a multicodec-prefixed byte string into its code and the remaining data. */
export function splitMulticodecPrefix(
  bytes: Uint8Array,
  field = 'value',
): { code: number; data: Uint8Array } {
  const { value, length } = decodeVarint(bytes, 0, field);
  return { code: value, data: bytes.slice(length) };
}
