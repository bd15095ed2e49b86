import { createPublicKey, type JsonWebKey } from 'node:crypto';
import * as x509 from './peculiar';
import { AppError } from '../errors';
import { x509Crypto } from './crypto';
import type { Der } from './pem';
import { subjectAltNames, type SubjectAltNames } from './san';
import { x509Hash } from './x509-hash';

/** Longer chains are refused unread: no real issuer needs more, and each link costs a signature check. */
export const MAX_CHAIN_LENGTH = 6;
/** A certificate bigger than this is not a credential issuer's (and keeps the ASN.1 parser's work bounded). */
export const MAX_CERTIFICATE_BYTES = 16 * 1024;

/** Extensions this validator understands; any other extension marked critical makes the certificate unusable (RFC 5280 §4.2). */
const UNDERSTOOD = new Set([
  '2.5.29.19', // basicConstraints
  '2.5.29.15', // keyUsage
  '2.5.29.17', // subjectAltName
  '2.5.29.37', // extKeyUsage (not restricted: HAIP names no EKU for credential issuers)
  '2.5.29.14', // subjectKeyIdentifier
  '2.5.29.35', // authorityKeyIdentifier
]);

export interface ValidatedChain {
  /** The end-entity certificate, parsed. */
  readonly leaf: x509.X509Certificate;
  /** Its public key as a JWK (no private members, no `kid`). */
  readonly publicJwk: JsonWebKey;
  /** Its SAN dNSName and URI entries. */
  readonly san: SubjectAltNames;
  /** OID4VP `x509_hash` of the leaf. */
  readonly x509Hash: string;
  /** The trust anchor the chain ends at. */
  readonly anchor: Der;
}

const untrusted = (message: string): AppError => new AppError('VERIFICATION_FAILED', message);

/** Parses one DER certificate; malformed input is INVALID_INPUT, never a parser exception. */
export function parseCertificate(der: Der, what = 'certificate'): x509.X509Certificate {
  if (der.length === 0 || der.length > MAX_CERTIFICATE_BYTES) throw new AppError('INVALID_INPUT', `the ${what} is empty or larger than ${MAX_CERTIFICATE_BYTES} bytes`);
  try {
    return new x509.X509Certificate(der);
  } catch {
    throw new AppError('INVALID_INPUT', `the ${what} is not a DER-encoded X.509 certificate`);
  }
}

function sameDer(a: Der, b: Der): boolean {
  return Buffer.from(a).equals(Buffer.from(b));
}

function checkTime(cert: x509.X509Certificate, now: Date, what: string): void {
  if (now < cert.notBefore) throw untrusted(`the ${what} is not valid yet`);
  if (now > cert.notAfter) throw untrusted(`the ${what} has expired`);
}

function checkCriticalExtensions(cert: x509.X509Certificate, what: string): void {
  for (const ext of cert.extensions) {
    if (ext.critical && !UNDERSTOOD.has(ext.type)) throw untrusted(`the ${what} has a critical extension this service does not process (${ext.type})`);
  }
}

/** Does `issuer` say it may sign certificates, with room for `below` intermediates under it? */
function checkIssuerIsCa(issuer: x509.X509Certificate, below: number, what: string): void {
  const bc = issuer.getExtension(x509.BasicConstraintsExtension);
  if (!bc?.ca) throw untrusted(`the ${what} is not a CA certificate (basicConstraints cA is not set)`);
  if (bc.pathLength !== undefined && below > bc.pathLength) throw untrusted(`the ${what} allows ${bc.pathLength} intermediate certificate(s) below it, the chain has ${below}`);
  const ku = issuer.getExtension(x509.KeyUsagesExtension);
  if (ku && (ku.usages & x509.KeyUsageFlags.keyCertSign) === 0) throw untrusted(`the ${what} may not sign certificates (keyUsage lacks keyCertSign)`);
}

/** Hashes a signature we rely on may use: SHA-1 and MD5 collisions make a forged certificate cheap. */
const STRONG_HASHES = new Set(['SHA-256', 'SHA-384', 'SHA-512']);
/** Smallest RSA issuer key accepted (NIST SP 800-131A). */
const MIN_RSA_BITS = 2048;

/** Refuses a link whose signature is weak: a SHA-1/MD5 digest, an unknown algorithm, or an RSA issuer key under 2048 bits. */
function checkLinkStrength(cert: x509.X509Certificate, issuer: x509.X509Certificate, what: string): void {
  const alg = cert.signatureAlgorithm as { name?: string; hash?: { name?: string } };
  const hashed = alg.name === 'ECDSA' || alg.name === 'RSASSA-PKCS1-v1_5' || alg.name === 'RSA-PSS';
  if (!(alg.name === 'Ed25519' || alg.name === 'Ed448' || (hashed && STRONG_HASHES.has(alg.hash?.name ?? '')))) {
    throw untrusted(`the ${what} is signed with a weak or unsupported algorithm (${alg.name ?? 'unknown'}${alg.hash?.name ? ` with ${alg.hash.name}` : ''})`);
  }
  const key = issuer.publicKey.algorithm as { name?: string; modulusLength?: number };
  if ((key.name === 'RSASSA-PKCS1-v1_5' || key.name === 'RSA-PSS' || key.name === 'RSA-OAEP') && (key.modulusLength ?? 0) < MIN_RSA_BITS) {
    throw untrusted(`the ${what} is signed by an RSA key shorter than ${MIN_RSA_BITS} bits`);
  }
}

