import { DataItem, DateOnly, cborDecode, cborEncode } from '@owf/mdoc';
import { invalidInput } from '../../errors';

/**
 * CBOR through @owf/mdoc's own cbor-x configuration: it registers tag 24 (embedded CBOR, kept as the
 * original bytes in a DataItem, so digests and signatures are checked over what was received, not
 * over a re-encoding), tag 0 (tdate, whole seconds as ISO 18013-5 wants) and tag 1004 (full-date).
 */
export { DataItem, DateOnly, cborDecode, cborEncode };

/** Raised while walking a decoded structure that does not have the shape ISO 18013-5 gives it. */
export class MdocShapeError extends Error {
  constructor(readonly path: string, expected: string) {
    super(`${path} must be ${expected}`);
    this.name = 'MdocShapeError';
  }
}

export function asMap(value: unknown, path: string): Map<unknown, unknown> {
  if (!(value instanceof Map)) throw new MdocShapeError(path, 'a CBOR map');
  return value;
}

export function asArray(value: unknown, path: string): unknown[] {
  if (!Array.isArray(value)) throw new MdocShapeError(path, 'a CBOR array');
  return value;
}

export function asBytes(value: unknown, path: string): Uint8Array {
  if (!(value instanceof Uint8Array)) throw new MdocShapeError(path, 'a byte string');
  return value;
}

export function asText(value: unknown, path: string): string {
  if (typeof value !== 'string') throw new MdocShapeError(path, 'a text string');
  return value;
}

export function asUint(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw new MdocShapeError(path, 'an unsigned integer');
  return value;
}

export function asDataItem(value: unknown, path: string): DataItem {
  if (!(value instanceof DataItem)) throw new MdocShapeError(path, 'embedded CBOR (tag 24)');
  return value;
}

export function asDate(value: unknown, path: string): Date {
  if (!(value instanceof Date) || Number.isNaN(value.getTime())) throw new MdocShapeError(path, 'a tdate (tag 0)');
  return value;
}

/** The decoded contents of embedded CBOR; a decode failure is a shape error at that path. */
export function dataOf(item: DataItem, path: string): unknown {
  try {
    return item.data;
  } catch {
    throw new MdocShapeError(path, 'well-formed embedded CBOR');
  }
}

/** The tag-24 wrapped encoding of embedded bytes: what ISO 18013-5 digests and signs (…Bytes = #6.24(bstr)). */
export function taggedBytes(item: DataItem): Uint8Array {
  return cborEncode(item);
}

/**
 * Accepts raw bytes or their base64url text (how OID4VCI and OID4VP carry mdoc structures) and
 * refuses anything larger than `maxBytes` before decoding it.
 */
export function bytesFrom(input: Uint8Array | string, what: string, maxBytes: number): Uint8Array {
  let bytes: Uint8Array;
  if (typeof input === 'string') {
    if (!/^[A-Za-z0-9_-]*$/.test(input)) throw invalidInput(`${what} must be base64url`);
    if (Math.ceil((input.length * 3) / 4) > maxBytes) throw invalidInput(`${what} is larger than ${maxBytes} bytes`);
    bytes = new Uint8Array(Buffer.from(input, 'base64url'));
  } else if (input instanceof Uint8Array) {
    bytes = input;
  } else {
    throw invalidInput(`${what} must be bytes or base64url text`);
  }
  if (bytes.length === 0) throw invalidInput(`${what} is empty`);
  if (bytes.length > maxBytes) throw invalidInput(`${what} is larger than ${maxBytes} bytes`);
  return bytes;
}

/** Decodes CBOR, turning any decoder failure (truncation, bad tags, runaway nesting) into INVALID_INPUT. */
export function decodeCbor(bytes: Uint8Array, what: string): unknown {
  try {
    return cborDecode<unknown>(bytes, { unwrapTopLevelDataItem: false });
  } catch {
    throw invalidInput(`${what} is not well-formed CBOR`);
  }
}
