import { AppError } from '../../errors';

const HEX_RE = /^(?:[0-9a-fA-F]{2})*$/;

/**
 * Decodes a hex string strictly: even length, hex digits only (either case), no `0x` prefix,
 * no whitespace. Anything else is an `INVALID_INPUT` naming `field` (never echoing the value,
 * which may be key material).
 */
export function hexToBytes(hex: string, field = 'value'): Uint8Array {
  if (typeof hex !== 'string' || !HEX_RE.test(hex)) {
    const message = `${field} must be an even-length hex string without 0x prefix`;
    throw new AppError('INVALID_INPUT', message, [{ field, message }]);
  }
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) {
    out[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  }
  return out;
}

/** Encodes bytes as lowercase hex. */
export function bytesToHex(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}
