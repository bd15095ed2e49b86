import * as base45 from 'base45';

/** The RFC 9285 alphabet; every character is also in the QR alphanumeric set. */
export const BASE45_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:';

export function base45Encode(bytes: Uint8Array): string {
  return base45.encode(bytes);
}

/**
 * Strict RFC 9285 decoding. The `base45` package maps unknown characters to -1 and wraps
 * out-of-range groups silently, so the input is checked first (§4.3): only alphabet characters,
 * no dangling single character, a triple at most 65535 and a trailing pair at most 255. Each byte
 * string then has exactly one accepted spelling. Returns undefined for invalid text.
 */
export function base45DecodeStrict(text: string): Uint8Array | undefined {
  if (text.length % 3 === 1) return undefined;
  const values: number[] = [];
  for (const ch of text) {
    const v = BASE45_ALPHABET.indexOf(ch);
    if (v < 0) return undefined;
    values.push(v);
  }
  for (let i = 0; i < values.length; i += 3) {
    const [c, d, e] = [values[i] as number, values[i + 1] as number, values[i + 2]];
    const n = e === undefined ? c + d * 45 : c + d * 45 + e * 2025;
    if (n > (e === undefined ? 0xff : 0xffff)) return undefined;
  }
  return new Uint8Array(base45.decode(text));
}
