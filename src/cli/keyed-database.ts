import type { Config } from '../config';
import { type Database, openDatabase } from '../db/database';
import { migrate, readMigrations } from '../db/migrator';
import type { Keyring } from '../kms/envelope';
import { ledgerSeed } from '../kms/ledger-seed';
import { resolveMasterKey } from '../kms/master-key';
import { databaseHasMasterKey, verifyMasterKey } from '../kms/master-key-check';
import type { Logger } from '../logging/logger';

export interface KeyedDatabase {
  readonly db: Database;
  /** The configured master key (CREDGATE_MASTER_KEY or master.key), not yet checked by `open`. */
  readonly masterKey: Buffer;
  close(): Promise<void>;
}

/**
 * The database and its master key, for the commands that work on tables directly (rotation,
 * ledger verify, export/import) rather than through the services. Migrations are applied as the
 * service would; the key is checked by whoever calls `unlock`.
 */
export async function openKeyedDatabase(config: Config, logger: Logger): Promise<KeyedDatabase> {
  const db = await openDatabase(config.database, config.dbTimeouts);
  try {
    await migrate(db.sql, readMigrations());
    const masterKey = resolveMasterKey(config, logger, await databaseHasMasterKey(db.prisma));
    return { db, masterKey, close: () => db.close() };
  } catch (e) {
    await db.close();
    throw e;
  }
}

/** Checks the configured key(s) against the database as start-up does; returns the custody keyring and log seed. */
export async function unlock(k: KeyedDatabase, config: Config): Promise<{ keyring: Keyring; ledgerSeed: Uint8Array }> {
  const keyring = await verifyMasterKey(k.db.prisma, k.masterKey, config.masterKeyPrevious);
  return { keyring, ledgerSeed: await ledgerSeed(k.db.prisma, keyring, [k.masterKey, ...(config.masterKeyPrevious ? [config.masterKeyPrevious] : [])]) };
}
