/**
 * The credential a request presents: an API key (X-API-Key) and/or an OAuth2 access token
 * (`Authorization: Bearer`, RFC 6750). Both transports read it through one function so every
 * route accepts the same two forms.
 */
export interface PresentedCredential {
  readonly apiKey?: string;
  /** Set when the Authorization header uses the Bearer scheme ('' when the token is missing). */
  readonly bearer?: string;
}

const BEARER_RE = /^bearer(?:\s+(\S*))?\s*$/i;

/**
 * Reads both headers. An Authorization header of another scheme (Basic, say, added by a proxy)
 * is not a credential of this service and is ignored.
 */
export function presentedCredential(apiKeyHeader: string | undefined, authorization: string | undefined): PresentedCredential {
  const apiKey = apiKeyHeader === undefined || apiKeyHeader === '' ? undefined : apiKeyHeader;
  const m = authorization === undefined ? null : BEARER_RE.exec(authorization.trim());
  return { ...(apiKey !== undefined ? { apiKey } : {}), ...(m ? { bearer: m[1] ?? '' } : {}) };
}
