import type { PrismaClient } from '../db/database';
import { deriveLedgerSeed } from '../ledger/log-key';
import { type Keyring, open, seal } from './envelope';
import { keyOfRecord, readCheck } from './master-key-check';

const LEDGER_SEED = 'ledger-seed';
const aad = (name: string): string => `credgate/sealed-secret/v1|${name}`;

/**
 * The ledger signing seed. It is derived from the master key the database was created with, and
 * must outlive that key: a rotated master key must not change the logs' signing key (verifiers pin
 * it, and every stored head was signed with it). So the first rotation stores the seed sealed
 * (`storeLedgerSeed`); from then on it is read from there. Before any rotation it is derived from
 * whichever configured key is the database's key of record.
 */
export async function ledgerSeed(prisma: PrismaClient, keyring: Keyring, keys: readonly Uint8Array[]): Promise<Uint8Array> {
  const row = await prisma.sealedSecret.findUnique({ where: { name: LEDGER_SEED } });
  if (row) return Uint8Array.from(open(keyring, row.sealed, aad(LEDGER_SEED)));
  const check = await readCheck(prisma);
  const recordKey = (check && keyOfRecord(check, keys)) ?? keys[0]!;
  return deriveLedgerSeed(recordKey);
}

/** Seals the seed under the keyring's sealing KEK (insert or re-seal); returns whether it wrote. */
export async function storeLedgerSeed(prisma: PrismaClient, keyring: Keyring, seed: Uint8Array): Promise<boolean> {
  const row = await prisma.sealedSecret.findUnique({ where: { name: LEDGER_SEED }, select: { kekId: true } });
  if (row?.kekId === keyring.sealing.id) return false;
  const data = { sealed: Uint8Array.from(seal(keyring, seed, aad(LEDGER_SEED))), kekId: keyring.sealing.id, updatedAt: new Date() };
  await prisma.sealedSecret.upsert({ where: { name: LEDGER_SEED }, create: { name: LEDGER_SEED, ...data }, update: data });
  return true;
}
