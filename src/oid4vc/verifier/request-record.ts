import type { JsonWebKey } from 'node:crypto';
/** What the verifier keeps about a presentation request (persisted by src/db/repositories/oid4vp-request.repository.ts). */

export type ClientIdPrefix = 'x509_san_dns' | 'x509_hash' | 'redirect_uri';
export type ResponseMode = 'direct_post' | 'direct_post.jwt';
export type RequestStatus = 'pending' | 'verified' | 'failed';
export type WebhookStatus = 'pending' | 'delivered' | 'failed';

export interface CredentialCheck {
  readonly check: string;
  readonly passed: boolean;
  readonly message?: string;
}

/** One presented credential, as the relying party sees it. */
export interface PresentedCredential {
  /** The DCQL credential query id it answers. */
  readonly queryId: string;
  readonly format: string;
  readonly verified: boolean;
  /** SD-JWT VC: the vct; mdoc: the doctype. */
  readonly type?: string;
  readonly issuer?: string;
  /** Disclosed claims (SD-JWT VC: the payload after disclosure; mdoc: namespace -> element -> value). */
  readonly claims: Record<string, unknown>;
  readonly checks: readonly CredentialCheck[];
}

export interface PresentationResult {
  readonly verified: boolean;
  /** Whether the DCQL query is satisfied by what verified (requested claims present, nothing else disclosed). */
  readonly dcqlSatisfied: boolean;
  readonly credentials: readonly PresentedCredential[];
  readonly problems: readonly { readonly code: string; readonly message: string }[];
  readonly receivedAt: string;
}

export interface RequestRecord {
  readonly id: string;
  readonly tenantId: string;
  readonly state: string;
  readonly nonce: string;
  readonly clientId: string;
  readonly clientIdPrefix: ClientIdPrefix;
  readonly responseMode: ResponseMode;
  readonly dcqlQuery: Record<string, unknown>;
  readonly encryptionJwk: JsonWebKey | null;
  readonly webhookUrl: string | null;
  readonly webhookStatus: WebhookStatus | null;
  readonly webhookAttempts: number;
  readonly status: RequestStatus;
  readonly result: PresentationResult | null;
  readonly expiresAt: Date;
  readonly respondedAt: Date | null;
  readonly createdAt: Date;
}

export type NewRequest = Omit<RequestRecord, 'status' | 'result' | 'respondedAt' | 'createdAt' | 'webhookStatus' | 'webhookAttempts'> & {
  readonly webhookStatus: WebhookStatus | null;
};

export interface RequestRepository {
  /** Stores the request and its sealed secrets in one transaction. */
  create(request: NewRequest, sealedSecrets: Uint8Array): Promise<RequestRecord>;
  find(id: string): Promise<RequestRecord | null>;
  findForTenant(tenantId: string, id: string): Promise<RequestRecord | null>;
  sealedSecrets(id: string): Promise<Uint8Array | null>;
  /**
   * Consumes the request's state and nonce and stores its result, only if no response was taken
   * before and it has not expired: false when another response won (or it expired) — nothing is
   * written then.
   */
  complete(id: string, result: PresentationResult, now: Date): Promise<boolean>;
  recordWebhook(id: string, status: WebhookStatus, attempts: number): Promise<void>;
}
