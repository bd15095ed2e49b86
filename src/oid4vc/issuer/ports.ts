import type { JsonWebKey } from 'node:crypto';
/**
 * What the OpenID4VCI issuer stores (src/db/repositories/oid4vci.repository.ts implements it).
 * Every wallet-held secret arrives here already hashed (secrets.ts).
 */
export const OFFER_STATUSES = ['offered', 'token-issued', 'credential-issued', 'accepted', 'failed', 'revoked'] as const;
export type OfferStatus = (typeof OFFER_STATUSES)[number];

export type SubjectClaims = Record<string, unknown>;

export interface OfferRecord {
  readonly id: string;
  readonly tenantId: string;
  readonly configurationIds: readonly string[];
  readonly claims: SubjectClaims;
  readonly status: OfferStatus;
  readonly preAuthorizedCodeHash: string | null;
  readonly txCodeHash: string | null;
  readonly txCodeLength: number | null;
  readonly txCodeFailures: number;
  readonly lockedAt: Date | null;
  readonly issuerStateHash: string | null;
  readonly deferred: boolean;
  readonly readyAt: Date | null;
  readonly revokedAt: Date | null;
  readonly expiresAt: Date;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export type NewOffer = Omit<OfferRecord, 'status' | 'txCodeFailures' | 'lockedAt' | 'readyAt' | 'revokedAt' | 'createdAt' | 'updatedAt'>;

export interface AuthorizationRecord {
  readonly id: string;
  readonly tenantId: string;
  readonly offerId: string;
  readonly clientId: string;
  readonly redirectUri: string;
  readonly codeChallenge: string;
  readonly scope: string | null;
  readonly state: string | null;
  readonly dpopJkt: string | null;
  readonly subject: string | null;
  readonly codeHash: string | null;
  readonly expiresAt: Date;
  readonly usedAt: Date | null;
}

export interface TokenRecord {
  readonly tenantId: string;
  readonly offerId: string;
  readonly dpopJkt: string | null;
  readonly clientId: string | null;
  readonly expiresAt: Date;
}

export interface NewToken {
  readonly tokenHash: string;
  readonly tenantId: string;
  readonly offerId: string;
  readonly dpopJkt: string | null;
  readonly clientId: string | null;
  readonly expiresAt: Date;
}

/** How a revocation through the existing routes finds an issued credential (format-specific reference). */
export type CredentialRef = Record<string, unknown>;

export interface IssuanceRecord {
  readonly notificationId: string;
  readonly tenantId: string;
  readonly offerId: string;
  readonly configurationId: string;
  readonly format: string;
  readonly holderKeys: readonly JsonWebKey[];
  readonly credentialRefs: readonly CredentialRef[];
  readonly issuedAt: Date | null;
  readonly event: string | null;
}

/** One delivered credential, addressable by its own record id (the holder of its status list slots). */
export interface IssuedCredentialRecord {
  readonly id: string;
  readonly tenantId: string;
  readonly offerId: string;
  readonly configurationId: string;
  readonly format: string;
  readonly issuedAt: Date;
  readonly revokedAt: Date | null;
}

export type NotificationEvent = 'credential_accepted' | 'credential_failure' | 'credential_deleted';

export interface Oid4vciStore {
  createOffer(offer: NewOffer): Promise<OfferRecord>;
  findOffer(tenantId: string, id: string): Promise<OfferRecord | null>;
  listOffers(tenantId: string, page: { first: number; after?: string }): Promise<{ items: OfferRecord[]; hasMore: boolean }>;
  findOfferByPreAuthorizedCode(codeHash: string): Promise<OfferRecord | null>;
  findOfferByIssuerState(stateHash: string): Promise<OfferRecord | null>;
  /** Revokes an offer not yet revoked, and the credentials delivered under it; null when there is none (or it was revoked already). */
  revokeOffer(tenantId: string, id: string, at: Date): Promise<OfferRecord | null>;
  markReady(tenantId: string, id: string, at: Date): Promise<OfferRecord | null>;
  /** Counts one wrong tx_code; locks the offer when the count reaches `max`. Returns the new count. */
  recordTxCodeFailure(offerId: string, max: number, at: Date): Promise<{ failures: number; locked: boolean }>;
  /**
   * Spends the offer's pre-authorized code (only if it still holds `codeHash` and is neither locked
   * nor revoked) and stores the token, in one transaction. False when the code was already spent.
   */
  exchangePreAuthorizedCode(offerId: string, codeHash: string, token: NewToken): Promise<boolean>;
  createAuthorization(input: Omit<AuthorizationRecord, 'codeHash' | 'usedAt' | 'subject'> & { requestUriHash: string }): Promise<void>;
  findAuthorizationByRequestUri(requestUriHash: string): Promise<AuthorizationRecord | null>;
  /** Sets the code of a pushed request once (a request_uri is single-use). False when already set. */
  issueAuthorizationCode(id: string, codeHash: string, subject: string, expiresAt: Date): Promise<boolean>;
  findAuthorizationByCode(codeHash: string): Promise<AuthorizationRecord | null>;
  /** Spends an authorization code and stores the token, in one transaction; false when spent. */
  exchangeAuthorizationCode(id: string, token: NewToken, at: Date): Promise<boolean>;
  findToken(tokenHash: string): Promise<TokenRecord | null>;
  createNonce(valueHash: string, kind: 'c_nonce' | 'dpop', expiresAt: Date): Promise<void>;
  /** Deletes the nonce if it exists, is of `kind` and has not expired; true when it did. */
  consumeNonce(valueHash: string, kind: 'c_nonce' | 'dpop', now: Date): Promise<boolean>;
  /** Whether the nonce exists and has not expired, without spending it (DPoP-Nonce is reusable in its window). */
  nonceIsLive(valueHash: string, kind: 'c_nonce' | 'dpop', now: Date): Promise<boolean>;
  /** Remembers a DPoP proof; false when it was seen before (a replay). */
  rememberDpopProof(proofHash: string, expiresAt: Date): Promise<boolean>;
  /** Records a credential response (or a deferred transaction) and moves the offer on. */
  recordIssuance(input: Omit<IssuanceRecord, 'event'> & { transactionIdHash: string | null }): Promise<void>;
  findIssuanceByTransaction(transactionIdHash: string): Promise<IssuanceRecord | null>;
  /** Marks a deferred transaction delivered (once); false when it was already. */
  completeDeferred(transactionIdHash: string, refs: readonly CredentialRef[], at: Date): Promise<boolean>;
  findIssuance(notificationId: string): Promise<IssuanceRecord | null>;
  /** Every credential response recorded under an offer (what a revocation of the offer must reach). */
  issuancesOf(offerId: string): Promise<IssuanceRecord[]>;
  /** The credentials delivered under an offer of the tenant, oldest first. */
  issuedCredentialsOf(tenantId: string, offerId: string): Promise<IssuedCredentialRecord[]>;
  /**
   * Marks a delivered credential of the tenant revoked at `at` unless it is already (idempotent:
   * the first revocation's time stays); null when the tenant has no such credential.
   */
  revokeIssuedCredential(tenantId: string, id: string, at: Date): Promise<IssuedCredentialRecord | null>;
  recordNotification(notificationId: string, event: NotificationEvent, description: string | null, at: Date): Promise<void>;
  /** Deletes expired nonces and DPoP proofs (called now and then by the service). */
  sweep(now: Date): Promise<void>;
}
