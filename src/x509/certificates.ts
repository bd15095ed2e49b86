import { randomBytes } from 'node:crypto';
import * as x509 from './peculiar';
import { AppError } from '../errors';
import { ECDSA_P256, ECDSA_SHA256, type WebCryptoKey, type WebCryptoKeyPair, x509Crypto } from './crypto';
import type { Der } from './pem';

/** A certification authority this process can sign with: its certificate and private key. */
export interface CertificateAuthority {
  readonly certificate: Der;
  readonly privateKey: WebCryptoKey;
}

/** A distinguished name built from attributes, never from a string the caller would have to escape. */
export interface DistinguishedName {
  readonly commonName: string;
  readonly organization?: string;
  readonly country?: string;
}

export interface Validity {
  readonly notBefore: Date;
  readonly notAfter: Date;
}

export interface LeafOptions extends Validity {
  readonly issuer: CertificateAuthority;
  readonly subject: DistinguishedName;
  /** The subject's public key (only the public half is needed). */
  readonly publicKey: WebCryptoKey;
  /** SAN dNSName entries (HAIP x509_san_dns: the host the client identifier names). */
  readonly dnsNames?: readonly string[];
  /** SAN uniformResourceIdentifier entries (e.g. an `iss` URL). */
  readonly uris?: readonly string[];
}

export interface IntermediateOptions extends Validity {
  readonly issuer: CertificateAuthority;
  readonly subject: DistinguishedName;
  readonly publicKey: WebCryptoKey;
  /** basicConstraints pathLenConstraint; 0: it may issue leaves only. */
  readonly pathLength?: number;
}

export interface RootOptions extends Validity {
  readonly subject: DistinguishedName;
  /** An existing key pair (e.g. unsealed from storage); a fresh P-256 pair when absent. */
  readonly keys?: WebCryptoKeyPair;
}

function jsonName(n: DistinguishedName): x509.JsonName {
  return [{ CN: [n.commonName] }, ...(n.organization ? [{ O: [n.organization] }] : []), ...(n.country ? [{ C: [n.country] }] : [])];
}

/** 16 random bytes with the top bit clear: a positive serial of at most 20 octets (RFC 5280 §4.1.2.2). */
function serialNumber(): string {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0]! & 0x7f) | 0x01;
  return bytes.toString('hex');
}

function checkValidity(v: Validity): void {
  if (!(v.notBefore instanceof Date) || !(v.notAfter instanceof Date) || Number.isNaN(v.notBefore.getTime()) || Number.isNaN(v.notAfter.getTime()) || v.notAfter <= v.notBefore) {
    throw new AppError('INVALID_INPUT', 'a certificate validity needs notBefore before notAfter');
  }
}

const DNS_NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;

function sanEntries(dnsNames: readonly string[] = [], uris: readonly string[] = []): x509.JsonGeneralName[] {
  for (const d of dnsNames) if (!DNS_NAME.test(d)) throw new AppError('INVALID_INPUT', `not a DNS name: ${JSON.stringify(d)}`);
  for (const u of uris) {
    try {
      new URL(u);
    } catch {
      throw new AppError('INVALID_INPUT', `not a URI: ${JSON.stringify(u)}`);
    }
  }
  return [...dnsNames.map((value) => ({ type: 'dns' as const, value })), ...uris.map((value) => ({ type: 'url' as const, value }))];
}

/** A fresh extractable P-256 key pair (extractable so the caller can seal the private key). */
export async function generateP256KeyPair(): Promise<WebCryptoKeyPair> {
  return (await x509Crypto.subtle.generateKey(ECDSA_P256, true, ['sign', 'verify'])) as unknown as WebCryptoKeyPair;
}

/**
 * A self-signed root CA (P-256, basicConstraints CA critical, keyCertSign + cRLSign). For tests,
 * and for a deployment that was given no issuing CA (the service logs a warning when it makes one).
 */
export async function createRootCa(options: RootOptions): Promise<CertificateAuthority & { keys: WebCryptoKeyPair }> {
  checkValidity(options);
  const keys = options.keys ?? (await generateP256KeyPair());
  const cert = await x509.X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: serialNumber(),
      name: jsonName(options.subject),
      notBefore: options.notBefore,
      notAfter: options.notAfter,
      signingAlgorithm: ECDSA_SHA256,
      keys: keys,
      extensions: [
        new x509.BasicConstraintsExtension(true, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
        await x509.SubjectKeyIdentifierExtension.create(keys.publicKey, false, x509Crypto),
      ],
    },
    x509Crypto,
  );
  return { certificate: new Uint8Array(cert.rawData), privateKey: keys.privateKey, keys };
}

async function issue(
  issuer: CertificateAuthority,
  subject: DistinguishedName,
  publicKey: WebCryptoKey,
  validity: Validity,
  extensions: x509.Extension[],
): Promise<Der> {
  checkValidity(validity);
  const issuerCert = new x509.X509Certificate(issuer.certificate);
  const cert = await x509.X509CertificateGenerator.create(
    {
      serialNumber: serialNumber(),
      subject: jsonName(subject),
      issuer: issuerCert.subjectName,
      notBefore: validity.notBefore,
      notAfter: validity.notAfter,
      signingAlgorithm: ECDSA_SHA256,
      publicKey: publicKey,
      signingKey: issuer.privateKey,
      extensions: [
        ...extensions,
        await x509.SubjectKeyIdentifierExtension.create(publicKey, false, x509Crypto),
        await x509.AuthorityKeyIdentifierExtension.create(issuerCert.publicKey, false, x509Crypto),
      ],
    },
    x509Crypto,
  );
  return new Uint8Array(cert.rawData);
}

/** An end-entity certificate: not a CA, digitalSignature only, with the SAN entries given. */
export async function issueLeafCertificate(options: LeafOptions): Promise<Der> {
  const san = sanEntries(options.dnsNames, options.uris);
  return issue(options.issuer, options.subject, options.publicKey, options, [
    new x509.BasicConstraintsExtension(false, undefined, true),
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
    ...(san.length > 0 ? [new x509.SubjectAlternativeNameExtension(san, false)] : []),
  ]);
}

/** An intermediate CA certificate (for operators' chains and the chain-validation tests). */
export async function issueIntermediateCertificate(options: IntermediateOptions): Promise<Der> {
  return issue(options.issuer, options.subject, options.publicKey, options, [
    new x509.BasicConstraintsExtension(true, options.pathLength, true),
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
  ]);
}
