/**
 * X.509 for OpenID4VC (issue 21): certificates for issuer and request-signing keys (HAIP), chain
 * validation to configured trust anchors, `x509_hash`, and the issuer-trust functions the format
 * verifiers take. Built on @peculiar/x509 with node's WebCrypto passed explicitly.
 */
export { type Der, derToX5c, parsePemCertificates, pemBlocks, toPem, x5cToDer } from './pem';
export { x509Hash } from './x509-hash';
export {
  type CertificateAuthority,
  createRootCa,
  type DistinguishedName,
  generateP256KeyPair,
  issueIntermediateCertificate,
  issueLeafCertificate,
  type Validity,
} from './certificates';
export { MAX_CHAIN_LENGTH, parseCertificate, publicJwkOf, validateChain, type ValidatedChain } from './chain';
export { sanHasDnsName, sanNamesIssuer, subjectAltNames, type SubjectAltNames } from './san';
export { didTrust, eitherTrust, type IssuerTrust, type IssuerTrustInput, type TrustedIssuerKey, x5cTrust, type X5cTrustOptions } from './trust';
export type { Signer } from './signer';
export { x509Crypto } from './crypto';
