import { unwrapResolverError } from '@apollo/server/errors';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { isAppError, isRetryLater, publicDetails } from '../errors';
import { databaseBusyError } from '../db/busy-errors';
import type { Logger } from '../logging/logger';

/** Codes Apollo itself assigns to client mistakes; they pass through unchanged. */
const CLIENT_CODES = new Set([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_REQUEST',
  'OPERATION_RESOLUTION_FAILURE',
  'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_NOT_SUPPORTED',
  'UNAUTHENTICATED',
]);

/**
 * The one GraphQL error mapping: AppErrors keep their code (in `extensions.code`) and message;
 * Apollo's own client errors pass through; anything else becomes INTERNAL with no detail.
 */
export function createFormatError(logger: Logger) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const raw = unwrapResolverError(error);
    const unwrapped = isAppError(raw) ? raw : (databaseBusyError(raw) ?? raw);
    // Errors thrown by plugins (e.g. the GraphQL limits) carry their AppError as originalError.
    const original = !isAppError(unwrapped) && error instanceof GraphQLError && isAppError(error.originalError) ? error.originalError : unwrapped;
    const base = { message: formatted.message, locations: formatted.locations, path: formatted.path };
    if (isAppError(original)) {
      const details = publicDetails(original);
      return {
        ...base,
        message: original.message,
        extensions: {
          code: original.code,
          status: original.status,
          ...(details ? { details } : {}),
          ...(isRetryLater(original) ? { retryAfter: original.retryAfterSeconds } : {}),
        },
      };
    }
    // graphql-js's own request errors (e.g. "Schema is not configured to execute subscription
    // operation") carry no code and wrap nothing; they are raised outside any field (no path),
    // so they describe the request, not a failure of the service.
    // (Apollo labels every code-less error INTERNAL_SERVER_ERROR before it gets here.)
    const bare = formatted.extensions?.['code'] === undefined || formatted.extensions['code'] === 'INTERNAL_SERVER_ERROR';
    if (original instanceof GraphQLError && original.originalError == null && formatted.path === undefined && bare) {
      return { ...base, extensions: { code: 'BAD_REQUEST' } };
    }
    const code = formatted.extensions?.['code'];
    // A variable of the wrong type is bad input like any other: one code across transports.
    if (code === 'BAD_USER_INPUT') return { ...base, extensions: { code: 'INVALID_INPUT', status: 400 } };
    if (typeof code === 'string' && CLIENT_CODES.has(code)) {
      return { ...base, extensions: { code } };
    }
    logger.error({ err: original }, 'unhandled GraphQL error');
    return { message: 'Internal server error', locations: formatted.locations, path: formatted.path, extensions: { code: 'INTERNAL' } };
  };
}
