import { AppError } from '../../errors';
import { Bitstring, MAX_BITSTRING_BYTES, MIN_BITSTRING_BITS, decodeList, encodeList } from '../../domain/status-list';

/** Bitstring Status List v1.0 §4.1: at least 16 KB uncompressed (131,072 entries), for herd privacy. */
export const MIN_STATUS_LIST_BYTES = MIN_BITSTRING_BITS / 8;

/**
 * `encodedList` of a BitstringStatusList (§3.1): GZIP of the bytes, multibase base64url (`u…`).
 * Bit 0 is the left-most bit (the most significant bit of byte 0). Lists shorter than the
 * spec's 16 KB minimum are refused: an issuer must not publish them.
 */
export function encodeStatusList(bits: Uint8Array): string {
  if (!(bits instanceof Uint8Array) || bits.length < MIN_STATUS_LIST_BYTES) {
    const message = `a status list must be at least ${MIN_STATUS_LIST_BYTES} bytes (${MIN_BITSTRING_BITS} entries)`;
    throw new AppError('INVALID_INPUT', message, [{ field: 'bits', message }]);
  }
  return encodeList(Bitstring.fromBytes(bits));
}

/**
 * The bytes of an `encodedList` (§3.2). Inflation stops at `maxBytes` (default 16 MiB), so a
 * few bytes of gzip cannot make the process hold gigabytes; INVALID_INPUT for anything malformed.
 */
export function decodeStatusList(encoded: string, maxBytes: number = MAX_BITSTRING_BYTES): Uint8Array {
  return decodeList(encoded, maxBytes).toBytes();
}

/** The value of entry `index` of a list of `statusSize`-bit entries (bit 0 left-most); undefined past the end. */
export function statusValue(bits: Uint8Array, index: number, statusSize = 1): number | undefined {
  if (!Number.isSafeInteger(index) || index < 0 || !Number.isSafeInteger(statusSize) || statusSize < 1 || statusSize > 32) return undefined;
  const first = index * statusSize;
  if (first + statusSize > bits.length * 8) return undefined;
  let value = 0;
  for (let i = first; i < first + statusSize; i++) {
    value = value * 2 + (((bits[i >>> 3] ?? 0) >>> (7 - (i & 7))) & 1);
  }
  return value;
}

/** A copy of `bits` with the bit at `index` set or cleared (for issuers flipping status). */
export function withStatusBit(bits: Uint8Array, index: number, set: boolean): Uint8Array {
  const b = Bitstring.fromBytes(bits);
  b.set(index, set);
  return b.toBytes();
}
