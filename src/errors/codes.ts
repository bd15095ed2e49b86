/**
 * Every expected failure carries one of these codes. The HTTP status of each code is fixed here,
 * once, so both transports (and both REST families) agree on it.
 */
export const ERROR_STATUS = {
  INVALID_INPUT: 400,
  MALFORMED_JSON: 400,
  JSON_TOO_DEEP: 400,
  QUERY_TOO_COMPLEX: 400,
  INVALID_PUBLIC_KEY: 400,
  INVALID_PRIVATE_KEY: 400,
  INVALID_DID: 400,
  INVALID_SIGNATURE: 401,
  SCHEMA_VALIDATION_FAILED: 400,
  UNKNOWN_SCHEMA: 400,
  PUBLIC_KEY_MISMATCH: 400,
  VERIFICATION_FAILED: 400,
  UNAUTHENTICATED: 401,
  /** A Bearer access token that is expired, tampered, of another issuer or audience, or of a revoked key (RFC 6750 invalid_token). */
  INVALID_TOKEN: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  DID_NOT_FOUND: 404,
  /** A known path asked with a method it does not serve; the answer carries `Allow`. */
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  /** The first request with this Idempotency-Key is still being processed; the answer carries `Retry-After`. */
  IDEMPOTENCY_IN_PROGRESS: 409,
  /** An Idempotency-Key reused with a different request (method, path or body). */
  IDEMPOTENCY_KEY_REUSED: 422,
  REQUEST_TIMEOUT: 408,
  PAYLOAD_TOO_LARGE: 413,
  /** A JSON-LD document over its structural budget (objects, values, depth, size), refused before canonicalisation. */
  DOCUMENT_TOO_LARGE: 413,
  /** A canonicalisation that ran past its deadline; the worker running it was terminated. */
  CANONICALIZATION_BUDGET: 422,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  UNSUPPORTED_DID_METHOD: 501,
  /** A feature whose optional package is not installed (e.g. @docknetwork/crypto-wasm-ts for zero-knowledge range proofs). */
  FEATURE_OFF: 501,
  /** A zero-knowledge proof was asked for a statement the credential does not satisfy: a false statement has no proof. */
  PREDICATE_NOT_MET: 422,
  SERVICE_UNAVAILABLE: 503,
  INTERNAL: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export function statusOf(code: ErrorCode): number {
  return ERROR_STATUS[code];
}
