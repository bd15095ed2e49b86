/** Data Integrity cryptosuites and legacy suite types, spelled as their specifications spell them. */
export type DataIntegrityCryptosuite = 'eddsa-rdfc-2022' | 'eddsa-jcs-2022' | 'ecdsa-rdfc-2019';
/** What an issuer instance may sign with: a DataIntegrityProof cryptosuite, Ed25519Signature2020, or a JWT. */
export type IssuingSuite = DataIntegrityCryptosuite | 'Ed25519Signature2020' | 'vc+jwt' | 'bbs-2023';
export const ISSUING_SUITES: readonly IssuingSuite[] = ['eddsa-rdfc-2022', 'eddsa-jcs-2022', 'ecdsa-rdfc-2019', 'Ed25519Signature2020', 'vc+jwt', 'bbs-2023'];

export type SigningKeyType = 'Ed25519' | 'P-256' | 'P-384';
/**
 * What an issuer instance's key may be: a signing key, or a BLS12-381 G2 key for bbs-2023
 * (src/formats/bbs-2023), whose signer signs message lists in a worker, not one byte string.
 */
export type IssuerKeyType = SigningKeyType | 'Bls12381G2';

/** A VC-API issuer instance: a did:key whose key custody holds, and the suite it signs with. */
export interface VcIssuerRecord {
  readonly id: string;
  readonly tenantId: string;
  readonly did: string;
  readonly keyType: IssuerKeyType;
  readonly cryptosuite: IssuingSuite;
  readonly managedKeyId: string;
  readonly isDefault: boolean;
  readonly createdAt: Date;
}

/** What a caller supplies to store an instance: the record less what the store stamps. */
export type NewVcIssuer = Omit<VcIssuerRecord, 'createdAt'>;

export interface VcIssuerRepository {
  /** Stores an instance. A second default of one tenant is not stored: the existing default is returned. */
  create(input: NewVcIssuer): Promise<VcIssuerRecord>;
  findDefault(tenantId: string): Promise<VcIssuerRecord | null>;
  findForTenant(tenantId: string, id: string): Promise<VcIssuerRecord | null>;
  findById(id: string): Promise<VcIssuerRecord | null>;
  listByTenant(tenantId: string): Promise<VcIssuerRecord[]>;
}

export type VcStatusPurpose = 'revocation' | 'suspension';
export const VC_STATUS_PURPOSES: readonly VcStatusPurpose[] = ['revocation', 'suspension'];

/** One allocated status entry of a credential. */
export interface VcStatusSlot {
  readonly listId: string;
  readonly index: number;
  readonly purpose: VcStatusPurpose;
}

export interface VcStatusListRecord {
  readonly id: string;
  readonly tenantId: string;
  readonly issuerId: string;
  readonly purpose: VcStatusPurpose;
  readonly bits: Uint8Array;
  readonly version: number;
  readonly updatedAt: Date;
}

export interface VcStatusChange {
  readonly slot: VcStatusSlot;
  /** The bit after the change. */
  readonly set: boolean;
  /** False when the bit already had the requested value (the request is idempotent). */
  readonly changed: boolean;
}

export interface VcStatusRepository {
  /**
   * Draws one free slot per purpose (at random, under the list's row lock) for `credentialId`,
   * runs `build` with them, and commits the entries only when `build` succeeded: a credential
   * that cannot be signed leaves nothing behind. CONFLICT when the tenant already issued that id.
   */
  allocate<T>(input: { tenantId: string; issuerId: string; credentialId: string; purposes: readonly VcStatusPurpose[] }, build: (slots: readonly VcStatusSlot[]) => Promise<T>): Promise<T>;
  /** The tenant's entries of a credential (empty when it has none, or it is another tenant's). */
  entries(tenantId: string, credentialId: string): Promise<VcStatusSlot[]>;
  /** Sets or clears the bit of the tenant's entry for `purpose`; null when there is no such entry. */
  setStatus(tenantId: string, credentialId: string, purpose: VcStatusPurpose, set: boolean): Promise<VcStatusChange | null>;
  /** One bit, read fresh. Null when the list does not exist or the index is out of range. */
  bit(listId: string, index: number): Promise<boolean | null>;
  list(listId: string): Promise<VcStatusListRecord | null>;
  /** The stored signed list credential when it is of the list's current version. */
  signedList(listId: string): Promise<{ document: Record<string, unknown>; version: number } | null>;
  storeSignedList(listId: string, version: number, document: Record<string, unknown>): Promise<void>;
}
