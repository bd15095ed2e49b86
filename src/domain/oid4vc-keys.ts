import type { JsonWebKey } from 'node:crypto';
import type { ManagedKeyRecord } from './ports';

/**
 * What a tenant's OpenID4VC key signs: issued credentials (SD-JWT VC, mdoc IssuerAuth), or the
 * verifier's request objects (OID4VP, x509_san_dns / x509_hash client identifiers). Separate keys,
 * so a request object can never be passed off as a credential or the other way round.
 */
export type Oid4vcKeyPurpose = 'oid4vci-issuer' | 'oid4vp-request';
export const OID4VC_KEY_PURPOSES: readonly Oid4vcKeyPurpose[] = ['oid4vci-issuer', 'oid4vp-request'];

export interface Oid4vcKeyRecord {
  readonly id: string;
  readonly tenantId: string;
  readonly purpose: Oid4vcKeyPurpose;
  /** The managed key (P-256, sealed) that holds the private half. */
  readonly managedKeyId: string;
  readonly publicJwk: JsonWebKey;
  /** Standard base64 DER, leaf first (the x5c header). */
  readonly certificateChain: readonly string[];
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export type NewOid4vcKey = Omit<Oid4vcKeyRecord, 'createdAt' | 'updatedAt'>;

/** A sealed deployment secret (sealed_secrets): the envelope and the KEK that sealed it. */
export interface SealedSecretRecord {
  readonly sealed: Uint8Array;
  readonly kekId: string;
}

export interface Oid4vcKeyRepository {
  find(tenantId: string, purpose: Oid4vcKeyPurpose): Promise<Oid4vcKeyRecord | null>;
  /**
   * Stores the sealed private key and the key row in one transaction. When another first use of
   * the same tenant and purpose won, nothing of this one is kept and the winner is returned.
   */
  createWithKey(key: Omit<ManagedKeyRecord, 'createdAt'>, row: NewOid4vcKey): Promise<{ record: Oid4vcKeyRecord; created: boolean }>;
  /** Replaces the chain only if it is still `expected` (a renewal that lost a race changes nothing); the row as it is now. */
  replaceChain(id: string, expected: readonly string[], chain: readonly string[], now: Date): Promise<Oid4vcKeyRecord | null>;
  findSecret(name: string): Promise<SealedSecretRecord | null>;
  /** Inserts the secret unless one of that name exists; returns the stored one either way. */
  insertSecretIfAbsent(name: string, secret: SealedSecretRecord, now: Date): Promise<SealedSecretRecord>;
}
