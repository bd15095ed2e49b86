import { randomUUID } from 'node:crypto';
import { AppError } from '../errors';
import type { KeyAlgorithm, KeyCustody, ManagedKeyRecord, ManagedKeyRepository } from '../domain/ports';
import { type Kek, open, seal } from './envelope';

/** Binds a ciphertext to its row: moving it to another key id, tenant or public key breaks it. */
function associatedData(r: { id: string; tenantId: string; algorithm: string; publicKeyHex: string }): string {
  return `credgate/managed-key/v1|${r.id}|${r.tenantId}|${r.algorithm}|${r.publicKeyHex}`;
}

/** Stores private keys sealed under the master key; hands plaintext only to a callback. */
export class EnvelopeKeyCustody implements KeyCustody {
  constructor(
    private readonly kek: Kek,
    private readonly keys: ManagedKeyRepository,
  ) {}

  store(input: { tenantId: string; algorithm: KeyAlgorithm; privateKey: Uint8Array; publicKeyHex: string; purpose: string }): Promise<ManagedKeyRecord> {
    const id = randomUUID();
    const { privateKey, ...rest } = input;
    const encryptedPrivateKey = seal(this.kek, privateKey, associatedData({ id, ...rest }));
    return this.keys.create({ id, ...rest, encryptedPrivateKey, kekId: this.kek.id });
  }

  findByPublicKey(tenantId: string, algorithm: KeyAlgorithm, publicKeyHex: string): Promise<ManagedKeyRecord | null> {
    return this.keys.findByPublicKey(tenantId, algorithm, publicKeyHex);
  }

  async use<T>(tenantId: string, keyId: string, fn: (privateKey: Uint8Array) => T | Promise<T>): Promise<T> {
    const record = await this.keys.findById(tenantId, keyId);
    if (!record) throw new AppError('NOT_FOUND', 'key not found');
    const sk = open(this.kek, record.encryptedPrivateKey, associatedData(record));
    try {
      return await fn(sk);
    } finally {
      sk.fill(0);
    }
  }
}
