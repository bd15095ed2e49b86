import { canonicalBytes } from '../canonical';

/**
 * What the issuer signs for a ZKP certificate: the certificate bound to one credential id. A
 * certificate copied to another credential, or changed in any entry, no longer verifies.
 */
export function zkpCertificateBytes(credentialId: string, certificate: Readonly<Record<string, boolean>>): Uint8Array {
  return canonicalBytes({ purpose: 'credgate-zkp-certificate/v1', credentialId, certificate });
}
