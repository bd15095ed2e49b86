import { AppError } from '../errors';

/** A DER-encoded X.509 certificate (or key), as x5c entries carry it once base64-decoded. */
export type Der = Uint8Array;

/** Enough for any real chain; a bigger bundle is an operator's mistake or an attack on the parser. */
const MAX_PEM_BLOCKS = 64;
const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/g;

/** Every `-----BEGIN <label>-----` block of `text` in order, decoded to DER. */
export function pemBlocks(text: string, label: string): Der[] {
  const out: Der[] = [];
  for (const m of text.matchAll(PEM_BLOCK)) {
    if (m[1] !== label) continue;
    if (out.length >= MAX_PEM_BLOCKS) throw new AppError('INVALID_INPUT', `more than ${MAX_PEM_BLOCKS} PEM blocks`);
    const body = (m[2] ?? '').replace(/\s+/g, '');
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(body)) throw new AppError('INVALID_INPUT', `a PEM ${label} block is not base64`);
    out.push(new Uint8Array(Buffer.from(body, 'base64')));
  }
  return out;
}

/** The certificates of a PEM bundle, in file order (a chain file lists the leaf first). */
export function parsePemCertificates(text: string): Der[] {
  return pemBlocks(text, 'CERTIFICATE');
}

/** PEM text of one DER value, 64 characters a line (RFC 7468). */
export function toPem(der: Der, label = 'CERTIFICATE'): string {
  const b64 = Buffer.from(der).toString('base64');
  const lines = b64.match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

/** An x5c member (RFC 7515 §4.1.6: standard base64 of DER, not base64url). */
export function derToX5c(der: Der): string {
  return Buffer.from(der).toString('base64');
}

/** DER of an x5c member; refuses anything that is not strict standard base64 (INVALID_INPUT). */
export function x5cToDer(value: unknown): Der {
  if (typeof value !== 'string' || value.length === 0 || value.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(value)) {
    throw new AppError('INVALID_INPUT', 'an x5c entry is not base64-encoded DER');
  }
  return new Uint8Array(Buffer.from(value, 'base64'));
}
