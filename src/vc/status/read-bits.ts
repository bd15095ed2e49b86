import { createGunzip } from 'node:zlib';
import { AppError } from '../../errors';
import { MIN_BITSTRING_BITS } from '../../domain/status-list';
import { base64UrlToBytes } from '../../domain/encoding/base64';
import type { RequestBudget } from '../net/request-budget';

/** One entry to read: `size` bits from bit `index * size` (bit 0 is the most significant bit of byte 0). */
export interface BitRequest {
  readonly index: number;
  readonly size: number;
}

export interface ReadBits {
  /** The value of each request, in order; undefined when the list ends before it. */
  readonly values: (number | undefined)[];
  /** Length of the whole list in bytes, known only when inflation reached its end. */
  readonly totalBytes?: number;
}

const invalid = (message: string): AppError => new AppError('INVALID_INPUT', message, [{ field: 'encodedList', message }]);

/** Bytes a request needs the list to reach: its own bits, and the §4.1 minimum of 131,072 entries of its size. */
function bytesNeeded(r: BitRequest): number {
  return Math.max(Math.ceil(((r.index + 1) * r.size) / 8), Math.ceil((MIN_BITSTRING_BITS * r.size) / 8));
}

/**
 * The uncompressed size a gzip stream declares in its trailer (ISIZE, RFC 1952 §2.3.1), read
 * from the last characters of the base64url text without decoding the rest. It can lie (and is
 * modulo 2^32), so it only refuses honest bombs early; inflation enforces the real bound.
 */
export function declaredInflatedSize(encoded: string): number | undefined {
  if (!encoded.startsWith('u')) return undefined;
  const text = encoded.slice(1);
  const start = text.length - (text.length % 4) - 8;
  if (start < 0) return undefined;
  const tail = Buffer.from(text.slice(start), 'base64url');
  return tail.length < 4 ? undefined : tail.readUInt32LE(tail.length - 4);
}

/**
 * Reads the requested entries of an `encodedList` (Bitstring Status List §3.2) without keeping
 * the list: a streaming gunzip (its work runs on libuv's thread pool, off the event loop) is
 * stopped as soon as the furthest byte any request needs has passed, and only those few bytes
 * are kept. A 16 MiB list read at index 5 inflates 16 KiB (the spec's minimum, checked), not
 * 16 MiB, and nothing is copied byte by byte on the main thread. Inflated bytes are charged to
 * the request's budget; a list inflating beyond `maxBytes` is refused (INVALID_INPUT).
 */
export async function readStatusBits(encoded: string, wanted: readonly BitRequest[], options: { readonly maxBytes: number; readonly budget?: RequestBudget }): Promise<ReadBits> {
  const { maxBytes, budget } = options;
  if (typeof encoded !== 'string' || !encoded.startsWith('u')) throw invalid('encodedList must be multibase base64url (prefix u)');
  // base64url of gzip output is ~1.37x its size; a generous bound stops huge strings early.
  if (encoded.length > maxBytes * 2 + 64) throw invalid('encodedList is too long');
  const compressed = base64UrlToBytes(encoded.slice(1), 'encodedList');
  const stopAt = Math.min(Math.max(1, ...wanted.map(bytesNeeded)), maxBytes + 1);
  // The bytes each request's bits fall in (a 32-bit entry spans at most 5 bytes).
  const needed = new Map<number, number | undefined>();
  for (const r of wanted) {
    const first = r.index * r.size;
    for (let b = Math.floor(first / 8); b <= Math.floor((first + r.size - 1) / 8); b += 1) needed.set(b, undefined);
  }
  const positions = [...needed.keys()].sort((a, b) => a - b);

  const inflated = await new Promise<{ bytes: number; ended: boolean }>((resolve, reject) => {
    const gunzip = createGunzip({ chunkSize: 64 * 1024 });
    let offset = 0;
    let next = 0;
    let settled = false;
    const finish = (outcome: { bytes: number; ended: boolean } | Error): void => {
      if (settled) return;
      settled = true;
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
      gunzip.destroy();
    };
    gunzip.on('data', (chunk: Buffer) => {
      if (settled) return;
      try {
        budget?.chargeDecoded(chunk.length);
      } catch (e) {
        return finish(e as Error);
      }
      const end = offset + chunk.length;
      while (next < positions.length && positions[next]! < end) {
        const p = positions[next]!;
        if (p >= offset) needed.set(p, chunk[p - offset]);
        next += 1;
      }
      offset = end;
      if (offset > maxBytes) return finish(invalid(`encodedList inflates beyond ${maxBytes} bytes`));
      if (offset >= stopAt) finish({ bytes: offset, ended: false });
    });
    gunzip.on('end', () => finish({ bytes: offset, ended: true }));
    gunzip.on('error', () => finish(invalid('encodedList is not valid gzip data')));
    gunzip.end(compressed);
  });
  if (inflated.ended && inflated.bytes === 0) throw invalid('encodedList decodes to an empty bitstring');

  const values = wanted.map((r) => {
    const first = r.index * r.size;
    let value = 0;
    for (let i = first; i < first + r.size; i += 1) {
      const byte = needed.get(i >>> 3);
      if (byte === undefined) return undefined;
      value = value * 2 + ((byte >>> (7 - (i & 7))) & 1);
    }
    return value;
  });
  return inflated.ended ? { values, totalBytes: inflated.bytes } : { values };
}
