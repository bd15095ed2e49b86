import type { Config } from '../config';
import { PrismaApiKeyRepository } from '../db/repositories/api-key.repository';
import { PrismaDidRepository } from '../db/repositories/did.repository';
import { PrismaTenantRepository } from '../db/repositories/tenant.repository';
import { systemClock } from '../domain/ports';
import { verifyMasterKey } from '../kms/master-key-check';
import type { Logger } from '../logging/logger';
import { AuthService } from '../services/auth.service';
import { openKeyedDatabase } from './keyed-database';

/**
 * What the tenant and API-key commands need, and nothing more: the migrated database, the master
 * key checked as start-up checks it, and the one service they call. Building the whole core
 * (every service, the ledger, the GraphQL-free but still large module graph) made `credgate
 * api-key list` take seconds; these commands only read and write two tables.
 */
export async function openAuthCore(config: Config, logger: Logger): Promise<{ auth: AuthService; close(): Promise<void> }> {
  const keyed = await openKeyedDatabase(config, logger);
  try {
    await verifyMasterKey(keyed.db.prisma, keyed.masterKey, config.masterKeyPrevious);
    const prisma = keyed.db.prisma;
    // The DID repository only answers "is this bound service DID in the tenant?"; no ledger, no cache needed.
    const auth = new AuthService(new PrismaTenantRepository(prisma), new PrismaApiKeyRepository(prisma), systemClock, config.adminApiKey, new PrismaDidRepository(prisma));
    return { auth, close: () => keyed.close() };
  } catch (e) {
    await keyed.close();
    throw e;
  }
}
