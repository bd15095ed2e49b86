/**
 * Test material for the mdoc suites: P-256 keys as the shared signer contract, a self-signed IACA
 * root with a document signer certificate (built here with @peculiar/x509, independent of the
 * service's own src/x509), a chain-checking trust function, and an @owf/mdoc context over node:crypto
 * for the library's own verifier (a code path separate from src/formats/mdoc).
 */
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, sign, verify, webcrypto, type JsonWebKey, type KeyObject } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { CoseKey, type MdocContext } from '@owf/mdoc';
import { AppError } from '../../../src/errors';
import type { MdocIssuerTrust, MdocSigner } from '../../../src/formats/mdoc';

/** node's WebCrypto under the type @peculiar/x509 declares (the DOM's Crypto, which this project's lib leaves out). */
const webCrypto = webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0];
x509.cryptoProvider.set(webCrypto);

const ECDSA = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

function signerFor(privateKey: KeyObject, x5c?: string[]): MdocSigner {
  const publicJwk = createPublicKey(privateKey).export({ format: 'jwk' });
  return {
    alg: 'ES256',
    publicJwk,
    ...(x5c ? { x5c } : {}),
    sign: async (data) => new Uint8Array(sign('sha256', data, { key: privateKey, dsaEncoding: 'ieee-p1363' })),
  };
}

/** A holder (device) key: the signer contract without certificates. */
export function deviceKey(): MdocSigner & { privateJwk: JsonWebKey } {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { ...signerFor(privateKey), privateJwk: privateKey.export({ format: 'jwk' }) };
}

export interface TestIssuer {
  /** The IACA root, DER: the trust anchor a verifier configures. */
  rootDer: Uint8Array;
  /** The document signer: its key and [leaf] as x5c. */
  signer: MdocSigner;
  leafDer: Uint8Array;
  /** For @owf/mdoc's own Issuer, which signs with a COSE key it holds. */
  privateJwk: JsonWebKey;
}

const NOT_BEFORE = new Date('2026-01-01T00:00:00Z');
const NOT_AFTER = new Date('2036-01-01T00:00:00Z');

/** A self-signed root (C=DE, as ISO 18013-5 wants a country in the issuer name) and a DS leaf under it. */
export async function testIssuer(name = 'Credgate Test', validity = { notBefore: NOT_BEFORE, notAfter: NOT_AFTER }): Promise<TestIssuer> {
  const rootKeys = (await webcrypto.subtle.generateKey(ECDSA, true, ["sign", "verify"])) as webcrypto.CryptoKeyPair;
  const root = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomBytes(8).toString('hex').replace(/^[89a-f]/, '1'),
    name: `C=DE, O=${name}, CN=${name} IACA`,
    notBefore: NOT_BEFORE,
    notAfter: NOT_AFTER,
    keys: rootKeys,
    signingAlgorithm: ECDSA,
    extensions: [new x509.BasicConstraintsExtension(true, 0, true), new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true)],
  });
  const leafKeys = (await webcrypto.subtle.generateKey(ECDSA, true, ["sign", "verify"])) as webcrypto.CryptoKeyPair;
  const leaf = await x509.X509CertificateGenerator.create({
    serialNumber: randomBytes(8).toString('hex').replace(/^[89a-f]/, '1'),
    subject: `C=DE, O=${name}, CN=${name} Document Signer`,
    issuer: root.subject,
    notBefore: validity.notBefore,
    notAfter: validity.notAfter,
    publicKey: leafKeys.publicKey,
    signingKey: rootKeys.privateKey,
    signingAlgorithm: ECDSA,
    extensions: [new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true)],
  });
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', leafKeys.privateKey));
  const leafDer = new Uint8Array(leaf.rawData);
  const privateKey = createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' });
  return {
    rootDer: new Uint8Array(root.rawData),
    leafDer,
    signer: signerFor(privateKey, [Buffer.from(leafDer).toString('base64')]),
    privateJwk: privateKey.export({ format: 'jwk' }),
  };
}

/** The same signer key with another certificate chain (an attacker presenting a trusted issuer's chain). */
export function withChain(signer: MdocSigner, x5c: string[]): MdocSigner {
  return { ...signer, x5c };
}

