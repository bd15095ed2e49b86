import { timingSafeEqual } from 'node:crypto';
import type { PrismaClient } from '../db/database';
import type { Keyring } from './envelope';
import { openManagedKey } from './key-custody';
import { deriveCustodyKek, keyCheckValue, keyringFor, legacyKek } from './key-derivation';

/** The one row of `master_key_checks`. */
const CHECK_NAME = 'master';

/**
 * Start-up refuses to run: the configured master key is not the one this database was created
 * with. Its message is one line, names no key material, and is what main/cli print after
 * "credgate: ".
 */
export class MasterKeyMismatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MasterKeyMismatchError';
  }
}

const mismatch = (detail: string): MasterKeyMismatchError =>
  new MasterKeyMismatchError(
    `the master key does not match this database (${detail}); start with the master key this database was created with (CREDGATE_MASTER_KEY, or master.key in the data folder)`,
  );

interface StoredCheck {
  readonly checkValue: Uint8Array;
  readonly kekId: string;
  readonly legacyKek: boolean;
}

/** Whether this database has met a master key before (its check row, or data from before checks existed). */
export async function databaseHasMasterKey(prisma: PrismaClient): Promise<boolean> {
  if (await prisma.masterKeyCheck.findUnique({ where: { name: CHECK_NAME }, select: { name: true } })) return true;
  return (await prisma.tenant.findFirst({ select: { id: true } })) !== null;
}

function compare(stored: StoredCheck, masterKey: Uint8Array): Keyring {
  const given = keyCheckValue(masterKey);
  const same = stored.checkValue.length === given.length && timingSafeEqual(Buffer.from(stored.checkValue), given);
  if (!same) throw mismatch(`key check failed: the database expects custody key id ${stored.kekId}, the configured key has ${deriveCustodyKek(masterKey).id}`);
  return keyringFor(masterKey, stored.legacyKek);
}

/**
 * Verifies the master key against the database before anything is written with it, and returns
 * the custody keyring.
 *
 * - The database holds a check value: the key must reproduce it.
 * - No check value yet but data (a database from before checks): one sealed private key must open
 *   under the key (legacy raw-key KEK or derived KEK); then the check value is stored, and legacy
 *   rows stay readable.
 * - An empty database: the check value of this key is stored; only the derived KEK is ever used.
 *
 * Two processes starting together on one new database: the insert is idempotent and both compare
 * against the row that won, so the loser refuses rather than sealing under another key.
 */
export async function verifyMasterKey(prisma: PrismaClient, masterKey: Uint8Array): Promise<Keyring> {
  const stored = await prisma.masterKeyCheck.findUnique({ where: { name: CHECK_NAME } });
  if (stored) return compare(stored, masterKey);

  const hasData = (await prisma.tenant.findFirst({ select: { id: true } })) !== null;
  if (hasData) {
    const probe = await prisma.managedKey.findFirst({ orderBy: { createdAt: 'asc' } });
    if (probe) {
      const keyring = keyringFor(masterKey, true);
      if (!keyring.opening.some((k) => k.id === probe.kekId)) {
        throw mismatch(`stored private keys were sealed under key id ${probe.kekId}, the configured key has ${legacyKek(masterKey).id}`);
      }
      try {
        openManagedKey(keyring, probe).fill(0);
      } catch {
        throw mismatch('a stored private key does not open under it');
      }
    }
  }
  await prisma.masterKeyCheck.createMany({
    data: [{ name: CHECK_NAME, checkValue: Uint8Array.from(keyCheckValue(masterKey)), kekId: deriveCustodyKek(masterKey).id, legacyKek: hasData }],
    skipDuplicates: true,
  });
  const winner = await prisma.masterKeyCheck.findUniqueOrThrow({ where: { name: CHECK_NAME } });
  return compare(winner, masterKey);
}
