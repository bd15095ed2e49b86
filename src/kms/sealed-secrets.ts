import type { PrismaClient } from '../db/database';
import { type Keyring, open, seal } from './envelope';

/**
 * Associated data of a sealed_secrets envelope: its row name, so a secret copied under another
 * name does not open. The ledger seed (ledger-seed.ts) and the generated OpenID4VC issuing CA
 * (services/oid4vc-keys.service.ts) are sealed this way.
 */
export const sealedSecretAad = (name: string): string => `credgate/sealed-secret/v1|${name}`;

/** sealed_secrets rows sealed under another KEK than the keyring's sealing one. */
export function countSecretsToReseal(prisma: PrismaClient, nextKekId: string): Promise<number> {
  return prisma.sealedSecret.count({ where: { kekId: { not: nextKekId } } });
}

/**
 * Re-seals every sealed_secrets row not yet under the keyring's sealing KEK (master-key rotation).
 * Each update is guarded by the KEK id it read, so a concurrent rotation that got there first is
 * left as it is. Throws when a row does not open under the keyring (the rotation must stop).
 */
export async function resealSecrets(prisma: PrismaClient, keyring: Keyring): Promise<number> {
  const nextId = keyring.sealing.id;
  const rows = await prisma.sealedSecret.findMany({ where: { kekId: { not: nextId } }, orderBy: { name: 'asc' } });
  let moved = 0;
  for (const row of rows) {
    let plain: Buffer;
    try {
      plain = open(keyring, row.sealed, sealedSecretAad(row.name));
    } catch {
      throw new Error(`the sealed secret ${row.name} does not open under the given keys`);
    }
    try {
      const sealed = Uint8Array.from(seal(keyring, plain, sealedSecretAad(row.name)));
      const { count } = await prisma.sealedSecret.updateMany({ where: { name: row.name, kekId: row.kekId }, data: { sealed, kekId: nextId, updatedAt: new Date() } });
      moved += count;
    } finally {
      plain.fill(0);
    }
  }
  return moved;
}
