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
  /** Canonical holder DID of a holder-bound key; null for a tenant-wide key. */
  readonly holderDid: string | null;
}

export type KeyAlgorithm = 'secp256k1' | 'Ed25519';

/**
 * What key custody holds: the DID algorithms above, plus the NIST curves the VC-API's did:key
 * issuers sign with (ecdsa-rdfc-2019, ES256/ES384). Private keys are the raw scalar (32 / 48
 * bytes), public keys compressed SEC1, sealed like the others; bbs-2023 issuers' BLS12-381 G2
 * keys (32-byte secret scalar, 96-byte compressed public point).
 */
export type CustodyKeyAlgorithm = KeyAlgorithm | 'P-256' | 'P-384' | 'Bls12381G2';

export interface ManagedKeyRecord {
  readonly id: string;
  readonly tenantId: string;
  readonly algorithm: CustodyKeyAlgorithm;
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
  /**
   * Where `ledgerFileId`, `topicId` and `templateTopicId` were created (`hedera:<network>`), or
   * null when the service numbered them itself (no per-DID ledger entities).
   */
  readonly ledgerNetwork: string | null;
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
  create(input: { id: string; tenantId: string; name: string | null; secretHash: string; scopes: readonly Scope[]; holderDid: string | null }): Promise<ApiKeyRecord>;
  listByTenant(tenantId: string): Promise<ApiKeyRecord[]>;
  revoke(tenantId: string, id: string, at: Date): Promise<boolean>;
}

export interface ManagedKeyRepository {
  create(input: Omit<ManagedKeyRecord, 'createdAt'>): Promise<ManagedKeyRecord>;
  findById(tenantId: string, id: string): Promise<ManagedKeyRecord | null>;
  findByPublicKey(tenantId: string, algorithm: CustodyKeyAlgorithm, publicKeyHex: string): Promise<ManagedKeyRecord | null>;
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
  /** Entities the ledger created for this DID beforehand (per-DID Hedera mode); absent: the service numbers them. */
  readonly ledgerEntities?: DidEntityIds & { readonly network: string };
  /** Set when a document was built before the insert (it carries the creation time). */
  readonly createdAt?: Date;
}

/** A DID's three ledger ids, `0.0.<n>` each: also the ids of its logs. */
export interface DidEntityIds {
  readonly ledgerFileId: string;
  readonly topicId: string;
  readonly templateTopicId: string;
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
  findById(id: string): Promise<DidRecord | null>;
  markDeleted(tenantId: string, id: string, at: Date): Promise<boolean>;
  /** The DID one of whose ledger entities (document file, credential or template topic) created on `network` is `logId`. */
  findByLedgerEntity(logId: string, network: string): Promise<{ record: DidRecord; entity: 'file' | 'topic' } | null>;
  /** Removes a DID nobody can have seen yet (the loser of an issuer-DID creation race). */
  discard(tenantId: string, id: string): Promise<void>;
}

/** Custody of service-held private keys; plaintext keys exist only inside `use`. */
export interface KeyCustody {
  store(input: { tenantId: string; algorithm: CustodyKeyAlgorithm; privateKey: Uint8Array; publicKeyHex: string; purpose: string }): Promise<ManagedKeyRecord>;
  findByPublicKey(tenantId: string, algorithm: CustodyKeyAlgorithm, publicKeyHex: string): Promise<ManagedKeyRecord | null>;
  use<T>(tenantId: string, keyId: string, fn: (privateKey: Uint8Array) => T | Promise<T>): Promise<T>;
}

export interface SchemaRecord {
  readonly id: string;
  readonly tenantId: string;
  readonly name: string;
  readonly version: number;
  readonly body: Record<string, unknown>;
  readonly createdAt: Date;
}

export interface SchemaRepository {
  /** Adds the next version of `name` (1 when new). Concurrent calls never share a version. */
  createNextVersion(input: { tenantId: string; name: string; body: (version: number) => Record<string, unknown> }): Promise<SchemaRecord>;
  findLatest(tenantId: string, name: string): Promise<SchemaRecord | null>;
  findById(id: string): Promise<SchemaRecord | null>;
  findVersion(tenantId: string, name: string, version: number): Promise<SchemaRecord | null>;
  listByTenant(tenantId: string): Promise<SchemaRecord[]>;
  /**
   * Public lookup by name across tenants (schemas are published documents): one record per tenant
   * publishing `name` (its highest version, or exactly `version`), for at most two tenants, which
   * is enough to tell a unique name from an ambiguous one.
   */
  findPublic(tenantSlug: string | undefined, name: string, version: number | undefined): Promise<SchemaRecord[]>;
}

export type CredentialStatus = 'issued' | 'revoked' | 'superseded';

