import { type FragmentDefinitionNode, type GraphQLResolveInfo, Kind, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';
import type { MiddlewareFn } from 'type-graphql';
import { runAsTenant } from '../fairness/tenant-context';
import type { Services } from '../services';
import type { CallAllowance } from '../services/rate-limit.service';
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

/** Oracle root fields of an operation, through inline fragments and fragment spreads. */
function countOracleFields(set: SelectionSetNode, fragments: Record<string, FragmentDefinitionNode>, seen: Set<string>): number {
  let n = 0;
  for (const sel of set.selections) {
    if (sel.kind === Kind.FIELD) n += ORACLE_FIELDS.has(sel.name.value) ? 1 : 0;
    else if (sel.kind === Kind.INLINE_FRAGMENT) n += countOracleFields(sel.selectionSet, fragments, seen);
    else if (!seen.has(sel.name.value)) {
      // A spread repeated at the root still yields one field per response key; count it once.
      seen.add(sel.name.value);
      const frag = fragments[sel.name.value];
      if (frag) n += countOracleFields(frag.selectionSet, fragments, seen);
    }
  }
  return n;
}

/** One request's reservation of oracle calls, and the next slot to hand out. */
interface Reservation {
  readonly calls: number;
  readonly allowance: Promise<CallAllowance>;
  next: number;
}

/**
 * Traffic control for GraphQL, per root field (so 10 aliases of one oracle cost 10 hits): the
 * per-API-key budget of oracle-shaped fields, and one per-tenant fair write slot per mutation.
 * Nested fields pass straight through.
 *
 * The first oracle field of an operation counts every oracle root field of it in one write and
 * the fields then take their slots in order (the first `allowed` run, the rest are refused).
 * Counting field by field let the response race ahead of its own counting: an error in one
 * non-null root field answers the request at once while its siblings' hits were still in flight,
 * so the caller's next request could slip in under the budget. Fields excluded by @skip/@include
 * are counted too (conservative: never fewer hits than calls).
 */
export function rateLimitMiddleware(services: Pick<Services, 'rateLimits' | 'writes'>): MiddlewareFn<GraphQLContext> {
  const reservations = new WeakMap<GraphQLContext, Map<OperationDefinitionNode, Reservation>>();
  const reserve = (context: GraphQLContext, info: GraphQLResolveInfo): Reservation => {
    let perOperation = reservations.get(context);
    if (!perOperation) reservations.set(context, (perOperation = new Map()));
    let r = perOperation.get(info.operation);
    if (!r) {
      const calls = countOracleFields(info.operation.selectionSet, info.fragments, new Set());
      r = { calls, allowance: services.rateLimits.forApiKeyCalls(context.actor, calls), next: 0 };
      perOperation.set(info.operation, r);
    }
    return r;
  };
  return async ({ context, info }, next) => {
    if (info.path.prev !== undefined) return next();
    const { actor } = context;
    if (ORACLE_FIELDS.has(info.fieldName)) {
      const r = reserve(context, info);
      const slot = r.next++;
      const { allowed, refusal } = await r.allowance;
      // A field the count did not foresee still pays for itself.
      if (slot >= r.calls) await services.rateLimits.forApiKey(actor);
      else if (slot >= allowed && refusal) throw refusal;
    }
    const isWrite = info.operation.operation === 'mutation' && !NOT_WRITES.has(info.fieldName);
    return runAsTenant(actor.tenantId, () => (isWrite ? services.writes.run(actor.tenantId, next) : next()));
  };
}
