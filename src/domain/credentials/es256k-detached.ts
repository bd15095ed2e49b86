import { base64url } from '@scure/base';
import { secp256k1SignMessage, secp256k1VerifyMessage } from '../keys';

/** RFC 7797 unencoded-payload JWS header, ES256K (RFC 8812). */
const HEADER = base64url.encode(new TextEncoder().encode(JSON.stringify({ alg: 'ES256K', b64: false, crit: ['b64'] }))).replace(/=+$/, '');

function signingInput(payload: Uint8Array): Uint8Array {
  const head = new TextEncoder().encode(`${HEADER}.`);
  const out = new Uint8Array(head.length + payload.length);
  out.set(head, 0);
  out.set(payload, head.length);
  return out;
}

/**
 * `<header>..<signature>`: ECDSA secp256k1 over SHA-256 of `ASCII(header) || '.' || payload`, low S.
 * Deterministic (RFC 6979, libsecp256k1): the signature of every Family B credential and status list.
 */
export function signDetachedEs256k(payload: Uint8Array, privateKey: Uint8Array): string {
  const sig = secp256k1SignMessage(signingInput(payload), privateKey);
  return `${HEADER}..${base64url.encode(sig).replace(/=+$/, '')}`;
}

/** False (never throws) for a wrong header, malformed text or a bad signature. */
export function verifyDetachedEs256k(jws: unknown, payload: Uint8Array, publicKey: Uint8Array): boolean {
  if (typeof jws !== 'string') return false;
  const m = /^([A-Za-z0-9_-]+)\.\.([A-Za-z0-9_-]{86})$/.exec(jws);
  if (!m || m[1] !== HEADER) return false;
  try {
    const sig = base64url.decode(m[2]! + '==');
    // One spelling per signature: unused trailing bits must be zero, so an edited JWS never verifies.
    if (base64url.encode(sig).replace(/=+$/, '') !== m[2]) return false;
    return sig.length === 64 && secp256k1VerifyMessage(sig, signingInput(payload), publicKey);
  } catch {
    return false;
  }
}
