import { randomUUID } from 'node:crypto';
import { AppError } from '../errors';
import type { CustodyKeyAlgorithm, KeyCustody, ManagedKeyRecord, ManagedKeyRepository } from '../domain/ports';
import { type Keyring, open, seal } from './envelope';

/** Binds a ciphertext to its row: moving it to another key id, tenant or public key breaks it. */
function associatedData(r: { id: string; tenantId: string; algorithm: string; publicKeyHex: string }): string {
  return `credgate/managed-key/v1|${r.id}|${r.tenantId}|${r.algorithm}|${r.publicKeyHex}`;
}

/** Opens one stored private key (the caller must wipe it); throws EnvelopeError when the keyring cannot. */
export function openManagedKey(
  keys: Keyring,
  record: { id: string; tenantId: string; algorithm: string; publicKeyHex: string; encryptedPrivateKey: Uint8Array },
): Buffer {
  return open(keys, record.encryptedPrivateKey, associatedData(record));
}

/** Seals one private key for its row (at creation, and when a rotation re-seals it). */
export function sealManagedKey(
  keys: Keyring,
  record: { id: string; tenantId: string; algorithm: string; publicKeyHex: string },
  privateKey: Uint8Array,
): Buffer {
  return seal(keys, privateKey, associatedData(record));
}

/** Stores private keys sealed under the custody KEK; hands plaintext only to a callback. */
export class EnvelopeKeyCustody implements KeyCustody {
  constructor(
    private readonly keys: Keyring,
    private readonly repo: ManagedKeyRepository,
  ) {}

  store(input: { tenantId: string; algorithm: CustodyKeyAlgorithm; privateKey: Uint8Array; publicKeyHex: string; purpose: string }): Promise<ManagedKeyRecord> {
    const id = randomUUID();
    const { privateKey, ...rest } = input;
    const encryptedPrivateKey = sealManagedKey(this.keys, { id, ...rest }, privateKey);
    return this.repo.create({ id, ...rest, encryptedPrivateKey, kekId: this.keys.sealing.id });
  }

  findByPublicKey(tenantId: string, algorithm: CustodyKeyAlgorithm, publicKeyHex: string): Promise<ManagedKeyRecord | null> {
    return this.repo.findByPublicKey(tenantId, algorithm, publicKeyHex);
  }

  async use<T>(tenantId: string, keyId: string, fn: (privateKey: Uint8Array) => T | Promise<T>): Promise<T> {
    const record = await this.repo.findById(tenantId, keyId);
    if (!record) throw new AppError('NOT_FOUND', 'key not found');
    const sk = openManagedKey(this.keys, record);
    try {
      return await fn(sk);
    } finally {
      sk.fill(0);
    }
  }
}
