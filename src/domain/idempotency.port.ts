/**
 * The store behind `Idempotency-Key` (src/services/idempotency.service.ts): the service uses it, the
 * PostgreSQL adapter implements it. Declared here, below both.
 */

/** A key belongs to one API key of one tenant: another caller's identical key is a different key. */
export interface IdempotencyScope {
  readonly tenantId: string;
  readonly apiKeyId: string;
  readonly key: string;
}

/** The part of an answer that is replayed: status, the headers that describe the body, the bytes. */
export interface StoredResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

export interface IdempotencyRecord {
  readonly fingerprint: string;
  /** Undefined while the first request is still in flight. */
  readonly response: StoredResponse | undefined;
}

/** The PostgreSQL side (src/db/repositories/idempotency.repository.ts); times come from the database clock. */
export interface IdempotencyStore {
  /** Inserts a fresh in-flight record; false when one exists already. */
  claim(scope: IdempotencyScope, fingerprint: string, owner: string, ttlSeconds: number, leaseSeconds: number): Promise<boolean>;
  /** Re-claims an expired record, or an abandoned in-flight one (lease over) of the same request. */
  takeOver(scope: IdempotencyScope, fingerprint: string, owner: string, ttlSeconds: number, leaseSeconds: number): Promise<boolean>;
  find(scope: IdempotencyScope): Promise<IdempotencyRecord | undefined>;
  /** Stores the answer of the owner's claim. */
  complete(scope: IdempotencyScope, owner: string, response: StoredResponse): Promise<void>;
  /** Forgets the owner's in-flight claim, so a retry runs again. */
  release(scope: IdempotencyScope, owner: string): Promise<void>;
  /** Deletes expired records; returns how many. */
  prune(): Promise<number>;
}
