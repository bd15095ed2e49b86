import { randomUUID } from 'node:crypto';
import { AppError } from '../errors';
import { LruCache } from '../cache/lru';
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

/** Sealed key rows kept in memory: enough for every issuer DID of a busy deployment. */
export const SEALED_KEY_CACHE_SIZE = 1024;

/**
 * Stores private keys sealed under the custody KEK; hands plaintext only to a callback.
 *
 * The sealed rows (ciphertext, never the opened key) are kept in a bounded LRU: every issuance
 * and presentation used to read its issuer's row, one round trip per request on the hot paths
 * (issue 19). A row only changes when a master-key rotation re-seals it under a new KEK; a cached
 * envelope the keyring can no longer open (the old KEK retired) is dropped and the row read again,
 * and one it still opens (the old KEK kept as previous) opens to the same key. A row is deleted
 * only with the last DID or VC-API issuer that names it, so nothing asks for it afterwards.
 */
export class EnvelopeKeyCustody implements KeyCustody {
  private readonly sealed: LruCache<string, ManagedKeyRecord>;

  constructor(
    private readonly keys: Keyring,
    private readonly repo: ManagedKeyRepository,
    cacheSize = SEALED_KEY_CACHE_SIZE,
  ) {
    this.sealed = new LruCache(cacheSize);
  }

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
    const sk = await this.open(tenantId, keyId);
    try {
      return await fn(sk);
    } finally {
      sk.fill(0);
    }
  }

  private async open(tenantId: string, keyId: string): Promise<Buffer> {
    const cacheKey = `${tenantId}|${keyId}`;
    const cached = this.sealed.get(cacheKey);
    if (cached) {
      try {
        return openManagedKey(this.keys, cached);
      } catch {
        this.sealed.delete(cacheKey); // re-sealed under a KEK this keyring has; read the row again
      }
    }
    const record = await this.repo.findById(tenantId, keyId);
    if (!record) throw new AppError('NOT_FOUND', 'key not found');
    const sk = openManagedKey(this.keys, record);
    this.sealed.set(cacheKey, record);
    return sk;
  }
}
