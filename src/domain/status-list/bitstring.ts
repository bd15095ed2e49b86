import { gunzipSync, gzipSync } from 'node:zlib';
import { AppError } from '../../errors';
import { base64UrlToBytes, bytesToBase64Url } from '../encoding/base64';

/**
 * W3C Bitstring Status List v1.0 §4.1: "the uncompressed bitstring MUST be at least 16KB in size"
 * (131,072 entries), so that a single list gives holders herd privacy.
 */
export const MIN_BITSTRING_BITS = 131_072;

/**
 * Upper bound of a decoded list (16 MiB = 134,217,728 entries). A few dozen bytes of gzip can
 * inflate to gigabytes, so decoding stops at this size instead of trusting the input.
 */
export const MAX_BITSTRING_BYTES = 16 * 1024 * 1024;

function invalid(field: string, message: string): AppError {
  return new AppError('INVALID_INPUT', message, [{ field, message }]);
}

/**
 * A fixed-length bitstring with the bit order of W3C Bitstring Status List v1.0 §3.1 and §4:
 * index 0 is the left-most bit of the bitstring, i.e. the most significant bit of byte 0, index 7
 * the least significant bit of byte 0, index 8 the most significant bit of byte 1.
 *
 * The length is always a whole number of bytes, because the list is stored and compressed as bytes.
 */
export class Bitstring {
  private readonly bytes: Uint8Array;

  /** Creates an all-zero bitstring of `length` bits (default and recommended minimum: 131,072). */
  constructor(length: number = MIN_BITSTRING_BITS) {
    if (!Number.isSafeInteger(length) || length <= 0 || length % 8 !== 0) {
      throw invalid('length', 'bitstring length must be a positive multiple of 8');
    }
    if (length / 8 > MAX_BITSTRING_BYTES) {
      throw invalid('length', `bitstring length must be at most ${MAX_BITSTRING_BYTES * 8} bits`);
    }
    this.bytes = new Uint8Array(length / 8);
  }

  /** Wraps a copy of `bytes` (at least one byte, at most {@link MAX_BITSTRING_BYTES}). */
  static fromBytes(bytes: Uint8Array): Bitstring {
    if (bytes.length === 0) throw invalid('encodedList', 'bitstring must not be empty');
    const out = new Bitstring(bytes.length * 8);
    out.bytes.set(bytes);
    return out;
  }

  /** Number of bits (entries). */
  get length(): number {
    return this.bytes.length * 8;
  }

  /** Value of the bit at `index`; `INVALID_INPUT` outside [0, length). */
  get(index: number): boolean {
    this.checkIndex(index);
    return ((this.bytes[index >>> 3] ?? 0) & (0x80 >>> (index & 7))) !== 0;
  }

  /** Sets (true) or clears (false) the bit at `index`. */
  set(index: number, value: boolean): void {
    this.checkIndex(index);
    const byte = index >>> 3;
    const mask = 0x80 >>> (index & 7);
    const current = this.bytes[byte] ?? 0;
    this.bytes[byte] = value ? current | mask : current & ~mask;
  }

  /** A copy of the underlying bytes. */
  toBytes(): Uint8Array {
    return Uint8Array.from(this.bytes);
  }

  /** True when both bitstrings have the same length and bits. */
  equals(other: Bitstring): boolean {
    if (other.bytes.length !== this.bytes.length) return false;
    return this.bytes.every((b, i) => b === other.bytes[i]);
  }

  private checkIndex(index: number): void {
    if (!Number.isSafeInteger(index) || index < 0 || index >= this.length) {
      throw invalid('statusListIndex', `status list index must be an integer in [0, ${this.length - 1}]`);
    }
  }
}

/**
 * Bitstring Status List §3.1 "Bitstring Generation": GZIP-compress the bytes and encode them as
 * multibase base64url without padding (prefix `u`).
 *
 * The gzip header's mtime is zero (Node's default), so the same bits always give the same text.
 */
export function encodeList(bits: Bitstring): string {
  return `u${bytesToBase64Url(gzipSync(bits.toBytes()))}`;
}

/**
 * Bitstring Status List §3.2 "Bitstring Expansion": the inverse of {@link encodeList}.
 *
 * Rejects with `INVALID_INPUT` a missing `u` prefix, non-canonical or padded base64url, data that
 * is not gzip, trailing garbage, an empty list and lists inflating beyond `maxBytes`. The spec's
 * 16 KB minimum is an issuer obligation, so a shorter (but non-empty) list still decodes; a
 * verifier compares the index against {@link Bitstring.length}.
 */
export function decodeList(encoded: string, maxBytes: number = MAX_BITSTRING_BYTES): Bitstring {
  const field = 'encodedList';
  if (typeof encoded !== 'string' || !encoded.startsWith('u')) {
    throw invalid(field, 'encodedList must be multibase base64url (prefix u)');
  }
  // base64url of gzip output is ~1.37x its size; a generous bound stops huge strings early.
  if (encoded.length > maxBytes * 2 + 64) throw invalid(field, 'encodedList is too long');
  const compressed = base64UrlToBytes(encoded.slice(1), field);
  let inflated: Buffer;
  try {
    inflated = gunzipSync(compressed, { maxOutputLength: maxBytes });
  } catch (e) {
    const tooLarge = (e as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE';
    throw invalid(field, tooLarge ? `encodedList inflates beyond ${maxBytes} bytes` : 'encodedList is not valid gzip data');
  }
  if (inflated.length === 0) throw invalid(field, 'encodedList decodes to an empty bitstring');
  return Bitstring.fromBytes(inflated);
}
