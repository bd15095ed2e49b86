import { inflateSync, deflateSync } from 'node:zlib';
import { AppError } from '../../errors';

/**
 * The Status List byte array of draft-ietf-oauth-status-list §4.1: `bits` per token (1, 2, 4
 * or 8), token `idx` at byte `idx * bits / 8`, starting from the LEAST significant bit (the
 * opposite of the W3C Bitstring Status List, whose index 0 is the most significant bit).
 * Compressed with DEFLATE in the ZLIB format and base64url-encoded as `lst`.
 */
export type BitsPerStatus = 1 | 2 | 4 | 8;

export const isBitsPerStatus = (v: unknown): v is BitsPerStatus => v === 1 || v === 2 || v === 4 || v === 8;

/** Statuses a list of `bytes` bytes holds. */
export const capacityOf = (bytes: Uint8Array, bits: BitsPerStatus): number => (bytes.length * 8) / bits;

/** The status of `idx`; undefined when the list is shorter. */
export function statusAt(bytes: Uint8Array, bits: BitsPerStatus, idx: number): number | undefined {
  if (!Number.isSafeInteger(idx) || idx < 0) return undefined;
  const bit = idx * bits;
  const byte = bytes[bit >>> 3];
  if (byte === undefined) return undefined;
  return (byte >>> (bit & 7)) & ((1 << bits) - 1);
}

/** A copy of `bytes` with the status of `idx` set to `value`. */
export function withStatus(bytes: Uint8Array, bits: BitsPerStatus, idx: number, value: number): Uint8Array {
  if (statusAt(bytes, bits, idx) === undefined) throw new RangeError(`index ${idx} is outside the list`);
  if (!Number.isInteger(value) || value < 0 || value >= 1 << bits) throw new RangeError(`status ${value} does not fit in ${bits} bits`);
  const out = Uint8Array.from(bytes);
  const bit = idx * bits;
  const mask = ((1 << bits) - 1) << (bit & 7);
  out[bit >>> 3] = (out[bit >>> 3]! & ~mask & 0xff) | (value << (bit & 7));
  return out;
}

/** `lst`: ZLIB (RFC 1950) DEFLATE at the highest compression, base64url without padding. */
export function encodeLst(bytes: Uint8Array): string {
  return deflateSync(bytes, { level: 9 }).toString('base64url');
}

/**
 * The byte array of an `lst`, inflating at most `maxBytes` (a small `lst` may inflate to
 * gigabytes: zlib stops at the bound instead of allocating it).
 *
 * @throws AppError INVALID_INPUT when `lst` is not base64url ZLIB data or inflates past the bound.
 */
export function decodeLst(lst: string, maxBytes: number): Uint8Array {
  if (!/^[A-Za-z0-9_-]+$/.test(lst)) throw new AppError('INVALID_INPUT', 'status list lst is not base64url');
  try {
    return new Uint8Array(inflateSync(Buffer.from(lst, 'base64url'), { maxOutputLength: maxBytes }));
  } catch (e) {
    if (e instanceof RangeError) throw new AppError('INVALID_INPUT', `status list lst inflates beyond ${maxBytes} bytes`);
    throw new AppError('INVALID_INPUT', 'status list lst is not ZLIB-compressed data');
  }
}
