import { canonicalize } from '../canonical';
import { base64UrlToBytes, bytesToBase64Url } from '../encoding';
import { ed25519Sign } from '../keys';

const ascii = new TextEncoder();

export interface CompactJwsParts {
  header: unknown;
  payload: Uint8Array;
  signature: Uint8Array;
  /** `ASCII(b64url(header) '.' b64url(payload))`, what the signature covers (RFC 7515 §5.1). */
  signingInput: Uint8Array;
}

/**
 * Signs `payload` as an RFC 7515 compact JWS with EdDSA / Ed25519 (RFC 8037). The protected
 * header is serialised as RFC 8785 JSON, so the same inputs always give the same string
 * (Ed25519 is deterministic): `{"alg":"EdDSA"}` reproduces RFC 8037 Appendix A.4.
 */
export function signCompactEdDsaJws(header: Record<string, unknown>, payload: Uint8Array, seed: Uint8Array): string {
  const encodedHeader = bytesToBase64Url(ascii.encode(canonicalize({ ...header, alg: 'EdDSA' })));
  const signingInput = `${encodedHeader}.${bytesToBase64Url(payload)}`;
  const signature = ed25519Sign(ascii.encode(signingInput), seed);
  return `${signingInput}.${bytesToBase64Url(signature)}`;
}

/** Splits a compact JWS into its decoded parts; undefined when it is not three base64url segments with a JSON header. */
export function parseCompactJws(jws: string): CompactJwsParts | undefined {
  const parts = jws.split('.');
  if (parts.length !== 3) return undefined;
  const [h, p, s] = parts as [string, string, string];
  try {
    const header: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(base64UrlToBytes(h)));
    return {
      header,
      payload: base64UrlToBytes(p),
      signature: base64UrlToBytes(s),
      signingInput: ascii.encode(`${h}.${p}`),
    };
  } catch {
    return undefined;
  }
}
