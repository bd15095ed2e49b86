/** RFC 6749 §5.2 error codes (plus `temporarily_unavailable` for a spent rate limit or a busy database). */
export type OAuthErrorCode = 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unauthorized_client' | 'unsupported_grant_type' | 'invalid_scope' | 'temporarily_unavailable';

const STATUS: Readonly<Record<OAuthErrorCode, number>> = {
  invalid_request: 400,
  invalid_client: 401,
  invalid_grant: 400,
  unauthorized_client: 400,
  unsupported_grant_type: 400,
  invalid_scope: 400,
  temporarily_unavailable: 503,
};

/**
 * A refusal of the token endpoint. It is not an AppError: the token endpoint answers in RFC 6749's
 * shape (`{ error, error_description }`), which OAuth clients parse, not in a REST family's.
 */
export class OAuthError extends Error {
  readonly status: number;
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
  ) {
    super(description);
    this.name = 'OAuthError';
    this.status = STATUS[error];
  }
}

export function isOAuthError(e: unknown): e is OAuthError {
  return e instanceof OAuthError;
}
