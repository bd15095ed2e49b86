import type { PrismaClient } from '../db/database';
import { sealedSubjectContext } from '../domain/credentials/sealed-subject';
import { type Keyring, kekIdOf } from './envelope';
import { openManagedKey, sealManagedKey } from './key-custody';
import { deriveCustodyKek, keyringFor } from './key-derivation';
import { ledgerSeed, storeLedgerSeed } from './ledger-seed';
import { keyOfRecord, mismatch, readCheck, replaceCheck } from './master-key-check';
import { EnvelopeSecretBox } from './secret-box';
import { RotationError } from './rotation-error';
import { countSecretsToReseal, resealSecrets } from './sealed-secrets';

/** Reports progress of one phase: `start` once with the rows to do, then `done` per batch. */
export interface RotationProgress {
  start(phase: string, total: number): void;
  done(rows: number): void;
}

export interface RotationKeys {
  /** The configured master key (CREDGATE_MASTER_KEY or master.key). */
  readonly current: Uint8Array;
  /** CREDGATE_MASTER_KEY_PREVIOUS, when set. */
  readonly previous?: Uint8Array | undefined;
  /** The key every envelope is re-sealed under. */
  readonly next: Uint8Array;
}

export interface RotationResult {
  readonly kekId: string;
  readonly managedKeys: number;
  readonly sealedSubjects: number;
  readonly ledgerSeedStored: boolean;
  /** Other sealed_secrets rows re-sealed (e.g. the generated OpenID4VC issuing CA). */
  readonly sealedSecrets: number;
  readonly checkReplaced: boolean;
}

export { RotationError };

const ZERO_UUID = '00000000-0000-0000-0000-000000000000';
/** Each pass re-reads what is left; more than a few means a writer keeps sealing under an old key. */
const MAX_PASSES = 3;

/**
 * Re-seals every envelope the service holds under `next`:
 *   1. the ledger signing seed is stored sealed (so the logs keep their key, see ledger-seed.ts);
 *   2. managed private keys, then Family A sealed subjects, in batches of `batchSize` rows, each
 *      batch in its own transaction (a crash loses at most one batch, which rolled back);
 *   3. when no envelope under another KEK is left, the master-key check names `next`.
 * Rows are selected by the KEK id their envelope carries, so running it again after an
 * interruption continues where it stopped, and running it after it finished changes nothing.
 * Services keep serving throughout: one configured with `next` + the old key as previous opens
 * both kinds of rows and seals new ones under `next`.
 */
export async function rotateMasterKey(prisma: PrismaClient, keys: RotationKeys, progress: RotationProgress, batchSize = 200): Promise<RotationResult> {
  const check = await readCheck(prisma);
  if (!check) throw new RotationError('this database has not met a master key yet: start the service once, or there is nothing to rotate');
  const candidates = [keys.current, ...(keys.previous ? [keys.previous] : []), keys.next];
  const record = keyOfRecord(check, candidates);
  if (!record) throw mismatch(`neither the configured nor the new key is the database's: it expects custody key id ${check.kekId}`);
  const nextId = deriveCustodyKek(keys.next).id;
  // Opens everything sealed under any key given (and their pre-separation KEKs when the database has such rows).
  const keyring = keyringFor(keys.next, check.legacyKek, candidates.slice(0, -1));

  const ledgerSeedStored = await storeLedgerSeed(prisma, keyring, await ledgerSeed(prisma, keyring, [record]));
  let sealedSecrets: number;
  try {
    sealedSecrets = await resealSecrets(prisma, keyring);
  } catch (e) {
    throw new RotationError((e as Error).message);
  }
  let managedKeys = 0;
  let sealedSubjects = 0;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const movedKeys = await resealManagedKeys(prisma, keyring, progress, batchSize);
    const movedSubjects = await resealSubjects(prisma, keyring, progress, batchSize);
    managedKeys += movedKeys;
    sealedSubjects += movedSubjects;
    if (movedKeys + movedSubjects === 0) break;
  }
  if ((await countManagedKeys(prisma, nextId)) + (await countSubjects(prisma, nextId)) + (await countSecretsToReseal(prisma, nextId)) > 0) {
    throw new RotationError('envelopes under an old key keep appearing: a service still seals under the old master key; configure every instance with the new key (old one as CREDGATE_MASTER_KEY_PREVIOUS) and run again');
  }
  const checkReplaced = !Buffer.from(record).equals(Buffer.from(keys.next));
  if (checkReplaced) await replaceCheck(prisma, keys.next);
  return { kekId: nextId, managedKeys, sealedSubjects, ledgerSeedStored, sealedSecrets, checkReplaced };
}

