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

export const mismatch = (detail: string): MasterKeyMismatchError =>
  new MasterKeyMismatchError(
    `the master key does not match this database (${detail}); start with the master key this database was created with (CREDGATE_MASTER_KEY, or master.key in the data folder)`,
  );

export interface StoredCheck {
  readonly checkValue: Uint8Array;
  readonly kekId: string;
  readonly legacyKek: boolean;
}

/** Whether this database has met a master key before (its check row, or data from before checks existed). */
export async function databaseHasMasterKey(prisma: PrismaClient): Promise<boolean> {
  if (await prisma.masterKeyCheck.findUnique({ where: { name: CHECK_NAME }, select: { name: true } })) return true;
  return (await prisma.tenant.findFirst({ select: { id: true } })) !== null;
}

function matches(stored: StoredCheck, key: Uint8Array): boolean {
  const given = keyCheckValue(key);
  return stored.checkValue.length === given.length && timingSafeEqual(Buffer.from(stored.checkValue), given);
}

/** Which of `keys` created the database (its key of record), or undefined when none did. */
export function keyOfRecord(stored: StoredCheck, keys: readonly Uint8Array[]): Uint8Array | undefined {
  return keys.find((k) => matches(stored, k));
}

/**
 * `masterKey` seals; `previous` (CREDGATE_MASTER_KEY_PREVIOUS, set during a rotation) only opens.
 * Either may be the key of record: before the rotation finishes the check still names the old key.
 */
function compare(stored: StoredCheck, masterKey: Uint8Array, previous?: Uint8Array): Keyring {
  const others = previous ? [previous] : [];
  if (!keyOfRecord(stored, [masterKey, ...others])) {
    const which = previous ? 'the configured keys have' : 'the configured key has';
    throw mismatch(`key check failed: the database expects custody key id ${stored.kekId}, ${which} ${[masterKey, ...others].map((k) => deriveCustodyKek(k).id).join(', ')}`);
  }
  return keyringFor(masterKey, stored.legacyKek, others);
}

/** The stored check row, or null before the database met a master key. */
export function readCheck(prisma: PrismaClient): Promise<StoredCheck | null> {
  return prisma.masterKeyCheck.findUnique({ where: { name: CHECK_NAME } });
}

/**
 * Makes `key` the database's key of record. The row is immutable except inside a transaction that
 * sets credgate.master_key_rotation (migration master_key_rotation): only a finished rotation
 * moves it, never a stray UPDATE.
 */
export async function replaceCheck(prisma: PrismaClient, key: Uint8Array): Promise<void> {
  const checkValue = Uint8Array.from(keyCheckValue(key));
  const kekId = deriveCustodyKek(key).id;
  await prisma.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT set_config('credgate.master_key_rotation', 'on', true)`;
    await tx.masterKeyCheck.update({ where: { name: CHECK_NAME }, data: { checkValue, kekId, legacyKek: false } });
  });
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
export async function verifyMasterKey(prisma: PrismaClient, masterKey: Uint8Array, previous?: Uint8Array): Promise<Keyring> {
  const stored = await readCheck(prisma);
  if (stored) return compare(stored, masterKey, previous);

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
  return compare(winner, masterKey, previous);
}
