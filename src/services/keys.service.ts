import { bytesToHex } from '../domain/encoding';
import { generateSecp256k1Keypair } from '../domain/keys';
import type { KeyCustody } from '../domain/ports';
import type { Actor } from '../domain/tenancy/actor';

export interface GeneratedKeypair {
  readonly keyId: string;
  readonly algorithm: 'secp256k1';
  /** Compressed SEC1 point, hex. */
  readonly publicKey: string;
  /** Returned exactly once, here; the service keeps only the sealed copy. */
  readonly privateKey: string;
}

/** Family B key generation: secp256k1 keys the tenant's custody keeps for later signing. */
export class KeysService {
  constructor(private readonly custody: KeyCustody) {}

  async generateKeypair(actor: Actor): Promise<GeneratedKeypair> {
    const { privateKey, publicKey } = generateSecp256k1Keypair();
    try {
      const publicKeyHex = bytesToHex(publicKey);
      const record = await this.custody.store({
        tenantId: actor.tenantId,
        algorithm: 'secp256k1',
        privateKey,
        publicKeyHex,
        purpose: 'generated',
      });
      return { keyId: record.id, algorithm: 'secp256k1', publicKey: publicKeyHex, privateKey: bytesToHex(privateKey) };
    } finally {
      privateKey.fill(0);
    }
  }
}
