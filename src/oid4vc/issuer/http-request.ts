/** What the use-cases need of an HTTP request: the transport builds it, so no express type leaks in. */
export interface WalletRequest {
  readonly method: string;
  /** The full URL the wallet addressed (public base URL + path), which DPoP's htu is checked against. */
  readonly url: string;
  readonly headers: Headers;
}