async function checkSignedBy(cert: x509.X509Certificate, issuer: x509.X509Certificate, what: string): Promise<boolean> {
  if (cert.issuerName.toString() !== issuer.subjectName.toString()) return false;
  checkLinkStrength(cert, issuer, what);
  try {
    return await cert.verify({ publicKey: issuer.publicKey, signatureOnly: true }, x509Crypto);
  } catch {
    throw untrusted(`the signature of the ${what} cannot be checked`);
  }
}

/** The JWK of a certificate's subject public key (node:crypto reads the SPKI). */
export function publicJwkOf(cert: x509.X509Certificate): JsonWebKey {
  try {
    return createPublicKey({ key: Buffer.from(cert.publicKey.rawData), format: 'der', type: 'spki' }).export({ format: 'jwk' });
  } catch {
    throw new AppError('INVALID_INPUT', 'the certificate carries a public key this service cannot read');
  }
}

const NAMES = ['leaf certificate', 'first intermediate certificate', 'second intermediate certificate'];
const nameOf = (i: number): string => NAMES[i] ?? `certificate ${i + 1} of the chain`;

/**
 * Validates a certificate chain, leaf first, against trust anchors at `now`: every certificate is
 * within its validity and carries no critical extension we do not understand; each one is signed
 * by the next (issuer name and signature), and every certificate that signs another is a CA
 * (basicConstraints cA, pathLenConstraint, keyUsage keyCertSign) and signs with a strong algorithm
 * (SHA-256 or better, RSA keys of 2048 bits or more); the last one is a trust anchor
 * itself or is signed by one (the anchor must be valid at `now` too); the leaf may sign
 * (keyUsage digitalSignature when keyUsage is present) and is not a CA. Throws VERIFICATION_FAILED
 * when the chain does not lead to an anchor, INVALID_INPUT when a certificate cannot be parsed.
 */
export async function validateChain(chain: readonly Der[], anchors: readonly Der[], now: Date): Promise<ValidatedChain> {
  if (chain.length === 0) throw new AppError('INVALID_INPUT', 'the certificate chain is empty');
  if (chain.length > MAX_CHAIN_LENGTH) throw new AppError('INVALID_INPUT', `the certificate chain has more than ${MAX_CHAIN_LENGTH} certificates`);
  if (anchors.length === 0) throw untrusted('no trust anchors are configured');
  const certs = chain.map((der, i) => parseCertificate(der, nameOf(i)));
  for (let i = 0; i < certs.length; i++) {
    checkTime(certs[i]!, now, nameOf(i));
    checkCriticalExtensions(certs[i]!, nameOf(i));
  }
  const leaf = certs[0]!;
  if (leaf.getExtension(x509.BasicConstraintsExtension)?.ca) throw untrusted('the leaf certificate is a CA certificate');
  const leafKu = leaf.getExtension(x509.KeyUsagesExtension);
  if (leafKu && (leafKu.usages & x509.KeyUsageFlags.digitalSignature) === 0) throw untrusted('the leaf certificate may not sign (keyUsage lacks digitalSignature)');

  // Links inside the chain: certificate i is signed by certificate i + 1, a CA with room for the i intermediates below it.
  for (let i = 0; i + 1 < certs.length; i++) {
    checkIssuerIsCa(certs[i + 1]!, i, nameOf(i + 1));
    if (!(await checkSignedBy(certs[i]!, certs[i + 1]!, nameOf(i)))) throw untrusted(`the ${nameOf(i)} is not signed by the certificate after it`);
  }

  // The top of the chain: an anchor itself, or issued by one.
  const top = certs.length - 1;
  const topDer = chain[top]!;
  let anchor: Der | undefined = anchors.find((a) => sameDer(a, topDer));
  if (!anchor) {
    for (const candidate of anchors) {
      const anchorCert = parseCertificate(candidate, 'trust anchor');
      if (!(await checkSignedBy(certs[top]!, anchorCert, nameOf(top)))) continue;
      checkTime(anchorCert, now, 'trust anchor');
      checkIssuerIsCa(anchorCert, top, 'trust anchor');
      anchor = candidate;
      break;
    }
  }
  if (!anchor) throw untrusted('the certificate chain does not lead to a trusted anchor');
  return { leaf, publicJwk: publicJwkOf(leaf), san: subjectAltNames(leaf), x509Hash: x509Hash(chain[0]!), anchor };
}
