import { AppError } from '../../errors';
import { FetchError } from '../net/guarded-fetch';

/**
 * A failed fetch as a resolution error: the host said no, or answered something that is not a
 * DID document (DID_NOT_FOUND, cached briefly), or could not be reached in time (SERVICE_UNAVAILABLE,
 * not cached). Messages carry the URL that was asked, never the addresses behind it.
 */
export function resolutionError(did: string, e: unknown): AppError {
  if (e instanceof AppError) return e;
  if (!(e instanceof FetchError)) return new AppError('SERVICE_UNAVAILABLE', `${did} could not be resolved`);
  switch (e.kind) {
    case 'timeout':
    case 'network':
    // The request's budget ran out, not the DID: never remembered as "not found".
    case 'budget':
      return new AppError('SERVICE_UNAVAILABLE', `${did} could not be resolved: ${e.message}`);
    case 'http-status':
      if (e.status !== undefined && e.status >= 500) return new AppError('SERVICE_UNAVAILABLE', `${did} could not be resolved: ${e.message}`);
      return new AppError('DID_NOT_FOUND', `${did} could not be resolved: ${e.message}`);
    default:
      return new AppError('DID_NOT_FOUND', `${did} could not be resolved: ${e.message}`);
  }
}
