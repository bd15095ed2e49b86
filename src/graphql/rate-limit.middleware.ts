import type { MiddlewareFn } from 'type-graphql';
import type { Services } from '../services';
import type { GraphQLContext } from './context';

/** The GraphQL twins of the REST oracle-shaped operations (src/rest/middleware/rate-limit.ts). */
export const ORACLE_FIELDS: ReadonlySet<string> = new Set([
  'verifyCredential',
  'verifyTemplateCredential',
  'verifyPresentation',
  'verifyZkpToken',
  'verifySignature',
  'compareFaces',
  'decryptCredential',
]);

/**
 * Traffic control for GraphQL, per root field (so 10 aliases of one oracle cost 10 hits): the
 * per-API-key budget of oracle-shaped fields.
 * Nested fields pass straight through.
 */
export function rateLimitMiddleware(services: Pick<Services, 'rateLimits'>): MiddlewareFn<GraphQLContext> {
  return async ({ context, info }, next) => {
    if (info.path.prev !== undefined) return next();
    const { actor } = context;
    if (ORACLE_FIELDS.has(info.fieldName)) await services.rateLimits.forApiKey(actor);
    return next();
  };
}
