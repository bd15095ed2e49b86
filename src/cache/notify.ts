import type { Prisma } from '../db/database';
import { CACHE_CHANNEL } from './invalidation';

/**
 * Tells every instance, inside the writer's transaction, that `key` of `topic` changed: the
 * notice is delivered when (and only if) the transaction commits.
 */
export async function notifyInTransaction(tx: Prisma.TransactionClient, topic: string, key: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_notify(${CACHE_CHANNEL}, ${`${topic}:${key}`})`;
}
