/**
 * A refusal at a wallet-facing endpoint, in the protocol's own shape (`{ error, error_description }`,
 * OID4VP 1.0 §8.5 / RFC 6749 §4.1.2.1), not a REST family's: wallets parse these.
 */
export type WalletErrorCode = 'invalid_request' | 'invalid_request_object' | 'invalid_request_uri_method' | 'access_denied' | 'vp_formats_not_supported';

export class WalletError extends Error {
  constructor(
    readonly error: WalletErrorCode,
    readonly description: string,
    readonly status = 400,
  ) {
    super(description);
    this.name = 'WalletError';
  }
}

export const isWalletError = (e: unknown): e is WalletError => e instanceof WalletError;
