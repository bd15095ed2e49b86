import type { MiddlewareFn } from 'type-graphql';
import { runAsTenant } from '../fairness/tenant-context';
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
  'vcVerifyCredential',
  'vcVerifyPresentation',
]);

/**
 * Mutations that hold no write slot: face work and bbs-2023 derivation (which writes nothing) have
 * their own fair queues, and Family B issuance and
 * revocation batches take the tenant's slot per transaction (PrismaCredentialRepository), so the
 * request must not hold one while it waits for its batch.
 */
const NOT_WRITES: ReadonlySet<string> = new Set(['createFaceTemplates', 'compareFaces', 'issueTemplateCredential', 'revokeTemplateCredential', 'vcDeriveCredential']);

/**
 * Traffic control for GraphQL, per root field (so 10 aliases of one oracle cost 10 hits): the
 * per-API-key budget of oracle-shaped fields, and one per-tenant fair write slot per mutation.
 * Nested fields pass straight through.
 */
export function rateLimitMiddleware(services: Pick<Services, 'rateLimits' | 'writes'>): MiddlewareFn<GraphQLContext> {
  return async ({ context, info }, next) => {
    if (info.path.prev !== undefined) return next();
    const { actor } = context;
    if (ORACLE_FIELDS.has(info.fieldName)) await services.rateLimits.forApiKey(actor);
    const isWrite = info.operation.operation === 'mutation' && !NOT_WRITES.has(info.fieldName);
    return runAsTenant(actor.tenantId, () => (isWrite ? services.writes.run(actor.tenantId, next) : next()));
  };
}
