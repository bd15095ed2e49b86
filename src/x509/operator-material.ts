import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as x509 from './peculiar';
import { ConfigError } from '../config/settings';
import type { Oid4vcKeysConfig } from '../config/oid4vc-keys';
import { isAppError } from '../errors';
import { parseCertificate, publicJwkOf } from './chain';
import { x509Crypto } from './crypto';
import { type Der, parsePemCertificates } from './pem';

/** The operator's certificate and key, read once at start-up from the configured files. */
export interface OperatorMaterial {
  /** The operator's certificate first, then the chain above it (DER). */
  readonly chain: readonly Der[];
  /** The private key of chain[0] (node's own object: it is never exported again). */
  readonly privateKey: KeyObject;
  /** chain[0] is a CA: it issues each tenant's leaf. Otherwise it is the one signing certificate. */
  readonly isCa: boolean;
}

export interface LoadedOid4vcMaterial {
  readonly operator?: OperatorMaterial;
  /** CREDGATE_OID4VC_TRUST_ANCHORS_FILE's certificates (empty when unset). */
  readonly anchors: readonly Der[];
}

function readText(file: string, variable: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new ConfigError(`${variable}: cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

function certificatesOf(file: string, variable: string): Der[] {
  let ders: Der[];
  try {
    ders = parsePemCertificates(readText(file, variable));
    for (const der of ders) parseCertificate(der);
  } catch (e) {
    if (e instanceof ConfigError) throw e;
    throw new ConfigError(`${variable}: ${file} holds a certificate that cannot be read${isAppError(e) ? ` (${e.message})` : ''}`);
  }
  if (ders.length === 0) throw new ConfigError(`${variable}: ${file} holds no PEM CERTIFICATE block`);
  return ders;
}

/**
 * Reads the configured certificate, key and anchors, and checks what can be checked without a
 * clock: the key is P-256 and is the certificate's key, and each certificate of the chain is signed
 * by the next. (Validity in time is the signer's business at each use: a chain that expires while
 * the service runs must stop being used then, not at the next restart.)
 */
export async function loadOid4vcMaterial(config: Oid4vcKeysConfig | undefined): Promise<LoadedOid4vcMaterial> {
  const anchors = config?.trustAnchorsFile ? certificatesOf(config.trustAnchorsFile, 'CREDGATE_OID4VC_TRUST_ANCHORS_FILE') : [];
  if (!config?.issuerCertFile || !config.issuerKeyFile) return { anchors };
  const chain = certificatesOf(config.issuerCertFile, 'CREDGATE_OID4VC_ISSUER_CERT_FILE');
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey({ key: readText(config.issuerKeyFile, 'CREDGATE_OID4VC_ISSUER_KEY_FILE'), format: 'pem' });
  } catch (e) {
    if (e instanceof ConfigError) throw e;
    // The message of a PEM parse failure names no key bytes, but say only what was wrong.
    throw new ConfigError(`CREDGATE_OID4VC_ISSUER_KEY_FILE: ${config.issuerKeyFile} is not a PEM private key`);
  }
  if (privateKey.asymmetricKeyType !== 'ec' || privateKey.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
    throw new ConfigError('CREDGATE_OID4VC_ISSUER_KEY_FILE: the key must be an EC P-256 key (HAIP, ES256)');
  }
  const certs = chain.map((der) => parseCertificate(der));
  const certJwk = publicJwkOf(certs[0]!);
  const keyJwk = createPublicKey(privateKey).export({ format: 'jwk' });
  if (certJwk.kty !== 'EC' || certJwk.crv !== 'P-256' || certJwk.x !== keyJwk.x || certJwk.y !== keyJwk.y) {
    throw new ConfigError('CREDGATE_OID4VC_ISSUER_KEY_FILE is not the key of the first certificate in CREDGATE_OID4VC_ISSUER_CERT_FILE');
  }
  for (let i = 0; i + 1 < certs.length; i++) {
    const ok = certs[i]!.issuerName.toString() === certs[i + 1]!.subjectName.toString() && (await certs[i]!.verify({ publicKey: certs[i + 1]!.publicKey, signatureOnly: true }, x509Crypto));
    if (!ok) throw new ConfigError(`CREDGATE_OID4VC_ISSUER_CERT_FILE: certificate ${i + 1} is not signed by certificate ${i + 2} (list the operator's certificate first, then its issuers)`);
  }
  const isCa = certs[0]!.getExtension(x509.BasicConstraintsExtension)?.ca === true;
  return { operator: { chain, privateKey, isCa }, anchors };
}