async function checkChain(chain: Uint8Array[], anchors: Uint8Array[], now: Date): Promise<x509.X509Certificate> {
  const certs = chain.map((c) => new x509.X509Certificate(c));
  const roots = anchors.map((a) => new x509.X509Certificate(a));
  const leaf = certs[0];
  if (!leaf) throw new AppError('VERIFICATION_FAILED', 'empty chain');
  for (const [i, cert] of certs.entries()) {
    const next = certs[i + 1];
    const issuers = next ? [next] : roots.filter((r) => r.subject === cert.issuer);
    let ok = false;
    for (const issuer of issuers) {
      if (await cert.verify({ publicKey: issuer.publicKey, date: now }, webCrypto)) ok = true;
    }
    if (!ok) throw new AppError('VERIFICATION_FAILED', `certificate ${i} is not signed by a trusted issuer or not valid at ${now.toISOString()}`);
  }
  return leaf;
}

/** A trust function over fixed anchors, with the shared contract's shape. */
export function anchorsTrust(anchors: Uint8Array[]): MdocIssuerTrust {
  return async ({ x5c, now }) => {
    if (!x5c || x5c.length === 0) throw new AppError('VERIFICATION_FAILED', 'no x5c');
    const leaf = await checkChain(x5c.map((c) => new Uint8Array(Buffer.from(c, 'base64'))), anchors, now ?? new Date());
    const publicJwk = createPublicKey({ key: Buffer.from(leaf.publicKey.rawData), format: 'der', type: 'spki' }).export({ format: 'jwk' });
    return { publicJwk, trustedBy: 'x5c' };
  };
}

function coseEs256Verify(jwk: Record<string, unknown>, data: Uint8Array, signature: Uint8Array): boolean {
  const key = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: jwk.x as string, y: jwk.y as string }, format: 'jwk' });
  return verify('sha256', data, { key, dsaEncoding: 'ieee-p1363' }, signature);
}

/** @owf/mdoc's crypto, COSE and X.509 callbacks over node:crypto and @peculiar/x509 (ES256 only). */
export function libraryContext(): Pick<MdocContext, 'crypto' | 'cose' | 'x509'> {
  const unsupported = (): never => {
    throw new Error('not used in these tests');
  };
  return {
    crypto: {
      random: (n) => new Uint8Array(randomBytes(n)),
      digest: ({ digestAlgorithm, bytes }) => new Uint8Array(createHash(digestAlgorithm.replace('-', '').toLowerCase()).update(bytes).digest()),
      calculateEphemeralMacKey: unsupported,
    },
    cose: {
      sign1: {
        sign: ({ toBeSigned, key }) => {
          const privateKey = createPrivateKey({ key: key.jwk as JsonWebKey, format: 'jwk' });
          return new Uint8Array(sign('sha256', toBeSigned, { key: privateKey, dsaEncoding: 'ieee-p1363' }));
        },
        verify: ({ key, sign1 }) => coseEs256Verify(key.jwk, sign1.toBeSigned, sign1.signature),
      },
      mac0: { sign: unsupported, verify: unsupported },
    },
    x509: {
      getIssuerNameField: ({ certificate, field }) => new x509.X509Certificate(certificate).issuerName.getField(field),
      getPublicKey: async ({ certificate }) => {
        const spki = Buffer.from(new x509.X509Certificate(certificate).publicKey.rawData);
        return CoseKey.fromJwk(createPublicKey({ key: spki, format: 'der', type: 'spki' }).export({ format: 'jwk' }) as Record<string, unknown>);
      },
      verifyCertificateChain: async ({ trustedCertificates, x5chain, now }) => {
        await checkChain(x5chain, trustedCertificates, now ?? new Date());
      },
      getCertificateData: async ({ certificate }) => {
        const cert = new x509.X509Certificate(certificate);
        return {
          issuerName: cert.issuer,
          subjectName: cert.subject,
          serialNumber: cert.serialNumber,
          thumbprint: Buffer.from(await cert.getThumbprint(webCrypto)).toString('hex'),
          notBefore: cert.notBefore,
          notAfter: cert.notAfter,
          pem: cert.toString('pem'),
        };
      },
    },
  };
}
