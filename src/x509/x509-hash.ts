import { createHash } from 'node:crypto';
import type { Der } from './pem';

/**
 * The `x509_hash` client identifier value of OID4VP 1.0 §5.9.3: base64url (no padding) of the
 * SHA-256 digest of the DER encoding of the leaf certificate.
 */
export function x509Hash(leafDer: Der): string {
  return createHash('sha256').update(leafDer).digest('base64url');
}
