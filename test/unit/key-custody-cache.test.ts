import { randomBytes } from 'node:crypto';
import type { ManagedKeyRecord, ManagedKeyRepository } from '../../src/domain/ports';
import { EnvelopeKeyCustody, sealManagedKey } from '../../src/kms/key-custody';
import { type Keyring, kekFromKey, singleKeyring } from '../../src/kms/envelope';

/**
 * The custody keeps sealed key rows (ciphertext only) in memory so the hot paths do not read the
 * issuer's row per request (issue 19). What must hold: the same key comes out as from the row, the
 * row is read once, a tenant never gets another tenant's row, a row re-sealed under a new master
 * key (the old one retired) is read again instead of failing, and a missing row is still NOT_FOUND.
 */
class CountingRepo implements ManagedKeyRepository {
  readonly rows = new Map<string, ManagedKeyRecord>();
  reads = 0;
  async create(input: Omit<ManagedKeyRecord, 'createdAt'>): Promise<ManagedKeyRecord> {
    const row = { ...input, createdAt: new Date() };
    this.rows.set(input.id, row);
    return row;
  }
  async findById(tenantId: string, id: string): Promise<ManagedKeyRecord | null> {
    this.reads++;
    const row = this.rows.get(id);
    return row && row.tenantId === tenantId ? row : null;
  }
  async findByPublicKey(): Promise<ManagedKeyRecord | null> {
    return null;
  }
}

const TENANT = '11111111-1111-4111-8111-111111111111';
const OTHER = '22222222-2222-4222-8222-222222222222';
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

async function setup(keyring: Keyring) {
  const repo = new CountingRepo();
  const custody = new EnvelopeKeyCustody(keyring, repo);
  const privateKey = randomBytes(32);
  const record = await custody.store({ tenantId: TENANT, algorithm: 'secp256k1', privateKey, publicKeyHex: 'ab'.repeat(33), purpose: 'did' });
  return { repo, custody, privateKey, record };
}

describe('EnvelopeKeyCustody sealed-row cache', () => {
  test('opens to the stored key every time, reading the row once', async () => {
    const { repo, custody, privateKey, record } = await setup(singleKeyring(kekFromKey(randomBytes(32))));
    for (let i = 0; i < 3; i++) expect(await custody.use(TENANT, record.id, (sk) => hex(sk))).toBe(hex(privateKey));
    expect(repo.reads).toBe(1);
  });

  test('the cache is per tenant: another tenant naming the key id is NOT_FOUND', async () => {
    const { custody, record } = await setup(singleKeyring(kekFromKey(randomBytes(32))));
    await custody.use(TENANT, record.id, () => undefined);
    await expect(custody.use(OTHER, record.id, () => undefined)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(custody.use(TENANT, '33333333-3333-4333-8333-333333333333', () => undefined)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  test('a row re-sealed under a new master key, the old one retired: the cached envelope is dropped and the row read again', async () => {
    const oldKek = kekFromKey(randomBytes(32));
    const newKek = kekFromKey(randomBytes(32));
    const keyring = { sealing: oldKek, opening: [oldKek] } as { sealing: typeof oldKek; opening: (typeof oldKek)[] };
    const { repo, custody, privateKey, record } = await setup(keyring);
    await custody.use(TENANT, record.id, () => undefined);
    // Rotation: the row is re-sealed under the new KEK, and this process now holds only the new one.
    const resealed = sealManagedKey(singleKeyring(newKek), record, privateKey);
    repo.rows.set(record.id, { ...record, encryptedPrivateKey: resealed, kekId: newKek.id });
    keyring.sealing = newKek;
    keyring.opening = [newKek];
    expect(await custody.use(TENANT, record.id, (sk) => hex(sk))).toBe(hex(privateKey));
    expect(repo.reads).toBe(2);
    expect(await custody.use(TENANT, record.id, (sk) => hex(sk))).toBe(hex(privateKey));
    expect(repo.reads).toBe(2);
  });

  test('the key handed to the callback is wiped afterwards', async () => {
    const { custody, record } = await setup(singleKeyring(kekFromKey(randomBytes(32))));
    let seen: Uint8Array | undefined;
    await custody.use(TENANT, record.id, (sk) => {
      seen = sk;
    });
    expect(seen!.every((b) => b === 0)).toBe(true);
    let again: Uint8Array | undefined;
    await custody.use(TENANT, record.id, (sk) => {
      again = Uint8Array.from(sk);
    });
    expect(again!.some((b) => b !== 0)).toBe(true);
  });
});
