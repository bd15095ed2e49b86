import * as x509 from './peculiar';

export interface SubjectAltNames {
  readonly dnsNames: readonly string[];
  readonly uris: readonly string[];
}

/** The dNSName and uniformResourceIdentifier entries of a certificate's subjectAltName (others ignored). */
export function subjectAltNames(cert: x509.X509Certificate): SubjectAltNames {
  const ext = cert.getExtension(x509.SubjectAlternativeNameExtension);
  const items = ext?.names.items ?? [];
  return {
    dnsNames: items.filter((n) => n.type === 'dns').map((n) => n.value),
    uris: items.filter((n) => n.type === 'url').map((n) => n.value),
  };
}

/**
 * Does the leaf name this issuer? `iss` equal to a SAN URI, or an `iss` URL whose host is a SAN
 * dNSName (SD-JWT VC X.509 key resolution; HAIP x509_san_dns). DNS names compare case-insensitively.
 * http is accepted beside https: the certificate authority vouched for the host either way, and a
 * loopback deployment (tests, a laptop) has no TLS.
 */
export function sanNamesIssuer(san: SubjectAltNames, iss: string): boolean {
  if (san.uris.includes(iss)) return true;
  let host: string;
  try {
    const url = new URL(iss);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return false;
    host = url.hostname.toLowerCase();
  } catch {
    return false;
  }
  return san.dnsNames.some((d) => d.toLowerCase() === host);
}

/** Does the leaf carry this DNS name (the `x509_san_dns` client identifier check)? */
export function sanHasDnsName(san: SubjectAltNames, dnsName: string): boolean {
  return san.dnsNames.some((d) => d.toLowerCase() === dnsName.toLowerCase());
}
