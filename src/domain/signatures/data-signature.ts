import { AppError } from '../../errors';
import { canonicalBytes } from '../canonical';
import { bytesToHex, hexToBytes } from '../encoding/hex';
import {
  SECP256K1_SIGNATURE_LENGTH,
  parseSecp256k1PrivateKey,
  parseSecp256k1PublicKey,
  secp256k1SignMessage,
  secp256k1VerifyMessage,
} from '../keys/secp256k1';

const utf8 = new TextEncoder();
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * The bytes that {@link signData} signs and {@link verifyData} checks:
 *
 * - a **string** is signed as-is: the UTF-8 of its characters, *not* JSON-quoted. `"hello"` signs
 *   the five bytes `hello`, so a signature made by any tool over a text message verifies here;
 * - any **other JSON value** (object, array, number, boolean, null) is signed as its RFC 8785
 *   canonical JSON, so key order and whitespace of the caller's JSON do not matter.
 *
 * Consequence of the first rule: the string `'{"a":1}'` and the object `{a: 1}` produce the same
 * bytes and thus the same signature, as do `"5"` and `5`. The signature binds bytes, not a JSON
 * type; callers that need the distinction must sign objects.
 *
 * A string with an unpaired UTF-16 surrogate is rejected (`INVALID_INPUT`), because its UTF-8
 * would silently replace the surrogate; so are values JSON cannot hold (undefined, NaN, ...).
 */
export function dataToSignBytes(data: unknown): Uint8Array {
  if (typeof data === 'string') {
    if (LONE_SURROGATE.test(data)) {
      throw new AppError('INVALID_INPUT', 'data contains an unpaired UTF-16 surrogate', [
        { field: 'data', message: 'data must be well-formed Unicode text' },
      ]);
    }
    return utf8.encode(data);
  }
  return canonicalBytes(data);
}

/**
 * Signs `data` (see {@link dataToSignBytes}) with a secp256k1 private key given as 64 hex digits.
 * Returns the 64-byte compact `r || s` ECDSA signature over SHA-256 of the bytes, as 128 lowercase
 * hex digits. Deterministic (RFC 6979) and low-S, so equal inputs give equal signatures.
 *
 * @throws AppError INVALID_PRIVATE_KEY for a malformed or out-of-range key; INVALID_INPUT for data
 *   that has no byte form.
 */
export function signData(data: unknown, privateKeyHex: string): string {
  const sk = parseSecp256k1PrivateKey(privateKeyHex, 'privateKey');
  return bytesToHex(secp256k1SignMessage(dataToSignBytes(data), sk));
}

/**
 * Verifies a signature made by {@link signData}. Only the 64-byte compact form (128 hex digits) is
 * accepted; DER and 65-byte recoverable signatures are not a supported input format and are
 * rejected as malformed. High-S signatures (the malleated twin of a valid one) verify as false.
 *
 * @returns false for any well-formed signature that does not match; never throws for that.
 * @throws AppError INVALID_INPUT for a signature that is not 128 hex digits or data without a byte
 *   form; INVALID_PUBLIC_KEY for a key that is not a hex SEC1 secp256k1 point (33 or 65 bytes).
 */
export function verifyData(signatureHex: string, data: unknown, publicKeyHex: string): boolean {
  const signature = hexToBytes(signatureHex, 'signature');
  if (signature.length !== SECP256K1_SIGNATURE_LENGTH) {
    const message = 'signature must be a 64-byte compact secp256k1 signature (128 hex digits)';
    throw new AppError('INVALID_INPUT', message, [{ field: 'signature', message }]);
  }
  const publicKey = parseSecp256k1PublicKey(publicKeyHex, 'publicKey');
  return secp256k1VerifyMessage(signature, dataToSignBytes(data), publicKey);
}
