import type { AppError } from './app-error';

/**
 * The WWW-Authenticate challenge of a 401 (RFC 9110 §11.6.1), the same on REST and GraphQL: both
 * credentials the service accepts when none was usable, RFC 6750's `invalid_token` for a Bearer
 * token that was refused.
 */
export function authChallenge(e: AppError): string | undefined {
  if (e.code === 'UNAUTHENTICATED') return 'ApiKey header="X-API-Key", Bearer realm="credgate"';
  if (e.code === 'INVALID_TOKEN') return 'Bearer realm="credgate", error="invalid_token"';
  return undefined;
}
