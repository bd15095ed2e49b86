/**
 * Refusals of the wallet-facing OpenID4VCI endpoints. They are not AppErrors: wallets parse the
 * OAuth shape (`{ error, error_description }`, RFC 6749 §5.2, OID4VCI 1.0 §8.3.1.2), not a REST
 * family's envelope, and some carry headers (`DPoP-Nonce`, `WWW-Authenticate`).
 */
export type Oid4vciErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'invalid_token'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'invalid_target'
  | 'access_denied'
  | 'invalid_dpop_proof'
  | 'use_dpop_nonce'
  | 'invalid_proof'
  | 'invalid_nonce'
  | 'invalid_credential_request'
  | 'unsupported_credential_type'
  | 'unsupported_credential_format'
  | 'unknown_credential_configuration'
  | 'invalid_transaction_id'
  | 'invalid_notification_id'
  | 'invalid_notification_request'
  | 'credential_request_denied'
  | 'temporarily_unavailable';

const STATUS: Readonly<Record<Oid4vciErrorCode, number>> = {
  invalid_request: 400,
  invalid_client: 401,
  invalid_grant: 400,
  invalid_token: 401,
  unauthorized_client: 400,
  unsupported_grant_type: 400,
  invalid_scope: 400,
  invalid_target: 400,
  access_denied: 403,
  invalid_dpop_proof: 400,
  use_dpop_nonce: 400,
  invalid_proof: 400,
  invalid_nonce: 400,
  invalid_credential_request: 400,
  unsupported_credential_type: 400,
  unsupported_credential_format: 400,
  unknown_credential_configuration: 400,
  invalid_transaction_id: 400,
  invalid_notification_id: 400,
  invalid_notification_request: 400,
  credential_request_denied: 400,
  temporarily_unavailable: 503,
};

export class Oid4vciError extends Error {
  readonly status: number;
  constructor(
    readonly error: Oid4vciErrorCode,
    readonly description: string,
    /** Headers the answer must carry (DPoP-Nonce with use_dpop_nonce, WWW-Authenticate with 401s). */
    readonly headers: Readonly<Record<string, string>> = {},
    status?: number,
  ) {
    super(description);
    this.name = 'Oid4vciError';
    this.status = status ?? STATUS[error];
  }
}

export function isOid4vciError(e: unknown): e is Oid4vciError {
  return e instanceof Oid4vciError;
}
