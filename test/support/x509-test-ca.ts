import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import {
  type CertificateAuthority,
  createRootCa,
  type Der,
  generateP256KeyPair,
  issueIntermediateCertificate,
  issueLeafCertificate,
  x509Crypto,
} from '../../src/x509';

/** A fixed validity window for tests: certificates valid through 2026-2036, checked at fixed times (never the wall clock). */
export const VALID_FROM = new Date('2026-01-01T00:00:00Z');
export const VALID_UNTIL = new Date('2036-01-01T00:00:00Z');
export const INSIDE = new Date('2027-06-01T00:00:00Z');

export interface TestLeaf {
  readonly der: Der;
  readonly keys: webcrypto.CryptoKeyPair;
}

/** A fresh root CA of its own (fresh key each call). */
export function testRoot(name = 'Test Root'): Promise<CertificateAuthority & { keys: webcrypto.CryptoKeyPair }> {
  return createRootCa({ subject: { commonName: name }, notBefore: VALID_FROM, notAfter: VALID_UNTIL });
}

/** An intermediate CA under `issuer`. */
export async function testIntermediate(issuer: CertificateAuthority, name = 'Test Intermediate', pathLength?: number): Promise<CertificateAuthority> {
  const keys = await generateP256KeyPair();
  const certificate = await issueIntermediateCertificate({ issuer, subject: { commonName: name }, publicKey: keys.publicKey, notBefore: VALID_FROM, notAfter: VALID_UNTIL, ...(pathLength !== undefined ? { pathLength } : {}) });
  return { certificate, privateKey: keys.privateKey };
}

/** A leaf under `issuer` with the SAN entries given. */
export async function testLeaf(
  issuer: CertificateAuthority,
  options: { dnsNames?: string[]; uris?: string[]; notBefore?: Date; notAfter?: Date } = {},
): Promise<TestLeaf> {
  const keys = await generateP256KeyPair();
  const der = await issueLeafCertificate({
    issuer,
    subject: { commonName: 'Test Leaf' },
    publicKey: keys.publicKey,
    dnsNames: options.dnsNames ?? ['issuer.example.org'],
    uris: options.uris ?? [],
    notBefore: options.notBefore ?? VALID_FROM,
    notAfter: options.notAfter ?? VALID_UNTIL,
  });
  return { der, keys };
}

/**
 * A certificate with exactly the extensions given, signed by `issuer`: for the certificates our
 * own generator refuses to make (a "CA" without basicConstraints, a leaf that may not sign, ...).
 */
export async function rawCertificate(
  issuer: CertificateAuthority,
  name: string,
  extensions: x509.Extension[],
  options: { hash?: 'SHA-1' | 'SHA-256'; keys?: webcrypto.CryptoKeyPair } = {},
): Promise<CertificateAuthority> {
  const keys = options.keys ?? (await generateP256KeyPair());
  const issuerCert = new x509.X509Certificate(issuer.certificate);
  const cert = await x509.X509CertificateGenerator.create(
    {
      serialNumber: '0badc0de',
      subject: [{ CN: [name] }],
      issuer: issuerCert.subjectName,
      notBefore: VALID_FROM,
      notAfter: VALID_UNTIL,
      signingAlgorithm: { name: 'ECDSA', hash: options.hash ?? 'SHA-256' },
      publicKey: keys.publicKey,
      signingKey: issuer.privateKey,
      extensions,
    },
    x509Crypto,
  );
  return { certificate: new Uint8Array(cert.rawData), privateKey: keys.privateKey };
}