function countManagedKeys(prisma: PrismaClient, nextId: string): Promise<number> {
  return prisma.managedKey.count({ where: { kekId: { not: nextId } } });
}

async function resealManagedKeys(prisma: PrismaClient, keyring: Keyring, progress: RotationProgress, batchSize: number): Promise<number> {
  const nextId = keyring.sealing.id;
  progress.start('managed private keys', await countManagedKeys(prisma, nextId));
  let after = ZERO_UUID;
  let moved = 0;
  for (;;) {
    const n = await prisma.$transaction(async (tx) => {
      const rows = await tx.managedKey.findMany({ where: { kekId: { not: nextId }, id: { gt: after } }, orderBy: { id: 'asc' }, take: batchSize });
      for (const row of rows) {
        let sk: Buffer;
        try {
          sk = openManagedKey(keyring, row);
        } catch {
          throw new RotationError(`managed key ${row.id} (tenant ${row.tenantId}) does not open under the given keys`);
        }
        try {
          const encryptedPrivateKey = Uint8Array.from(sealManagedKey(keyring, row, sk));
          // Guarded by the old KEK id: a concurrent rotation that got there first is left as it is.
          await tx.managedKey.updateMany({ where: { id: row.id, kekId: row.kekId }, data: { encryptedPrivateKey, kekId: nextId } });
        } finally {
          sk.fill(0);
        }
      }
      if (rows.length > 0) after = rows[rows.length - 1]!.id;
      return rows.length;
    });
    if (n === 0) return moved;
    moved += n;
    progress.done(n);
  }
}

/** Envelopes carry their KEK id in bytes 5..12 ("CGE1" | kekId(8) | ...): no column needed. */
async function countSubjects(prisma: PrismaClient, nextId: string): Promise<number> {
  const rows = await prisma.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM issued_credentials WHERE substring(sealed_subject from 5 for 8) <> decode(${nextId}, 'hex')`;
  return Number(rows[0]!.n);
}

async function resealSubjects(prisma: PrismaClient, keyring: Keyring, progress: RotationProgress, batchSize: number): Promise<number> {
  const nextId = keyring.sealing.id;
  const box = new EnvelopeSecretBox(keyring);
  progress.start('sealed credential subjects', await countSubjects(prisma, nextId));
  let after = '';
  let moved = 0;
  for (;;) {
    const n = await prisma.$transaction(async (tx) => {
      // FOR UPDATE: nothing else rewrites a sealed subject, but two rotations must not interleave.
      const rows = await tx.$queryRaw<{ id: string; sealed_subject: Uint8Array }[]>`
        SELECT id, sealed_subject FROM issued_credentials
        WHERE id > ${after} AND substring(sealed_subject from 5 for 8) <> decode(${nextId}, 'hex')
        ORDER BY id LIMIT ${batchSize} FOR UPDATE`;
      for (const row of rows) {
        if (kekIdOf(row.sealed_subject) === nextId) continue;
        let plain: Uint8Array;
        try {
          plain = box.open(row.sealed_subject, sealedSubjectContext(row.id));
        } catch {
          throw new RotationError(`the sealed subject of credential ${row.id} does not open under the given keys`);
        }
        const sealed = Uint8Array.from(box.seal(plain, sealedSubjectContext(row.id)));
        Buffer.from(plain.buffer, plain.byteOffset, plain.byteLength).fill(0);
        await tx.issuedCredential.update({ where: { id: row.id }, data: { sealedSubject: sealed } });
      }
      if (rows.length > 0) after = rows[rows.length - 1]!.id;
      return rows.length;
    });
    if (n === 0) return moved;
    moved += n;
    progress.done(n);
  }
}
