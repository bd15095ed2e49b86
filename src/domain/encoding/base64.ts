import { base64, base64urlnopad } from '@scure/base';
import { AppError } from '../../errors';

/** Standard alphabet, canonical `=` padding to a multiple of 4, nothing else. */
const BASE64_RE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** URL-safe alphabet, no padding; a lone trailing character can never be valid. */
const BASE64URL_RE = /^(?:[A-Za-z0-9_-]{4})*(?:[A-Za-z0-9_-]{2,3})?$/;

function invalid(field: string, what: string): AppError {
  const message = `${field} must be ${what}`;
  return new AppError('INVALID_INPUT', message, [{ field, message }]);
}

/**
 * Decodes standard (RFC 4648 §4) base64 with padding. Rejects whitespace, the URL-safe
 * alphabet, missing or excess padding, and non-zero trailing bits (non-canonical encodings),
 * so that each byte string has exactly one accepted spelling.
 */
export function base64ToBytes(s: string, field = 'value'): Uint8Array {
  if (typeof s !== 'string' || !BASE64_RE.test(s)) throw invalid(field, 'padded standard base64');
  try {
    return base64.decode(s);
  } catch {
    // The library's message may quote input characters, so it is not forwarded.
    throw invalid(field, 'padded standard base64');
  }
}

/** Encodes bytes as standard base64 with padding. */
export function bytesToBase64(bytes: Uint8Array): string {
  return base64.encode(bytes);
}

/**
 * Decodes unpadded base64url (RFC 4648 §5), as used by JOSE (RFC 7515 §2) and multibase 'u'.
 * Padding, whitespace and non-canonical trailing bits are rejected.
 */
export function base64UrlToBytes(s: string, field = 'value'): Uint8Array {
  if (typeof s !== 'string' || !BASE64URL_RE.test(s)) throw invalid(field, 'unpadded base64url');
  try {
    return base64urlnopad.decode(s);
  } catch {
    throw invalid(field, 'unpadded base64url');
  }
}

/** Encodes bytes as unpadded base64url. */
export function bytesToBase64Url(bytes: Uint8Array): string {
  return base64urlnopad.encode(bytes);
}
