import type { Scope } from './tenancy/actor';

/** Injected so tests can freeze time. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export interface TenantRecord {
  readonly id: string;
  readonly slug: string;
  readonly name: string;
  readonly createdAt: Date;
}

export interface ApiKeyRecord {
  readonly id: string;
  readonly tenantId: string;
  readonly tenantSlug: string;
  readonly name: string | null;
  readonly secretHash: string;
  readonly scopes: readonly Scope[];
  readonly createdAt: Date;
  readonly lastUsedAt: Date | null;
  readonly revokedAt: Date | null;
}

export type KeyAlgorithm = 'secp256k1' | 'Ed25519';

export interface ManagedKeyRecord {
  readonly id: string;
  readonly tenantId: string;
  readonly algorithm: KeyAlgorithm;
  readonly publicKeyHex: string;
  readonly encryptedPrivateKey: Uint8Array;
  readonly kekId: string;
  readonly purpose: string;
  readonly createdAt: Date;
}

export type DidRole = 'subject' | 'issuer';

export interface DidRecord {
  readonly id: string;
  readonly tenantId: string;
  readonly did: string;
  readonly method: string;
  readonly network: string;
  readonly identifier: string;
  readonly keyAlgorithm: KeyAlgorithm;
  readonly publicKeyHex: string;
  readonly managedKeyId: string | null;
  readonly role: DidRole;
  readonly ledgerFileId: string;
  readonly topicId: string;
  readonly templateTopicId: string;
  readonly version: number;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly deletedAt: Date | null;
}

export interface TenantRepository {
  findBySlug(slug: string): Promise<TenantRecord | null>;
  create(input: { slug: string; name: string }): Promise<TenantRecord>;
  list(): Promise<TenantRecord[]>;
}

export interface ApiKeyRepository {
  findById(id: string): Promise<ApiKeyRecord | null>;
  create(input: { id: string; tenantId: string; name: string | null; secretHash: string; scopes: readonly Scope[] }): Promise<ApiKeyRecord>;
  listByTenant(tenantId: string): Promise<ApiKeyRecord[]>;
  revoke(tenantId: string, id: string, at: Date): Promise<boolean>;
}

export interface ManagedKeyRepository {
  create(input: Omit<ManagedKeyRecord, 'createdAt'>): Promise<ManagedKeyRecord>;
  findById(tenantId: string, id: string): Promise<ManagedKeyRecord | null>;
  findByPublicKey(tenantId: string, algorithm: KeyAlgorithm, publicKeyHex: string): Promise<ManagedKeyRecord | null>;
}

export interface NewDid {
  readonly id: string;
  readonly tenantId: string;
  readonly method: string;
  readonly network: string;
  readonly identifier: string;
  readonly keyAlgorithm: KeyAlgorithm;
  readonly publicKeyHex: string;
  readonly managedKeyId: string | null;
  readonly role: DidRole;
}

export interface DidRepository {
  /** Any tenant's DID: resolution is public by nature. Deleted DIDs included. */
  findByDid(did: string): Promise<DidRecord | null>;
  findForTenant(tenantId: string, did: string): Promise<DidRecord | null>;
  findByKey(tenantId: string, algorithm: KeyAlgorithm, publicKeyHex: string): Promise<DidRecord | null>;
  /**
   * Creates the DID with its ledger file and topics in one transaction. Returns the existing
   * record instead when the tenant already registered that key (idempotent under races).
   */
  createOrGet(input: NewDid): Promise<{ record: DidRecord; created: boolean }>;
}

/** Custody of service-held private keys; plaintext keys exist only inside `use`. */
export interface KeyCustody {
  store(input: { tenantId: string; algorithm: KeyAlgorithm; privateKey: Uint8Array; publicKeyHex: string; purpose: string }): Promise<ManagedKeyRecord>;
  findByPublicKey(tenantId: string, algorithm: KeyAlgorithm, publicKeyHex: string): Promise<ManagedKeyRecord | null>;
  use<T>(tenantId: string, keyId: string, fn: (privateKey: Uint8Array) => T | Promise<T>): Promise<T>;
}
