import path from 'node:path';
import { ConfigError, nonEmpty } from './settings';

/**
 * Where the OpenID4VC signing keys get their certificates (src/services/oid4vc-keys.service.ts).
 * Without files the deployment makes its own self-signed issuing CA (sealed in the database, with a
 * warning: wallets trust it only if given its certificate). The files are read at start-up.
 */
export interface Oid4vcKeysConfig {
  /**
   * CREDGATE_OID4VC_ISSUER_CERT_FILE: PEM certificates, first the operator's certificate, then the
   * chain above it. A CA certificate issues each tenant's leaf; an end-entity certificate is the
   * one signing certificate of every tenant (and of request objects).
   */
  readonly issuerCertFile?: string;
  /** CREDGATE_OID4VC_ISSUER_KEY_FILE: the PEM private key (PKCS#8 or SEC1, P-256) of that certificate. */
  readonly issuerKeyFile?: string;
  /** CREDGATE_OID4VC_TRUST_ANCHORS_FILE: PEM certificates the verifier trusts for issuers' x5c chains. */
  readonly trustAnchorsFile?: string;
}

export function parseOid4vcKeys(env: NodeJS.ProcessEnv, cwd: string): Oid4vcKeysConfig {
  const cert = nonEmpty(env, 'CREDGATE_OID4VC_ISSUER_CERT_FILE');
  const key = nonEmpty(env, 'CREDGATE_OID4VC_ISSUER_KEY_FILE');
  const anchors = nonEmpty(env, 'CREDGATE_OID4VC_TRUST_ANCHORS_FILE');
  if ((cert === undefined) !== (key === undefined)) {
    throw new ConfigError('CREDGATE_OID4VC_ISSUER_CERT_FILE and CREDGATE_OID4VC_ISSUER_KEY_FILE go together: set both or neither');
  }
  return Object.freeze({
    ...(cert !== undefined ? { issuerCertFile: path.resolve(cwd, cert) } : {}),
    ...(key !== undefined ? { issuerKeyFile: path.resolve(cwd, key) } : {}),
    ...(anchors !== undefined ? { trustAnchorsFile: path.resolve(cwd, anchors) } : {}),
  });
}