export interface IssuedCredentialRecord {
  readonly id: string;
  readonly tenantId: string;
  readonly schemaId: string;
  readonly issuerDidId: string;
  readonly holderDid: string;
  readonly holderPublicKeyHex: string;
  readonly userSignature: string;
  readonly isEncrypted: boolean;
  readonly document: Record<string, unknown>;
  readonly sealedSubject: Uint8Array;
  readonly status: CredentialStatus;
  readonly supersededById: string | null;
  readonly revokedAt: Date | null;
  readonly expiresAt: Date;
  readonly createdAt: Date;
}

export interface IssuedCredentialRepository {
  /** Stores a new credential; when `supersedes` is given, marks that one superseded in the same transaction. */
  create(record: Omit<IssuedCredentialRecord, 'createdAt' | 'status' | 'supersededById' | 'revokedAt'>, supersedes?: { tenantId: string; id: string }): Promise<IssuedCredentialRecord>;
  /** Any tenant's credential: verifiers are usually another party. */
  findById(id: string): Promise<IssuedCredentialRecord | null>;
  findForTenant(tenantId: string, id: string): Promise<IssuedCredentialRecord | null>;
  /** issued -> revoked; false when it was not in the issued state. */
  revoke(tenantId: string, id: string, at: Date): Promise<boolean>;
  /** Keeps a ZKP certificate's signed statement under its signature (lowercase hex). */
  saveZkpStatement(record: ZkpStatementRecord): Promise<void>;
  /** The statement stored under `signatureHex` (lowercase hex), any tenant's: verifiers are usually another party. */
  findZkpStatement(signatureHex: string): Promise<ZkpStatementRecord | null>;
}

/** A ZKP certificate's signed statement as stored (see src/domain/credentials/zkp-certificate.ts). */
export interface ZkpStatementRecord {
  /** The issuer's Ed25519 signature over the statement, lowercase hex: the certificate's `zkpSignature`. */
  readonly signatureHex: string;
  readonly tenantId: string;
  readonly credentialId: string;
  /** The statement as signed; parse it (parseZkpStatement) before use. */
  readonly statement: Record<string, unknown>;
}

export interface IssuerDidPointer {
  current(tenantId: string): Promise<string | null>;
  /** Sets the pointer only when empty; false when another caller won the race. */
  claim(tenantId: string, didId: string): Promise<boolean>;
  /** Clears the pointer when it still names `didId`. */
  release(tenantId: string, didId: string): Promise<void>;
}

/** Authenticated encryption at rest for service-held records; `context` binds the ciphertext to its row. */
export interface SecretBox {
  seal(plaintext: Uint8Array, context: string): Uint8Array;
  open(envelope: Uint8Array, context: string): Uint8Array;
}

export interface TemplateAttributeRecord {
  readonly attributeName: string;
  readonly type: string;
  readonly description: string;
  readonly required?: boolean;
}

export interface TemplateRecord {
  readonly id: string;
  readonly templateId: string;
  readonly tenantId: string;
  readonly name: string;
  readonly description: string;
  readonly issuerDidId: string;
  readonly attributes: TemplateAttributeRecord[];
  readonly expiration: { value: number; unit: string };
  readonly issuanceDate: Date;
  readonly expirationDate: Date;
  /** The suite its credentials are signed with; null: Family B's EcdsaSecp256k1Signature2019. */
  readonly proofSuite: TemplateProofSuite | null;
  readonly version: number;
  readonly deletedAt: Date | null;
}

/** Proof suites a Family B template can name besides its default (issue 18). */
export type TemplateProofSuite = 'bbs-2023';

/** A ledger append to run inside the same transaction as the record it anchors. */
export interface AnchorRequest {
  readonly logId: string;
  readonly entryHash: Uint8Array;
  readonly kind: string;
  readonly ref: string;
}

export interface FamilyBCredentialRecord {
  readonly id: string;
  readonly tenantId: string;
  readonly templateId: string;
  readonly issuerDidId: string;
  readonly holder: string | null;
  readonly document: Record<string, unknown>;
  readonly credentialHash: Uint8Array;
  readonly statusListId: string;
  readonly statusIndex: number;
  readonly status: 'issued' | 'revoked';
  readonly revokedAt: Date | null;
  readonly expiresAt: Date;
}

export interface StatusListRecord {
  readonly id: string;
  readonly tenantId: string;
  readonly issuerDidId: string;
  readonly purpose: string;
  readonly bits: Uint8Array;
  readonly version: number;
  readonly updatedAt: Date;
}

export interface FaceTemplateResult {
  readonly templateCreationResult: boolean;
  readonly template: string;
  readonly faceCount: number;
  readonly reason?: string;
}

export interface FaceMatch {
  readonly distance: number;
  readonly score: number;
  readonly match: boolean;
  readonly threshold: number;
}

/** The face model, off the request path (src/biometrics implements it). */
export interface FaceEngine {
  createTemplate(image: Uint8Array): Promise<FaceTemplateResult>;
  /** Throws INVALID_INPUT for a malformed template or one from another model. */
  compare(a: string, b: string): FaceMatch;
  close(): Promise<void>;
}
